/* SPDX-License-Identifier: MIT */
/*
 * cmpfast: the arithmetic of `ssdlab compare --fast FULL FAST` (issue 19): how far a run that
 * takes the fast path (sprandom-style preconditioning, an early steady-state verdict) comes in
 * drive time and host bytes to its verdict, against a full PTS run of the same drive. It reads
 * one run's summary.json, manifest.json and records (already parsed) and returns plain structs;
 * compare.c renders them. docs/report.md, "Fast against full".
 *
 * The contract it builds on (issue 19): a precondition record may carry
 * `"precondition": {"method": "sprandom", ...}` (a full run: "sequential" or no key), and a
 * steady-state result object may carry `"early": {"verdict": "predicted" | "not predicted" |
 * "off", "round": N, "confidence": C, "method": "...", "stopped_run": B}`. Where those keys are
 * absent the structs say so (early_present false, method "sequential (none recorded)").
 */
#ifndef SSDLAB_REPORT_CMPFAST_H
#define SSDLAB_REPORT_CMPFAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;
struct results_records;

/* The goals of issue 19: at most half the full run's drive time (and bytes) to the verdict, and
 * every steady-state figure within 5 % of the full run's. */
#define CMPFAST_TIME_GOAL 0.5
#define CMPFAST_FIGURE_GOAL 0.05

struct cmpfast_verdict {
	bool found;              /* the run has a steady-state result; nothing below is set if not */
	char cell[96], metric[32];
	long long phase, repeat; /* the rounds phase the result belongs to */
	char snia[32];           /* the SNIA rule's verdict as summary.json says it */
	long long snia_round;    /* the window's last round when reached, else -1 */
	bool early_present;      /* the result has an `early` object */
	char early[32];          /* its verdict; "absent" when early_present is false */
	long long early_round;   /* its round, -1 when absent */
	double early_confidence; /* NaN when absent */
	char early_method[64];   /* "" when absent */
	int stopped_run;         /* -1 when absent, else 0 or 1 */
	long long round;         /* the round the sums below run to */
	const char *round_from;  /* "early verdict", "SNIA window" or "last round (no verdict)" */
	uint64_t drive_ns;       /* sum of elapsed_ns (target time) of the records up to it */
	uint64_t host_bytes;     /* sum of the bytes they wrote (write.bytes) */
	size_t records;          /* how many records that is */
	/* The whole run, "to the figures": every record's elapsed_ns and write bytes. A *-fast
	 * run's verdict is its tracking phase's, and its figures come from the matrix rounds
	 * after it; the goal (at most CMPFAST_TIME_GOAL of the full run) is judged on these. */
	uint64_t run_drive_ns, run_host_bytes;
	size_t run_records;
};

/* The run's tracked steady-state result (borrowed): summary.steady_state[0], else the
 * steady_state object of the first SNIA block that has one; NULL when there is none. */
struct json_object *cmpfast_ss_result(struct json_object *summary);

/*
 * The verdict of result ss (cmpfast_ss_result) and the drive time and host bytes of the run's
 * records rr up to it: every record of an earlier phase (purge, precondition, ...), and of the
 * result's phase those of an earlier repeat or of a round at or before the verdict's round. The
 * verdict's round is the early verdict's when it says "predicted", else the SNIA window's last
 * round when reached, else the phase's last recorded round. The run_* sums take every record
 * (the whole run). ss NULL: out->found false.
 */
void cmpfast_verdict(struct json_object *ss, const struct results_records *rr,
		     struct cmpfast_verdict *out);

/* Why a fast run's sprandom fill ran where ssdlab refuses it (the first SNIA block's
 * header.fast.forced_past in summary, borrowed), NULL when it was not forced. */
const char *cmpfast_forced(struct json_object *summary);

/* The precondition method the run recorded: the first precondition record's
 * precondition.method, else "sprandom (profile text)" when the manifest's profile text names
 * sprandom, else "sequential (none recorded)". Writes it to buf (len bytes). */
void cmpfast_precondition(struct json_object *manifest, const struct results_records *rr,
			  char *buf, size_t len);

/* (fast - full) / full: the relative difference, NaN when full is 0 or either is not finite. */
double cmpfast_diff(double fast, double full);

/*
 * The full run's own round-to-round range of a SNIA matrix cell's IOPS, for `compare`'s figure
 * key "TEST[#REP] matrix[I].iops" (compare.c's flattening of summary.snia): the block whose test
 * (and repeat) the key names, its matrix[I].cell, and that cell's `tracking` IOPS over the
 * block's window rounds (window.first_round .. last_round). *lo and *hi the smallest and largest;
 * false (nothing set) for any other key or where the block, cell or rounds are missing. The fast
 * comparison says beside a figure over the 5 % goal whether it lies within this range widened by
 * the goal: how far the full procedure itself moves, round to round (docs/fast-steady-state.md).
 */
bool cmpfast_round_range(struct json_object *summary, const char *key, double *lo, double *hi);

/*
 * Whether the fast run's matrix row that compare's figure key names (as cmpfast_round_range)
 * failed its own check over the matrix rounds: its `fast_rounds.steady` is false
 * (analysis/pass_snia_fast.c). Its figure is then one round's, not a steady state, which the
 * fast comparison says beside it. False for any other key, or a row without that check.
 */
bool cmpfast_fast_unsteady(struct json_object *summary, const char *key);

#endif
