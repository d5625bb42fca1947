/* SPDX-License-Identifier: MIT */
/*
 * test_sim_sprandom: the sprandom fill (engine/sprandom.h) on the virtual SSD, against what it
 * claims to build: the steady state of uniform random 4 KiB writes under greedy GC.
 *
 * Per model (greedy GC, no SLC cache, no idle GC, FTL only; a table of spare factors):
 *   1. reference: purge, one sequential pass, then uniform random unit writes for 6x the user
 *      capacity (WA is flat well before: test_sim_wa warms up for 3x); the valid fraction of
 *      every closed block is the reference sample;
 *   2. purge, the sprandom fill at alpha from the model's effective space (the space GC can fill:
 *      physical blocks - GC reserve - half the open blocks, as analysis/pass_opvariants.c's
 *      greedy_model_effective): the drive must end full (valid_bytes = the user capacity, no
 *      unit left unmapped) and its closed blocks' valid fractions are the second sample;
 *   3. two-sample Kolmogorov-Smirnov D between the samples must be under the 0.1% critical
 *      value c(0.001) sqrt((n + m) / (n m)), c = sqrt(-ln(0.0005) / 2) = 1.949 (the largest D
 *      two samples of one distribution reach once in a thousand); both runs are seeded, so the
 *      test is deterministic, and it prints D beside the bound;
 *   4. the WA of the next 0.25x capacity of random writes (the sim's counters) must be within 5%
 *      of Desnoyers' greedy WA (analysis/theory.h) at the effective alpha;
 *   5. contrast, printed and not asserted: the same first-round WA after SNIA's 2x 128 KiB
 *      sequential precondition, and the bytes each preconditioning wrote.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "engine/sprandom.h"
#include "sim/sim.h"
#include "sim_testlib.h"

#define MIB (1024ull * 1024)

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Two-sample KS statistic: the largest gap between the empirical CDFs (ties stepped together). */
static double ks_d(double *a, size_t n, double *b, size_t m)
{
	size_t i = 0, j = 0;
	double d = 0;

	qsort(a, n, sizeof(*a), cmp_double);
	qsort(b, m, sizeof(*b), cmp_double);
	while (i < n && j < m) {
		double x = a[i] < b[j] ? a[i] : b[j];

		while (i < n && a[i] == x)
			i++;
		while (j < m && b[j] == x)
			j++;
		d = fmax(d, fabs((double)i / (double)n - (double)j / (double)m));
	}
	return d;
}

/* The closed TLC blocks' valid fractions, into a new array; *n how many. */
static double *block_fractions(const struct sim_ssd *s, size_t *n)
{
	struct sim_counters c;
	uint32_t upb, *v;
	double *f;
	size_t k;

	sim_get_counters(s, &c);
	v = malloc(c.physical_blocks * sizeof(*v));
	f = malloc(c.physical_blocks * sizeof(*f));
	assert_non_null(v);
	assert_non_null(f);
	k = sim_closed_block_valid(s, v, c.physical_blocks, &upb);
	assert_true(k <= c.physical_blocks && k > 0);
	for (size_t i = 0; i < k; i++)
		f[i] = (double)v[i] / upb;
	free(v);
	*n = k;
	return f;
}

static void write_unit(struct sim_ssd *s, uint64_t unit, uint32_t mu)
{
	uint64_t done;

	assert_int_equal(sim_write(s, unit * mu, mu, 0, &done), 0);
}

static void random_writes(struct sim_ssd *s, uint64_t n, uint64_t units, uint64_t *rng)
{
	for (uint64_t i = 0; i < n; i++)
		write_unit(s, tl_below(rng, units), sim_config(s)->mapping_unit);
}

/* WA over n random unit writes from the drive's state now. */
static double round_wa(struct sim_ssd *s, uint64_t n, uint64_t units, uint64_t *rng)
{
	struct sim_counters a, b;

	sim_get_counters(s, &a);
	random_writes(s, n, units, rng);
	sim_get_counters(s, &b);
	return (double)(b.nand_bytes_written - a.nand_bytes_written) /
	       (double)(b.host_bytes_written - a.host_bytes_written);
}

struct spr_case {
	double sf;
	uint32_t ppb;
};

static void run_case(const struct spr_case *k)
{
	struct sim_config cfg;
	struct sim_ssd *s = NULL;
	struct sim_counters c;
	struct sprandom *seq = NULL;
	uint64_t rng = 12345, units, total, pb, res, upb, ndies, seq_bytes = 0;
	double *ref, *spr, alpha, eff_alpha, theory, wa, wa_ref, wa_seq, d, bound;
	uint64_t gc_before;
	size_t nref, nspr;
	char err[256];

	sim_config_default(&cfg);
	cfg.timed = false;
	cfg.idle_gc.enabled = false;
	cfg.user_capacity = 1024 * MIB;
	cfg.spare_factor = k->sf;
	cfg.pages_per_block = k->ppb;
	assert_int_equal(sim_create(&cfg, &s), 0);
	units = cfg.user_capacity / cfg.mapping_unit;
	upb = (uint64_t)k->ppb * (cfg.page_size / cfg.mapping_unit);
	pb = sim_config_physical_blocks(&cfg);
	res = sim_config_watermark(&cfg);
	ndies = (uint64_t)cfg.channels * cfg.dies_per_channel;
	/* the space greedy GC can fill, in units of user space (pass_opvariants.c's effective) */
	eff_alpha = ((double)pb - (double)res - (double)ndies / 2) * (double)upb / (double)units;
	/* what the sim target states for spare: auto (sim.h) is the same space */
	assert_true(fabs((double)sim_config_gc_space_bytes(&cfg) / (double)cfg.mapping_unit -
			 eff_alpha * (double)units) < 1);
	theory = theory_wa_greedy(eff_alpha, (unsigned)upb);

	/* 1. the reference: long uniform random run */
	for (uint64_t u = 0; u < units; u++)
		write_unit(s, u, cfg.mapping_unit);
	random_writes(s, 6 * units, units, &rng);
	tl_check(s);
	ref = block_fractions(s, &nref);
	wa_ref = round_wa(s, units / 4, units, &rng);

	/* 2. the sprandom fill */
	sim_purge(s);
	alpha = sprandom_alpha(1 / eff_alpha);
	assert_int_equal(sprandom_create(units, alpha, SPRANDOM_DEFAULT_REGIONS, 99, &seq, err,
					 sizeof(err)),
			 0);
	total = sprandom_total(seq);
	sim_get_counters(s, &c);
	gc_before = c.gc_runs;
	for (uint64_t i = 0; i < total; i++)
		write_unit(s, sprandom_unit(seq, i), cfg.mapping_unit);
	sim_get_counters(s, &c);
	assert_int_equal(c.valid_bytes, cfg.user_capacity); /* full: every unit mapped */
	tl_check(s);
	spr = block_fractions(s, &nspr);

	/* 3. the block-validity distributions */
	d = ks_d(ref, nref, spr, nspr);
	bound = 1.949 * sqrt((double)(nref + nspr) / ((double)nref * (double)nspr));

	/* 4. the first round after the fill */
	wa = round_wa(s, units / 4, units, &rng);

	/* 5. contrast: SNIA's 2x 128 KiB sequential, then the same round */
	sim_purge(s);
	for (uint64_t off = 0; off < 2 * cfg.user_capacity; off += 128 * 1024) {
		uint64_t done;

		assert_int_equal(sim_write(s, off % cfg.user_capacity, 128 * 1024, 0, &done), 0);
		seq_bytes += 128 * 1024;
	}
	wa_seq = round_wa(s, units / 4, units, &rng);

	printf("sf %.2f, %u units/block, %llu blocks (%llu GC reserve): effective alpha %.4f, "
	       "clean validity %.4f\n",
	       k->sf, (unsigned)upb, (unsigned long long)pb, (unsigned long long)res, eff_alpha,
	       alpha);
	printf("  KS D = %.4f over %zu reference and %zu sprandom blocks, bound %.4f; gc runs "
	       "during the fill %llu\n",
	       d, nref, nspr, bound, (unsigned long long)(c.gc_runs - gc_before));
	printf("  first 0.25x round WA: after sprandom %.4f, theory %.4f (%+.2f%%); after 2x "
	       "sequential %.4f (%+.2f%%)\n",
	       wa, theory, 100 * (wa / theory - 1), wa_seq, 100 * (wa_seq / theory - 1));
	printf("  the reference's own 0.25x round from steady state: WA %.4f (%+.2f%%)\n", wa_ref,
	       100 * (wa_ref / theory - 1));
	printf("  fill bytes: sprandom %.3fx the user capacity, SNIA sequential %.3fx\n",
	       (double)total / (double)units, (double)seq_bytes / (double)cfg.user_capacity);
	assert_true(d < bound);
	assert_true(fabs(wa / theory - 1) < 0.05);
	free(ref);
	free(spr);
	sprandom_free(seq);
	sim_free(s);
}

static void test_sprandom_steady(void **state)
{
	static const struct spr_case cases[] = {{0.07, 64}, {0.12, 64}, {0.28, 64}};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sprandom_steady),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
