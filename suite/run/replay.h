/* SPDX-License-Identifier: MIT */
/*
 * replay: the set K of a resume (runner.h, "States"): the records already in records.jsonl, in
 * file order, each with its key, and a cursor over them. The runner walks its plan and matches
 * each step's key against the record at the cursor: a match is a step to replay or re-run, the
 * end of K is where recording starts (invariant I6). Resume records are not steps: the cursor
 * steps over them. What a match means for the state machine is the runner's business (runner.c);
 * this module only holds K and answers where the walk stands in it.
 */
#ifndef SSDLAB_RUN_REPLAY_H
#define SSDLAB_RUN_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/results.h"

struct json_object;

/* The longest record key (results_record_key), its NUL included. */
#define REPLAY_KEY_MAX 256

struct replay {
	struct json_object **rec; /* K, in file order (references held) */
	char (*key)[REPLAY_KEY_MAX]; /* their keys */
	size_t n, pos;		     /* records in K; the cursor (the next one to match) */
	unsigned nresume;	     /* resume records in K, and appended since (the runner counts) */
	uint64_t last_end_ns, last_wall_ns; /* end_ns and wall_ns of K's last record */
	bool have_last;			    /* K is not empty */
};

/*
 * Fills a zeroed k with the records (may be NULL: K is empty), taking a reference to each.
 * 0; -ENOMEM; or results_record_key()'s error with err set ("record N of records.jsonl has no
 * valid key"). On failure k holds what was loaded: replay_release() it.
 */
int replay_init(struct replay *k, const struct results_records *records, char *err,
		size_t errlen);

/* Drops the references and frees the arrays; k may be zeroed or partly filled. */
void replay_release(struct replay *k);

/* True when rec is a resume record (kind "resume"), which is not a step. */
bool replay_is_resume(struct json_object *rec);

/* Moves the cursor past resume records and cool-down records (markers, not steps). */
void replay_skip_resume(struct replay *k);

/* The record of this key when it is the next step in K, else NULL; the cursor is not advanced
 * (past resume records only). */
struct json_object *replay_peek(struct replay *k, const char *key);

/* True when the cursor has walked past every step of K. */
bool replay_exhausted(struct replay *k);

#endif
