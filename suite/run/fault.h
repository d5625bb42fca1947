/* SPDX-License-Identifier: MIT */
/*
 * fault: the runner's crash hook for the resume tests (runner_opts.debug_fault, "point[:n]").
 * The runner asks at each point whether this is the n-th occurrence of the one to die at; when
 * it is, the process kills itself with SIGKILL, which leaves the results directory exactly as a
 * power cut or an OOM kill would. A state struct the runner embeds; no I/O but the torn write.
 */
#ifndef SSDLAB_RUN_FAULT_H
#define SSDLAB_RUN_FAULT_H

#include <stdbool.h>

struct json_object;

enum fault_point {
	FAULT_NONE = 0,
	FAULT_CELL,
	FAULT_BEFORE,
	FAULT_AFTER,
	FAULT_TORN,
	FAULT_BOUNDARY
};

struct fault {
	enum fault_point point; /* FAULT_NONE: the hook is off */
	unsigned n;		/* die at the n-th occurrence (1 = the first) */
	unsigned seen[6];	/* occurrences so far, by point */
	bool armed_cell;	/* the current job is the n-th recorded cell: die in it */
};

/* Sets f from a spec "cell", "before-record", "after-record", "torn" or "boundary", optionally
 * ":n"; NULL or "" leaves the hook off. f must be zeroed first; an unknown point leaves it off. */
void fault_parse(struct fault *f, const char *spec);

/* Counts an occurrence of p; true when this is the one to die at. */
bool fault_hit(struct fault *f, enum fault_point p);

/* Kills the process with SIGKILL (never returns). */
void fault_die(void) __attribute__((noreturn));

/* Appends the first half of rec's line to results_dir/records.jsonl without a newline, syncs
 * it, then dies: what a crash in the middle of the append leaves behind. */
void fault_torn(const char *results_dir, struct json_object *rec) __attribute__((noreturn));

#endif
