/* SPDX-License-Identifier: MIT */
/*
 * wa_guard: the write-amplification guard against false steady states after a sprandom fill
 * (issue 19, docs/fast-steady-state.md "The WA guard"). A pure module beside ss.h and ss_early.h.
 *
 * Why. The sprandom fill (docs/sprandom.md) lays the drive out as uniform random writes leave a
 * greedy-GC drive at steady state, so the random-write rounds after it should run at the steady
 * state's WA at once. Where the fill falls short (a static SLC cache, enterprise-28op shrunk to
 * 2 GiB), the rounds sit on a flat plateau above the drive's long-run IOPS, and the SNIA rule and
 * the early verdict both accept it; the WA is the tell: 3.69 against the long run's 4.31 there,
 * while where the shortcut holds the tracking WA is within a few % of the long run's. A WA below
 * the expectation means GC has not yet reached the steady state's work per host write; one above
 * it (an SLC cache's folding, a drive worse than the model) is not a reason to wait: one-sided.
 *
 * The expectation: at steady state greedy GC cleans blocks at the valid fraction alpha that
 * sprandom used ((1 - alpha) / ln(1 / alpha) = U / P', Desnoyers, SYSTOR 2012); each cleaned
 * block copies alpha of its pages and frees 1 - alpha for host writes, so
 * WA = 1 / (1 - alpha) (the large-block limit of Desnoyers' greedy Eq. 12). Measured on the fast
 * benchmark's models, the long run's WA is -3.1 .. +0.6 % from it on grid-sf0.07-slc0,
 * enterprise-28op (2 GiB) and static-slc, and 11 .. 134 % above it on the others (SLC folding,
 * and client-tlc's geometry at 1 GiB, which the formula does not model): the guard is one-sided,
 * so an expectation that is too low lets the verdict through, never holds it back.
 *
 * The verdict of a round: "short" when its WA < (1 - tolerance) x expected, "ok" otherwise,
 * "unavailable" when its WA or the expectation is not a finite positive number (a drive without
 * a NAND-write counter, a round that wrote nothing): never silently "ok".
 */
#ifndef SSDLAB_ANALYSIS_WA_GUARD_H
#define SSDLAB_ANALYSIS_WA_GUARD_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/ss.h"
#include "analysis/ss_early.h"

/*
 * Default tolerance: a round's WA more than 7 % below the expectation is "short". Measured with
 * bench/fast_ss.py (docs/fast-steady-state.md, "The WA guard"), seeds 7 and 11: on the 13 models
 * where the shortcut holds, no tracking round is more than 4.7 % short; on the two false plateaus
 * the rounds are 8.8-11 % short (static-slc) and 10-15 % (enterprise-28op at 2 GiB, whose WA
 * creeps up to 6.7-7.6 % short by rounds 12-17). 7 % sits between, with room for the
 * expectation's own error (the long run is up to 3.1 % below it where it applies).
 */
#define WA_GUARD_DEFAULT_TOLERANCE 0.07

enum wa_guard_state {
	WA_GUARD_OK = 0,
	WA_GUARD_SHORT,	      /* the WA is short of the steady state's: not there yet */
	WA_GUARD_UNAVAILABLE, /* no WA measured, or no expectation */
};

struct wa_guard_round {
	enum wa_guard_state state;
	double wa;	  /* the round's WA (NaN: unavailable) */
	double expected;  /* 1 / (1 - alpha) */
	double shortfall; /* 1 - wa / expected (NaN when unavailable); > tolerance: short */
	double tolerance;
};

/* 1 / (1 - alpha), the steady-state WA of greedy GC at clean validity alpha; NaN when alpha is
 * not in (0, 1). */
double wa_guard_expected(double alpha);

/* Judges one round's WA against expected with tolerance (in [0, 1)); fills *r. Returns 0, or
 * -EINVAL (r untouched) for a tolerance out of range or r NULL. */
int wa_guard_check(double wa, double expected, double tolerance, struct wa_guard_round *r);

/* "ok", "short", "unavailable". */
const char *wa_guard_state_name(enum wa_guard_state s);

/* Which rule stopped a replayed rounds phase (wa_guard_replay). */
enum wa_guard_stop {
	WA_GUARD_STOP_NONE = 0, /* the series ended without a stop: the run ended, or was cut */
	WA_GUARD_STOP_SNIA,	/* the SNIA window passed with the guard not short */
	WA_GUARD_STOP_EARLY,	/* the early verdict predicted with the guard not short */
	WA_GUARD_STOP_MAX,	/* max_rounds reached without an accepted verdict */
};

struct wa_guard_replay_result {
	enum wa_guard_stop stop;
	unsigned round;		/* the round the rounds stop at (0 with STOP_NONE) */
	unsigned blocked;	/* rounds where a verdict (SNIA or early) was refused as short */
	unsigned first_blocked; /* the first such round (0: none) */
};

/*
 * Replays the runner's decision after each round of a tracked series y[0..n) (rounds
 * first_round..): the SNIA rule (ss_check) stops on a reached window unless guard[i] is
 * WA_GUARD_SHORT; at max_rounds it stops regardless (not reached, or reached and short: the
 * rounds end there, and the result counts the block). Else, when early is not NULL, early_ok[i]
 * (may be NULL: all allowed) holds and the early verdict (ss_early_check) predicts, it stops
 * unless strict or the guard is short. guard NULL: no guard (every round ok). Returns 0, or the
 * errors of ss_check / ss_early_check (-EINVAL, -EDOM); *out untouched on failure.
 */
int wa_guard_replay(const double *y, const enum wa_guard_state *guard, const bool *early_ok,
		    size_t n, unsigned first_round, const struct ss_params *p,
		    const struct ss_early_params *early, bool strict,
		    struct wa_guard_replay_result *out);

/* "none", "snia", "early", "max_rounds". */
const char *wa_guard_stop_name(enum wa_guard_stop s);

#endif
