/* SPDX-License-Identifier: MIT */
/*
 * fault: the runner's crash hook for the resume tests (runner_opts.debug_fault,
 * "point[:n[:stall]]"). The runner asks at each point whether this is the n-th occurrence of the
 * one to act at; when it is, the process kills itself with SIGKILL, which leaves the results
 * directory exactly as a power cut or an OOM kill would. With ":stall" it instead waits there
 * (up to FAULT_STALL_S seconds) until a signal arrives: the signal tests send SIGINT/SIGTERM
 * from outside to a run that is certainly still going, however fast the machine. A state struct
 * the runner embeds; no I/O but the torn write.
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
	bool stall;		/* ":stall": wait for a signal instead of dying */
};

/* The longest a stall waits for its signal: a test that never sends one still ends. */
#define FAULT_STALL_S 60

/* Sets f from a spec "cell", "before-record", "after-record", "torn" or "boundary", optionally
 * ":n" and then ":stall"; NULL or "" leaves the hook off. f must be zeroed first; an unknown
 * point leaves it off. */
void fault_parse(struct fault *f, const char *spec);

/* Counts an occurrence of p; true when this is the one to die at. */
bool fault_hit(struct fault *f, enum fault_point p);

/* Kills the process with SIGKILL (never returns). */
void fault_die(void) __attribute__((noreturn));

/* What the hit point does: fault_die(), or with ":stall" sleeps until a signal interrupts the
 * sleep (the stop handler has then set its flag) or FAULT_STALL_S pass, and returns. */
void fault_act(const struct fault *f);

/* Appends the first half of rec's line to results_dir/records.jsonl without a newline, syncs
 * it, then dies: what a crash in the middle of the append leaves behind. */
void fault_torn(const char *results_dir, struct json_object *rec) __attribute__((noreturn));

#endif
