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
	uint64_t drain_ns; /* the drains of one instance's time-bound jobs, in total */
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

/* The target time of steps [from, n): *lo .. *hi (rounds_lo .. rounds_hi rounds), at speed bps
 * where a step has none of its own; *known as for plan_step_ns (set to true first). */
void plan_span(const struct plan *pl, size_t from, double bps, uint64_t *lo, uint64_t *hi,
	       bool *known);

/* The step of (phase, repeat), or pl->n when none is. */
size_t plan_find(const struct plan *pl, int phase, unsigned repeat);

#endif
