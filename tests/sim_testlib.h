/* SPDX-License-Identifier: MIT */
/*
 * sim_testlib: helpers shared by the virtual-SSD tests (test_sim_*.c): a seeded PRNG for
 * workloads, the write-amplification theory the FTL is checked against, and an invariant
 * check that fails the running cmocka test.
 */
#ifndef SSDLAB_SIM_TESTLIB_H
#define SSDLAB_SIM_TESTLIB_H

#include <stdint.h>

#include "base/prng.h"
#include "sim/sim.h"

/* A uniform unit index below n from the splitmix64 state x (base/prng.h): the tests' own
 * workload randomness, independent of the simulator's xoshiro stream. */
uint64_t tl_below(uint64_t *x, uint64_t n);

/* Lambert W, principal branch, on [-1/e, 0): Halley iteration on w e^w - z. */
double tl_lambert_w0(double z);
/* LRW / FIFO cleaning (Desnoyers SYSTOR 2012 Eq. 4; Xiang & Kurkoski): alpha / (alpha + W0(-alpha e^-alpha)). */
double tl_wa_lrw(double alpha);
/* Greedy cleaning with np pages per block (Desnoyers SYSTOR 2012 Eq. 12): k = 1 + 1/(2 np),
 * WA = WA_lrw(k alpha) / k. */
double tl_wa_greedy(double alpha, unsigned np);

/* Fails the running test with the first broken FTL invariant (sim_check). */
void tl_check(const struct sim_ssd *s);

/* Index of the earliest of n completion times (a closed-loop queue picks its next slot). */
unsigned tl_earliest(const uint64_t *done, unsigned n);

#endif
