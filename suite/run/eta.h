/* SPDX-License-Identifier: MIT */
/*
 * eta: the whole-run ETA over the plan (profile/plan.h). The runner's progress line says how long
 * the run has left; that figure is a sum over the same steps `ssdlab plan` sums, so the two agree
 * (issue 10, point 4). What the plan cannot know (the speed of amount-bound parts, where a
 * chunked write stands) comes from what this run has executed so far, kept here.
 */
#ifndef SSDLAB_RUN_ETA_H
#define SSDLAB_RUN_ETA_H

#include <stdbool.h>
#include <stdint.h>

#include "profile/plan.h"

struct eta {
	struct plan plan;	   /* the profile's steps in walk order (owned) */
	uint64_t io_bytes, io_ns; /* bytes and target time of the jobs this run has executed */
	/* What a chunked write phase has left, this chunk included (bytes, time; 0 = no bound),
	 * and what its chunks before this one did. */
	uint64_t left_bytes, left_ns;
	uint64_t done_bytes, done_ns;
};

/*
 * The run's time left, from phase instance (phase, repeat) at round `round`: the current job's
 * rest job_ns (for a write phase in chunks, the rest of the phase at its own pace so far), the
 * rounds of the current rounds phase after this one, and every phase instance after the current
 * one. job_bytes and job_t_ns are what the job in flight has done so far (counted into the
 * speed). Sets *lo, *hi (a range: rounds phases stop between their steady-state minimum and
 * max_rounds) and *known (false while an amount-bound part has no speed yet).
 */
void eta_run(const struct eta *e, int phase, unsigned repeat, unsigned round, uint64_t job_ns,
	     uint64_t job_bytes, uint64_t job_t_ns, uint64_t *lo, uint64_t *hi, bool *known);

/*
 * The drains of one instance of phase instance (phase, repeat), measured (round 1 of a rounds
 * phase: the sum of its time-bound cells' drains). Sets the drain of that step and of every
 * later step of the same phase (the repeat's later iterations), as `ssdlab plan` copies a first
 * iteration's probed drains to the later ones; a later measurement replaces it. Until a phase
 * is measured its steps keep the drain runner_plan() assumed (plan_assume_drains), so that the
 * initial ETA is the plan's sum (issue 10, point 4).
 */
void eta_measured_drain(struct eta *e, int phase, unsigned repeat, uint64_t drain_ns);

#endif
