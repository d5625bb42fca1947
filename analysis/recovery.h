/* SPDX-License-Identifier: MIT */
/*
 * recovery: how long a drive's recovered performance lasts after an idle, as a pure function of
 * the measurements that follow it. The records reader (analysis/records.h) picks those
 * measurements (the tracked cell's rounds, or a write_until's chunks, up to the next idle); the
 * headline pass writes the verdict into summary.json.
 */
#ifndef SSDLAB_ANALYSIS_RECOVERY_H
#define SSDLAB_ANALYSIS_RECOVERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One measurement after the idle, in the order measured. */
struct recovery_point {
	double value;	      /* the tracked metric */
	int64_t round;	      /* its round (1-based; a write_until's chunk) */
	uint64_t write_ns;    /* target time it spent writing (measured part plus ramp) */
	uint64_t write_bytes; /* bytes it wrote, ramp included */
};

/*
 * "Back to steady state": `rounds` measurements in a row within `band` (a share) of the
 * steady-state average; "back" is the first of them. Why a run and not the first measurement
 * inside: right after an idle the drive spends the blocks its GC freed, and performance swings
 * through the band on its way down (the demo's 10 s rounds after 5 min idle: round 8 within 3%,
 * round 10 22% below), so a single round inside says nothing. Three is the shortest run in
 * which one noisy round cannot decide: a lone round inside the band needs two more after it,
 * and one round outside the band right after the first one inside (the case above) restarts
 * the count. A fitted curve was the other candidate; the rounds after an idle are a step (free
 * blocks, then none), not a curve.
 */
struct recovery_rule {
	double band;	 /* 0.10: within 10 % of the average */
	unsigned rounds; /* 3 in a row */
};
#define RECOVERY_RULE_DEFAULT ((struct recovery_rule){.band = 0.10, .rounds = 3})
#define RECOVERY_RULE_NAME "first_of_consecutive_in_band"

struct recovery_result {
	size_t measurements;	   /* points judged: up to and including the last of the run */
	double first;		   /* the first point's value */
	bool back;		   /* a run of rule.rounds points in the band was found */
	int64_t back_round;	   /* when back: the round of the run's first point */
	uint64_t back_after_ns;	   /* when back: writing (target time) before that point */
	uint64_t back_after_bytes; /* when back: bytes written before that point */
	bool has_first_in_band;	   /* some point was inside the band */
	int64_t
	    first_in_band_round; /* the first such point's round (valid when has_first_in_band) */
};

/*
 * Judges p[0..n) against the steady-state average `steady` by `rule`. When fewer than
 * rule.rounds points in a row fall in the band the verdict is "not back" (has_first_in_band
 * still says where the first one inside was). -ENODATA when n is 0, -EINVAL for rule.rounds 0;
 * *out untouched on failure.
 */
int recovery_scan(const struct recovery_point *p, size_t n, double steady,
		  const struct recovery_rule *rule, struct recovery_result *out);

#endif
