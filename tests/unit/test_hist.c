/* SPDX-License-Identifier: MIT */
/*
 * test_hist: the latency histogram against exact order statistics. Percentiles of uniform and
 * heavy-tailed samples (GSL's generators) must be within 1% of the nearest-rank value of a
 * sorted copy; bin edges must tile the value range; merging equals adding every sample to one
 * histogram; the JSON form round-trips.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <json-c/json.h>

#include "base/hist.h"
#include "testutil.h"

#define NSAMPLES 200000

enum dist { D_UNIFORM, D_LOGUNIFORM, D_LOGNORMAL, D_PARETO, D_BIMODAL };

struct dist_case {
	const char *name;
	enum dist d;
	double a, b;
};

static const struct dist_case cases[] = {
	{"uniform 100ns-10ms", D_UNIFORM, 100, 1e7},
	{"uniform 20us-30us", D_UNIFORM, 20e3, 30e3},
	{"log-uniform 100ns-100s", D_LOGUNIFORM, 100, 1e11},
	{"lognormal median 80us sigma 1", D_LOGNORMAL, 80e3, 1.0},
	{"lognormal median 1ms sigma 2.5", D_LOGNORMAL, 1e6, 2.5},
	{"pareto alpha 1.2 from 50us", D_PARETO, 1.2, 50e3},
	{"pareto alpha 3 from 5us", D_PARETO, 3.0, 5e3},
	{"bimodal 90us / 40ms stalls", D_BIMODAL, 90e3, 40e6},
};

static const double pcts[] = {0.001, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 99.999};

static uint64_t draw(const gsl_rng *r, const struct dist_case *c)
{
	double v = 0;

	switch (c->d) {
	case D_UNIFORM:
		v = gsl_ran_flat(r, c->a, c->b);
		break;
	case D_LOGUNIFORM:
		v = exp(gsl_ran_flat(r, log(c->a), log(c->b)));
		break;
	case D_LOGNORMAL:
		v = gsl_ran_lognormal(r, log(c->a), c->b);
		break;
	case D_PARETO:
		v = gsl_ran_pareto(r, c->a, c->b);
		break;
	case D_BIMODAL:
		v = gsl_rng_uniform(r) < 0.995 ? gsl_ran_gaussian(r, c->a / 10) + c->a
					       : gsl_ran_exponential(r, c->b);
		break;
	}
	if (v < 1)
		v = 1;
	if (v > 9e12) /* keep the heaviest tails inside uint64 and 2^37 ns region tests */
		v = 9e12;
	return (uint64_t)v;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t exact_pct(const uint64_t *sorted, size_t n, double p)
{
	double r = ceil(p / 100.0 * (double)n);
	size_t rank = r < 1 ? 1 : (size_t)r;

	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

static void test_percentiles(void **state)
{
	uint64_t *v = malloc(NSAMPLES * sizeof(*v));
	struct hist *h = malloc(sizeof(*h));
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	(void)state;
	assert_non_null(v);
	assert_non_null(h);
	assert_non_null(r);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		double sum = 0;

		gsl_rng_set(r, 1000 + c);
		hist_init(h);
		for (size_t i = 0; i < NSAMPLES; i++) {
			v[i] = draw(r, &cases[c]);
			sum += (double)v[i];
			hist_add(h, v[i]);
		}
		qsort(v, NSAMPLES, sizeof(*v), cmp_u64);
		assert_int_equal(h->count, NSAMPLES);
		assert_int_equal(h->min, v[0]);
		assert_int_equal(h->max, v[NSAMPLES - 1]);
		assert_true(fabs(hist_mean(h) - sum / NSAMPLES) <= 1e-9 * sum / NSAMPLES);
		assert_int_equal(hist_percentile(h, 0), v[0]);
		assert_int_equal(hist_percentile(h, 100), v[NSAMPLES - 1]);
		for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
			uint64_t want = exact_pct(v, NSAMPLES, pcts[i]);
			uint64_t got = hist_percentile(h, pcts[i]);
			double rel = fabs((double)got - (double)want) / (double)want;

			/* Only the last bucket (>= 2^37 ns) is unbounded; beyond it only max is exact. */
			if (want >= (1ull << HIST_MAX_BITS))
				continue;
			if (rel > 0.01)
				fail_msg("%s: p%g = %llu, exact %llu (%.3f%% off)", cases[c].name,
					 pcts[i], (unsigned long long)got, (unsigned long long)want,
					 rel * 100);
		}
	}
	gsl_rng_free(r);
	free(h);
	free(v);
}

/* Bins tile [0, 2^37) without gaps or overlaps and each is at most 1/64 of its value wide. */
static void test_bin_edges(void **state)
{
	(void)state;
	assert_int_equal(hist_bin_low(0), 0);
	for (unsigned b = 0; b < HIST_NBINS; b++) {
		uint64_t lo = hist_bin_low(b), hi = hist_bin_high(b);

		assert_true(lo <= hi);
		assert_int_equal(hist_bin(lo), b);
		assert_int_equal(hist_bin(hi), b);
		if (b + 1 < HIST_NBINS)
			assert_int_equal(hist_bin_low(b + 1), hi + 1);
		if (lo >= HIST_SUB)
			assert_true((double)(hi - lo + 1) <= (double)lo / 64.0);
	}
	assert_int_equal(hist_bin_high(HIST_NBINS - 1) + 1, 1ull << HIST_MAX_BITS);
	assert_int_equal(hist_bin(UINT64_MAX), HIST_NBINS - 1);
	assert_int_equal(hist_bin(100), 100);
}

static void test_empty_and_single(void **state)
{
	struct hist h;

	(void)state;
	hist_init(&h);
	assert_int_equal(hist_percentile(&h, 50), 0);
	assert_true(hist_mean(&h) == 0.0);
	hist_add(&h, 123456789);
	for (double p = 0; p <= 100; p += 12.5)
		assert_int_equal(hist_percentile(&h, p), 123456789);
	hist_add(&h, 1ull << 40); /* beyond the last bucket: max still exact */
	assert_int_equal(hist_percentile(&h, 100), 1ull << 40);
	assert_int_equal(h.max, 1ull << 40);
}

/*
 * The nearest rank, hand-worked: ceil(p * n / 100), at least 1. 99.9% of 1000 is the 999th
 * sample (in doubles 99.9 / 100 * 1000 is 999.0000000000001, whose ceiling named the 1000th);
 * 99.999% of a million is the 999990th, leaving 10 samples beyond it.
 */
static void test_rank(void **state)
{
	static const struct {
		uint64_t n;
		double p;
		uint64_t rank;
	} rows[] = {
	    {0, 50, 0},		{1, 99.999, 1},	       {3, 50, 2},	       {10, 50, 5},
	    {7, 0, 1},		{7, 100, 7},	       {1000, 99.9, 999},      {10000, 99.9, 9990},
	    {100000, 99.9, 99900}, {1000000, 99.999, 999990}, {1000001, 99.999, 999991},
	    {999999, 99.999, 999990}, {200, 99.5, 199},	       {10000000000ull, 99.99, 9999000000ull},
	};
	struct hist *h = malloc(sizeof(*h));

	(void)state;
	assert_non_null(h);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		assert_int_equal(hist_rank(rows[i].n, rows[i].p), rows[i].rank);
	/* 999 samples of 10 ns and one of 100 ns: p99.9 is the 999th sample, 10 ns. */
	hist_init(h);
	for (int i = 0; i < 999; i++)
		hist_add(h, 10);
	hist_add(h, 100);
	assert_int_equal(hist_percentile(h, 99.9), 10);
	assert_int_equal(hist_percentile(h, 99.95), 100);
	free(h);
}

static void test_merge_is_add(void **state)
{
	struct hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)), *all = malloc(sizeof(*all));
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(all);
	hist_init(a);
	hist_init(b);
	hist_init(all);
	for (int i = 0; i < 50000; i++) {
		uint64_t x = draw(r, &cases[i % 2 ? 3 : 5]);

		hist_add(i % 3 ? a : b, x);
		hist_add(all, x);
	}
	hist_merge(a, b);
	assert_int_equal(a->count, all->count);
	assert_int_equal(a->min, all->min);
	assert_int_equal(a->max, all->max);
	assert_memory_equal(a->bins, all->bins, sizeof(a->bins));
	assert_true(fabs(a->sum - all->sum) <= 1e-9 * all->sum);
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		assert_int_equal(hist_percentile(a, pcts[i]), hist_percentile(all, pcts[i]));
	hist_init(b); /* merging an empty histogram changes nothing */
	hist_merge(a, b);
	assert_int_equal(a->min, all->min);
	gsl_rng_free(r);
	free(a);
	free(b);
	free(all);
}

static void test_json_roundtrip(void **state)
{
	struct hist *h = malloc(sizeof(*h)), *g = malloc(sizeof(*g));
	struct json_object *o, *parsed, *x;
	const char *text;

	(void)state;
	assert_non_null(h);
	assert_non_null(g);
	hist_init(h);
	for (uint64_t s = 1; s < 100000000000ull; s = s * 3 + 7)
		hist_add(h, s);
	o = hist_to_json(h);
	assert_non_null(o);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	parsed = json_tokener_parse(text);
	assert_non_null(parsed);
	assert_int_equal(hist_from_json(parsed, g), 0);
	assert_int_equal(g->count, h->count);
	assert_int_equal(g->min, h->min);
	assert_int_equal(g->max, h->max);
	assert_memory_equal(g->bins, h->bins, sizeof(h->bins));
	/* A different layout is refused and leaves the output alone. */
	json_object_object_add(parsed, "sub_bits", json_object_new_int(HIST_SUB_BITS + 1));
	g->count = 4242;
	assert_int_equal(hist_from_json(parsed, g), -EINVAL);
	assert_int_equal(g->count, 4242);
	/* Bins that do not add up to count are refused. */
	json_object_object_add(parsed, "sub_bits", json_object_new_int(HIST_SUB_BITS));
	assert_true(json_object_object_get_ex(parsed, "count", &x));
	json_object_object_add(parsed, "count", json_object_new_uint64(h->count + 1));
	assert_int_equal(hist_from_json(parsed, g), -EINVAL);
	json_object_put(parsed);
	json_object_put(o);
	free(h);
	free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bin_edges),
		cmocka_unit_test(test_empty_and_single),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_rank),
		cmocka_unit_test(test_merge_is_add),
		cmocka_unit_test(test_json_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
