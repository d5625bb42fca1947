/* SPDX-License-Identifier: MIT */
/*
 * test_sprandom: the sprandom fill's write sequence (engine/sprandom.h). Replays whole sequences
 * into a per-unit "last write" table of its own and recomputes from it what the module promises:
 * the total, every unit written, per region the share of writes still valid at the end against
 * v_r = alpha^(1 - r / (R - 1)) computed here, determinism, any index reachable on its own (a
 * resumed fill), the memory bound, and alpha against hand-worked values of Desnoyers' equation.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "engine/sprandom.h"

static struct sprandom *make(uint64_t units, double alpha, unsigned regions, uint64_t seed)
{
	struct sprandom *s = NULL;
	char err[160] = "";
	int rc = sprandom_create(units, alpha, regions, seed, &s, err, sizeof(err));

	if (rc)
		fail_msg("sprandom_create(%llu, %g, %u): %d %s", (unsigned long long)units, alpha,
			 regions, rc, err);
	return s;
}

/* (1 - a) / ln(1 / a) = u/p: a = 0.5 gives 0.5 / ln 2 by hand; and the root satisfies it. */
static void test_alpha(void **state)
{
	(void)state;
	assert_true(fabs(sprandom_alpha(0.5 / log(2.0)) - 0.5) < 1e-9);
	assert_true(fabs(sprandom_alpha(0.9 / log(10.0)) - 0.1) < 1e-9);
	for (double up = 0.5; up < 0.99; up += 0.05) {
		double a = sprandom_alpha(up);

		assert_true(a > 0 && a < 1);
		assert_true(fabs((1 - a) / log(1 / a) - up) < 1e-9);
	}
	assert_true(isnan(sprandom_alpha(0)));
	assert_true(isnan(sprandom_alpha(1)));
	assert_true(isnan(sprandom_alpha(NAN)));
}

static void test_bad_input(void **state)
{
	struct sprandom *s = (struct sprandom *)0x1;
	char err[160];

	(void)state;
	assert_int_equal(sprandom_create(1000, 0, 4, 1, &s, err, sizeof(err)), -EINVAL);
	assert_int_equal(sprandom_create(1000, 1, 4, 1, &s, err, sizeof(err)), -EINVAL);
	assert_int_equal(sprandom_create(1000, 0.3, 1, 1, &s, err, sizeof(err)), -EINVAL);
	assert_int_equal(sprandom_create(100, 0.3, 64, 1, &s, err, sizeof(err)), -EINVAL);
	assert_ptr_equal(s, (struct sprandom *)0x1); /* untouched on failure */
}

/*
 * The whole sequence against the promises, for a table of (units, alpha, regions): the total
 * is the sum of the regions' writes and about units / mean(v); every unit is written; a write
 * is "final" when no later write hits its unit, and region r's finals number F_r with
 * F_r / W_r = v_r to within the rounding of W_r (one write).
 */
static void test_sequence(void **state)
{
	static const struct {
		uint64_t units;
		double alpha;
		unsigned regions;
	} cases[] = {
	    {20000, 0.30, 64}, {20000, 0.05, 16}, {65536, 0.55, 64}, {4096, 0.2, 2}, {99991, 0.4, 100},
	};

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		uint64_t u = cases[c].units;
		unsigned R = cases[c].regions;
		struct sprandom *s = make(u, cases[c].alpha, R, 42 + c);
		uint64_t total = sprandom_total(s), sumw = 0, sumf = 0;
		uint64_t *last = malloc(u * sizeof(*last));
		uint64_t *finals = calloc(R, sizeof(*finals));
		double vmean = 0;

		assert_non_null(last);
		assert_non_null(finals);
		for (uint64_t i = 0; i < u; i++)
			last[i] = UINT64_MAX;
		for (uint64_t i = 0; i < total; i++) {
			uint64_t unit = sprandom_unit(s, i);

			assert_true(unit < u);
			last[unit] = i;
		}
		for (unsigned r = 0; r < R; r++)
			vmean += pow(cases[c].alpha, 1 - (double)r / (R - 1)) / R;
		/* U / mean(v), up to the rounding of each region's write count */
		assert_true(fabs((double)total - (double)u / vmean) <= R);
		for (uint64_t i = 0; i < u; i++) {
			unsigned r = 0;
			uint64_t first, w, f;

			assert_true(last[i] != UINT64_MAX); /* every unit written */
			for (r = R - 1; r > 0; r--) {
				sprandom_region(s, r, &first, &w, &f);
				if (first <= last[i])
					break;
			}
			finals[r]++;
		}
		for (unsigned r = 0; r < R; r++) {
			uint64_t first, w, f;
			double v = pow(cases[c].alpha, 1 - (double)r / (R - 1));

			sprandom_region(s, r, &first, &w, &f);
			assert_int_equal(first, sumw);
			sumw += w;
			sumf += finals[r];
			assert_int_equal(finals[r], f);
			/* W_r = round(F_r / v_r): |F_r - v_r W_r| <= v_r / 2 */
			if (fabs((double)finals[r] - v * (double)w) > 0.5 + 1e-9)
				fail_msg("case %zu region %u: %llu finals of %llu writes, v %g", c, r,
					 (unsigned long long)finals[r], (unsigned long long)w, v);
			assert_true(fabs(sprandom_region_target(s, r) - v) < 1e-12);
		}
		assert_int_equal(sumw, total);
		assert_int_equal(sumf, u);
		free(finals);
		free(last);
		sprandom_free(s);
	}
}

/* Same inputs, same sequence; another seed, another one; any index on its own (a fill resumed
 * at chunk k) gives what the full walk gave there; an index past the end wraps around. */
static void test_determinism_and_restart(void **state)
{
	struct sprandom *a = make(30000, 0.35, 64, 7), *b = make(30000, 0.35, 64, 7);
	struct sprandom *c = make(30000, 0.35, 64, 8);
	uint64_t total = sprandom_total(a), differ = 0;
	uint64_t *seq = malloc(total * sizeof(*seq));

	(void)state;
	assert_non_null(seq);
	assert_int_equal(sprandom_total(b), total);
	for (uint64_t i = 0; i < total; i++) {
		seq[i] = sprandom_unit(a, i);
		assert_int_equal(seq[i], sprandom_unit(b, i));
		differ += seq[i] != sprandom_unit(c, i);
	}
	assert_true(differ > total * 9 / 10);
	for (uint64_t k = 0; k < total; k += 1237) /* restart at k: the same tail */
		for (uint64_t i = k; i < total && i < k + 300; i++)
			assert_int_equal(sprandom_unit(b, i), seq[i]);
	assert_int_equal(sprandom_unit(a, total + 5), seq[5]);
	free(seq);
	sprandom_free(a);
	sprandom_free(b);
	sprandom_free(c);
}

/* Memory is O(regions), nothing per unit: an 8 TB drive at 4 KiB (2^31 units) with the most
 * regions holds under 100 KiB, with the default ones under 20 KiB; its units stay inside the
 * range. */
static void test_memory(void **state)
{
	uint64_t units = 1ull << 31;
	struct sprandom *s = make(units, 0.3, SPRANDOM_MAX_REGIONS, 1);
	struct sprandom *d = make(units, 0.3, SPRANDOM_DEFAULT_REGIONS, 1);

	(void)state;
	assert_true(sprandom_memory(s) < 100 * 1024);
	assert_true(sprandom_memory(d) < 20 * 1024);
	for (uint64_t i = 0; i < sprandom_total(s); i += sprandom_total(s) / 9973)
		assert_true(sprandom_unit(s, i) < units);
	sprandom_free(s);
	sprandom_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_alpha),
	    cmocka_unit_test(test_bad_input),
	    cmocka_unit_test(test_sequence),
	    cmocka_unit_test(test_determinism_and_restart),
	    cmocka_unit_test(test_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
