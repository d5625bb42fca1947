/* SPDX-License-Identifier: MIT */
/*
 * plan: a profile flattened once into steps with lengths, in the runner's walk order. Both
 * `ssdlab plan` and the runner's whole-run ETA are sums over this one list, so they cannot
 * disagree on what a phase takes; they differ only in what they know of the speed and the
 * drains (plan probes a private virtual SSD, the runner measures the run so far).
 *
 * A step is one phase instance: a phase in one iteration of every repeat around it. A repeat
 * is a step of length 0 followed by its body's steps, once per iteration. Numbers follow the
 * runner (runner.h): `phase` depth first, the body of a repeat numbered once and reused by
 * every iteration; `repeat` = outer repeat x count + k.
 *
 * A step's target time, one instance:
 *   one = len.ns + drain_ns + len.bytes / bps, at most len.cap_ns when that is set;
 *   the step takes one x rounds_lo .. one x rounds_hi.
 */
#ifndef SSDLAB_PLAN_H
#define SSDLAB_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/phases.h"

struct plan_step {
	int phase;	 /* depth-first number of the phase */
	unsigned repeat; /* iteration number, as the runner and the records count it */
	int depth;	 /* nesting depth (0 at the top level), for printing */
	bool first;	 /* in the first iteration of every repeat around it */
	const struct profile_phase *ph;
	struct phase_length len; /* from the kind's length hook; zero for a repeat */
	/* Filled in by a caller that knows better; 0 = the speed plan_span() is given / none. */
	double bps;	  /* speed of the byte part, bytes per second of target time */
	/* The drains of one instance's time-bound jobs, in total: 0 from plan_build(), assumed by
	 * plan_assume_drains(), probed by `ssdlab plan` or measured by the runner (run/eta.h). */
	uint64_t drain_ns;
	/* The cool-down gate's worst case before this step (its max_wait; profile/cooldown.h),
	 * target time, not scaled: heat does not follow --time-scale. 0 = no gate, or a target
	 * that skips it. Set by the planner (runner_plan); plan_span() counts it in *hi only. */
	uint64_t cooldown_ns;
};

struct plan {
	struct plan_step *v;
	size_t n;
	int nphases; /* phases numbered (the runner's nphases) */
};

/* Flattens list l for env. 0 and *out (plan_release), or -ENOMEM (out untouched). */
int plan_build(const struct phase_list *l, const struct phase_env *env, struct plan *out);
void plan_release(struct plan *pl);

/* One instance of step s at speed bps (used when s->bps is 0); *known = false when a byte part
 * has no speed. */
uint64_t plan_step_ns(const struct plan_step *s, double bps, bool *known);

/* The target time of steps [from, n): *lo .. *hi (rounds_lo .. rounds_hi rounds, plus every
 * step's cooldown_ns in *hi), at speed bps where a step has none of its own; *known as for
 * plan_step_ns (set to true first). */
void plan_span(const struct plan *pl, size_t from, double bps, uint64_t *lo, uint64_t *hi,
	       bool *known);

/* A device's write speed when nothing measured it (`ssdlab plan` on a real device, the run
 * before round 1): slower than any SSD, so that an estimate errs on the long side. */
#define PLAN_ASSUMED_BPS (100.0 * 1000 * 1000)

/* A cell's speed on a real device when nothing measured it (`ssdlab plan`'s bytes per round):
 * PLAN_ASSUMED_BPS, and for a random mode at most PLAN_TYPICAL_RND_IOPS x its mean block size
 * (a 0.5 KiB cell does not move 100 MB/s). */
double plan_assumed_cell_bps(const struct job_spec *s);

/* The mean block size of s's split (4096 when it has none), for a drain estimate. */
double plan_mean_bs(const struct job_spec *s);

/* The drain of a time-bound cell when nothing measured it: its threads x qd I/Os in flight at
 * PLAN_ASSUMED_BPS (issue 9, point 2). */
uint64_t plan_assumed_drain_ns(const struct job_spec *s);

/*
 * Sets every step's drain_ns to the estimate without a probe: the sum of
 * plan_assumed_drain_ns() over its time-bound cells (kind->jobs), resolved for env and a
 * logical block size lbs; a cell that does not resolve counts none. What `ssdlab plan` shows on
 * a real device and what the runner's ETA counts until round 1 measures the drains, so that the
 * two start from the same figure (issue 10, point 4). 0, or -ENOMEM (the plan as it was).
 */
int plan_assume_drains(struct plan *pl, const struct phase_env *env, uint32_t lbs);

/* The share of a workload's bytes that are writes: 1 for write modes, 0 for read modes,
 * (100 - rwmix_read) / 100 for a mix. */
double plan_write_share(const struct job_spec *s);

/*
 * A typical 1 TB drive, for the "1 TB drive" column of `ssdlab profiles` (issue 15, point 3).
 * Assumptions, not measurements, stated in `ssdlab profiles --help` and docs/profiles.md: a
 * 1 TB (10^12 B) TLC drive with 512 B logical blocks that writes sequentially at 500 MB/s once
 * past its SLC cache (most of a 2x-capacity preconditioning is past it) and randomly at 20 000
 * IOPS in steady state (4 KiB: 81.92 MB/s); reads are counted at the same rates. A format
 * purges it at once (no settle); drains and cool-downs are left out (a full queue drains in
 * milliseconds at these rates).
 * The sprandom fill (docs/sprandom.md) needs the spare factor: the typical drive's is 7 % (a
 * client drive's "7 % OP", the GB/GiB difference), so the fill is about 1.075 TB. It writes at
 * the sequential rate, not the random one: it ends just as foreground GC would start (its
 * construction), so the drive programs it at write amplification 1, at its NAND bandwidth,
 * which is what the sequential rate past the SLC cache measures.
 */
#define PLAN_TYPICAL_CAPACITY 1000000000000ull
#define PLAN_TYPICAL_SPARE 0.07
#define PLAN_TYPICAL_LBS 512u
#define PLAN_TYPICAL_SEQ_BPS (500.0 * 1000 * 1000)
#define PLAN_TYPICAL_RND_IOPS 20000.0

/* The speed the typical drive moves workload s at: PLAN_TYPICAL_SEQ_BPS for a sequential mode,
 * PLAN_TYPICAL_RND_IOPS x the mean block size for a random one (at most the sequential rate). */
double plan_typical_bps(const struct job_spec *s);

/*
 * The duration of phase list l on the typical drive, unscaled: *lo .. *hi (the rounds to steady
 * state from window to max_rounds, a write_until's max_time where it stops first). 0, or
 * -ENOMEM (*lo, *hi untouched).
 */
int plan_typical_span(const struct phase_list *l, uint64_t *lo, uint64_t *hi);

/* The step of (phase, repeat), or pl->n when none is. */
size_t plan_find(const struct plan *pl, int phase, unsigned repeat);

#endif
