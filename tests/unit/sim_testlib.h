/* SPDX-License-Identifier: MIT */
/*
 * sim_testlib: helpers shared by the virtual-SSD tests (test_sim_*.c): a seeded PRNG for
 * workloads and an invariant check that fails the running cmocka test. The write-amplification
 * theory the FTL is checked against is analysis/theory.h.
 */
#ifndef SSDLAB_SIM_TESTLIB_H
#define SSDLAB_SIM_TESTLIB_H

#include <stdint.h>

#include "base/prng.h"
#include "analysis/theory.h"
#include "sim/sim.h"

/* A uniform unit index below n from the splitmix64 state x (base/prng.h): the tests' own
 * workload randomness, independent of the simulator's xoshiro stream. */
uint64_t tl_below(uint64_t *x, uint64_t n);

/* Fails the running test with the first broken FTL invariant (sim_check). */
void tl_check(const struct sim_ssd *s);

/* Index of the earliest of n completion times (a closed-loop queue picks its next slot). */
unsigned tl_earliest(const uint64_t *done, unsigned n);

#endif
