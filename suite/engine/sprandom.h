/* SPDX-License-Identifier: MIT */
/*
 * sprandom: the write sequence of the `precondition: {method: sprandom}` fill (docs/sprandom.md).
 * One pass of about the physical capacity that leaves a page-mapped, greedy-GC drive with the
 * block validities that uniform random writes produce at steady state, instead of 2x the user
 * capacity sequential plus hours of random rounds.
 *
 * Why it works. At steady state under uniform random writes over U units with greedy GC, a page
 * programmed a NAND writes ago is still valid with probability about exp(-a / (U WA)); the
 * oldest blocks are cleaned at the validity alpha that solves (1 - alpha) / ln(1 / alpha) =
 * U / P' (Desnoyers, SYSTOR 2012; P' the physical units GC may fill: the GC reserve excluded),
 * so validities in write order run from alpha (oldest) to 1 (newest), log-uniform. A drive places
 * host writes in arrival order, so a host sequence can lay that out directly.
 *
 * The sequence. Writes are cut into R regions, oldest first, with target validities
 * v_r = alpha^(1 - r / (R - 1)) (v_0 = alpha, v_{R-1} = 1). Every unit gets exactly one "final"
 * write (never overwritten by the sequence); region r holds F_r of them, F_r proportional to v_r
 * (sum F_r = U), and W_r = F_r / v_r writes in all; its other W_r - F_r writes go to units whose
 * final write is in a later region, so when the sequence ends exactly F_r / W_r = v_r of region
 * r's writes are still valid. Total writes = U / mean(v), about P'.
 *
 * Random access, no memory per unit. Which units are final where comes from two keyed
 * permutations (a 4-round Feistel network on the next even power of two, cycle-walked into
 * [0, n): a bijection of [0, n) in O(1) memory): sigma over [0, U) maps a final's rank (ranks
 * fstart[r] .. fstart[r+1]-1 belong to region r) to its unit, and pi_r over [0, W_r) scatters
 * region r's finals among its positions (position j is final iff pi_r(j) < F_r). A non-final
 * write draws a rank in [fstart[r+1], U) from a hash of its index. So the unit at any index is
 * computed in O(log R) plus a few hashes, with memory O(R) and none per unit: all engine streams
 * share one sequence through one atomic index, and a resumed fill starts at any index at once.
 * Every unit is written (its final write), and after the last write every unit is mapped.
 *
 * Determinism: the sequence is a function of (units, alpha, regions, seed) only.
 */
#ifndef SSDLAB_SPRANDOM_H
#define SSDLAB_SPRANDOM_H

#include <stddef.h>
#include <stdint.h>

#define SPRANDOM_MAX_REGIONS 4096u
/*
 * Default regions. A region's blocks all get one validity, so the layout is a staircase over the
 * continuous log-uniform one; v_0 = alpha puts the oldest region at the cleaning point, so fewer
 * regions leave the drive a little "older" than steady state and the first writes' WA low.
 * Measured on a 1 GiB greedy model (tests/unit/test_sim_sprandom.c) at spare 0.07 / 0.12 / 0.28,
 * first 0.25x round WA against Desnoyers: 16 regions -2.4 / -2.1 / -3.3 %, 64 -1.9 / -1.1 / -1.0
 * %, 256 -1.3 / -0.8 / -0.7 %, 1024 -1.1 / -0.8 / -0.4 % (a long random run's own 0.25x round:
 * -0.9 / -0.4 / +0.4 %), 4096 no better. 1024 costs 16 KiB; a range of fewer than 8 units a
 * region gets units / 8 regions (sprandom_default_regions()).
 */
#define SPRANDOM_DEFAULT_REGIONS 1024u
/* Fewest units per region: below this a region's share rounds to nothing. */
#define SPRANDOM_MIN_UNITS_PER_REGION 8u

struct sprandom;

/*
 * The validity alpha at which greedy GC cleans blocks at steady state: the root in (0, 1) of
 * (1 - alpha) / ln(1 / alpha) = u_over_p, where u_over_p = user / (physical - GC reserve)
 * (Desnoyers, SYSTOR 2012, the LRW/greedy large-block limit). Bisection to 1e-12. Returns NaN
 * when u_over_p is not in (0, 1).
 */
double sprandom_alpha(double u_over_p);

/*
 * Builds the sequence over `units` write units (each one block of the fill) for steady-state
 * clean validity alpha (sprandom_alpha()), `regions` regions (2..SPRANDOM_MAX_REGIONS, at most
 * units / SPRANDOM_MIN_UNITS_PER_REGION) and `seed`. Returns 0 and sets *out; -EINVAL with the
 * reason in err (alpha not in (0, 1), too few units for the regions); -ENOMEM. *out untouched on
 * failure.
 */
int sprandom_create(uint64_t units, double alpha, unsigned regions, uint64_t seed,
		    struct sprandom **out, char *err, size_t errlen);
void sprandom_free(struct sprandom *s); /* accepts NULL */

/* The default region count for a range of `units`: SPRANDOM_DEFAULT_REGIONS, or fewer so that a
 * region holds at least SPRANDOM_MIN_UNITS_PER_REGION units (never below 2). */
unsigned sprandom_default_regions(uint64_t units);

/* Writes in the whole sequence (sum of W_r). */
uint64_t sprandom_total(const struct sprandom *s);
uint64_t sprandom_units(const struct sprandom *s);
unsigned sprandom_regions(const struct sprandom *s);

/*
 * The unit written at sequence index i (0 <= i < total; an i past the end wraps around, so a
 * longer fill repeats the sequence). Pure and thread-safe: a function of s and i.
 */
uint64_t sprandom_unit(const struct sprandom *s, uint64_t i);

/* Region r's first write index, its number of writes W_r and of final writes F_r
 * (r < regions; for tests and the records). */
void sprandom_region(const struct sprandom *s, unsigned r, uint64_t *first, uint64_t *writes,
		     uint64_t *finals);
/* The target validity v_r of region r. */
double sprandom_region_target(const struct sprandom *s, unsigned r);

/* Heap bytes the sequence holds (it is O(regions), none per unit). */
size_t sprandom_memory(const struct sprandom *s);

#endif
