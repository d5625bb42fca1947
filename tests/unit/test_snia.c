/* SPDX-License-Identifier: MIT */
/*
 * test_snia: the pure part of summary.json's "snia" blocks (analysis/snia.h) against values
 * worked out by hand: which test a profile name runs (old "wsat" included), cell keys and the
 * spec's loop order, a round window's mean, the latency figures of a histogram with the
 * samples behind each percentile, and the WSAT plateau, drop and steady level.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "base/hist.h"
#include "analysis/snia.h"

/* cmocka of this machine has no assert_double_equal */
#define assert_double_equal(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

static void test_names(void **state)
{
	static const struct {
		const char *profile;
		enum snia_test t;
	} rows[] = {
	    {"snia-iops", SNIA_IOPS},
	    {"snia-iops-client", SNIA_IOPS},
	    {"snia-iopsx", SNIA_NONE},
	    {"snia-throughput", SNIA_THROUGHPUT},
	    {"snia-latency-client", SNIA_LATENCY},
	    {"snia-wsat", SNIA_WSAT},
	    {"snia-wsat-client", SNIA_WSAT},
	    {"wsat", SNIA_WSAT}, /* the old name: its results keep their block */
	    {"wsat-long", SNIA_NONE},
	    {"demo", SNIA_NONE},
	    {"snia-", SNIA_NONE},
	    {NULL, SNIA_NONE},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		assert_int_equal(snia_test_from_profile(rows[i].profile), rows[i].t);
	assert_string_equal(snia_test_name(SNIA_THROUGHPUT), "throughput");
	assert_null(snia_test_name(SNIA_NONE));
	assert_int_equal(snia_test_parse("latency"), SNIA_LATENCY);
	assert_int_equal(snia_test_parse("lat"), SNIA_NONE);
	assert_int_equal(snia_test_parse(NULL), SNIA_NONE);
}

static void test_cells(void **state)
{
	struct snia_coords c;

	(void)state;
	assert_int_equal(snia_cell_coords("rwmix_read=65,bs=4k", &c), 0);
	assert_int_equal(c.rwmix_read, 65);
	assert_int_equal(c.bs, 4096);
	assert_string_equal(c.rw, "");
	assert_int_equal(snia_cell_coords("rw=write", &c), 0);
	assert_int_equal(c.rwmix_read, -1);
	assert_int_equal(c.bs, 0);
	assert_string_equal(c.rw, "write");
	assert_int_equal(snia_cell_coords("bs=512,qd=4", &c), 0);
	assert_int_equal(c.bs, 512);
	assert_int_equal(snia_cell_coords("", &c), 0);
	assert_int_equal(snia_cell_coords("rwmix_read=101", &c), -EINVAL);
	assert_int_equal(snia_cell_coords("bs", &c), -EINVAL);
	assert_int_equal(snia_cell_coords("bs=0", &c), -EINVAL);

	/* IOPS: 7 mixes (100 95 65 50 35 5 0) x 8 sizes (1m 128k 64k 32k 16k 8k 4k 512) */
	assert_int_equal(snia_spec_order(SNIA_IOPS, 100, 1 << 20), 0);
	assert_int_equal(snia_spec_order(SNIA_IOPS, 100, 512), 7);
	assert_int_equal(snia_spec_order(SNIA_IOPS, 95, 1 << 20), 8);
	assert_int_equal(snia_spec_order(SNIA_IOPS, 50, 16384), 3 * 8 + 4);
	assert_int_equal(snia_spec_order(SNIA_IOPS, 0, 4096), 54);
	assert_int_equal(snia_spec_order(SNIA_IOPS, 0, 512), 55);
	assert_int_equal(snia_spec_order(SNIA_IOPS, 50, 3072), -1);
	assert_int_equal(snia_spec_order(SNIA_IOPS, 70, 4096), -1);
	/* latency: 3 mixes (100 65 0) x 3 sizes (512 4k 8k) */
	assert_int_equal(snia_spec_order(SNIA_LATENCY, 100, 512), 0);
	assert_int_equal(snia_spec_order(SNIA_LATENCY, 65, 4096), 4);
	assert_int_equal(snia_spec_order(SNIA_LATENCY, 0, 8192), 8);
	assert_int_equal(snia_spec_order(SNIA_LATENCY, 95, 4096), -1);
	assert_int_equal(snia_spec_order(SNIA_THROUGHPUT, 0, 4096), -1);
}

static void test_window(void **state)
{
	static const double y[] = {10, 20, NAN, 40, 50, 60};
	static const int64_t r[] = {1, 2, 3, 4, 5, 6};
	size_t used = 99;

	(void)state;
	/* rounds 2..5: 20, (NaN left out), 40, 50 -> 110 / 3 */
	assert_double_equal(snia_window_mean(y, r, 6, 2, 5, &used), 110.0 / 3, 1e-12);
	assert_int_equal(used, 3);
	assert_double_equal(snia_window_mean(y, r, 6, 6, 6, &used), 60, 0);
	assert_int_equal(used, 1);
	assert_true(isnan(snia_window_mean(y, r, 6, 7, 9, &used)));
	assert_int_equal(used, 0);
}

static void test_latency(void **state)
{
	struct hist *h = malloc(sizeof(*h));
	struct snia_lat l;

	(void)state;
	assert_non_null(h);
	/* 100 samples: 99 of 100 ns, 1 of 120 ns (below 128 ns every value has its own bin) */
	hist_init(h);
	for (int i = 0; i < 99; i++)
		hist_add(h, 100);
	hist_add(h, 120);
	snia_latency(h, &l);
	assert_int_equal(l.samples, 100);
	assert_double_equal(l.mean_ns, (99 * 100 + 120) / 100.0, 1e-9);
	assert_int_equal(l.max_ns, 120);
	/* p99: rank ceil(99) = 99, the 99th sample is 100 ns; it and the one after: 2 samples */
	assert_string_equal(l.pct[0].key, "p99");
	assert_int_equal(l.pct[0].rank, 99);
	assert_int_equal(l.pct[0].ns, 100);
	assert_int_equal(l.pct[0].samples, 2);
	assert_true(l.pct[0].few);
	/* p99.9: rank ceil(99.9) = 100: 120 ns, one sample */
	assert_int_equal(l.pct[1].rank, 100);
	assert_int_equal(l.pct[1].ns, 120);
	assert_int_equal(l.pct[1].samples, 1);
	assert_string_equal(l.pct[3].key, "p99_999");

	/* 2000 samples: 1990 of 50 ns, 10 of 100 ns */
	hist_init(h);
	for (int i = 0; i < 1990; i++)
		hist_add(h, 50);
	for (int i = 0; i < 10; i++)
		hist_add(h, 100);
	snia_latency(h, &l);
	/* p99: rank 1980 -> 50 ns, 2000 - 1980 + 1 = 21 samples: enough */
	assert_int_equal(l.pct[0].rank, 1980);
	assert_int_equal(l.pct[0].ns, 50);
	assert_int_equal(l.pct[0].samples, 21);
	assert_false(l.pct[0].few);
	/* p99.9: rank ceil(1998) = 1998 -> 100 ns, 3 samples; p99.99: rank ceil(1999.8) = 2000 */
	assert_int_equal(l.pct[1].rank, 1998);
	assert_int_equal(l.pct[1].ns, 100);
	assert_int_equal(l.pct[1].samples, 3);
	assert_true(l.pct[1].few);
	assert_int_equal(l.pct[2].rank, 2000);
	assert_int_equal(l.pct[2].samples, 1);

	/* empty: no figures */
	hist_init(h);
	snia_latency(h, &l);
	assert_int_equal(l.samples, 0);
	assert_true(isnan(l.mean_ns));
	assert_int_equal(l.pct[0].rank, 0);
	free(h);
}

#define S 1000000000u /* one second: a chunk's IOPS is its I/Os */

static void test_wsat(void **state)
{
	/* capacity 100 bytes, 10 bytes a chunk; IOPS per chunk: */
	static const uint64_t iops[] = {500, 100, 100, 100, 100, /* end at 10..50: plateau set */
					95,  80,  85,  95,	     /* a dip that recovers: no drop */
					50,  40,  40,  40,  40,  40, 40, 40, 40, 40, 40};
	struct wsat_chunk c[20];
	struct snia_wsat w;

	(void)state;
	for (size_t i = 0; i < 20; i++)
		c[i] = (struct wsat_chunk){.ios = iops[i], .elapsed_ns = S, .bytes = 10};
	assert_int_equal(snia_wsat_levels(c, 20, 100, &w), 0);
	/* median of 500, 100, 100, 100, 100 */
	assert_double_equal(w.plateau_iops, 100, 0);
	/* 80 < 90 but 95 follows within 3; 50, 40, 40 all below 90: the drop is chunk 9, after
	 * 9 chunks of 10 bytes */
	assert_true(w.has_drop);
	assert_int_equal(w.drop_chunk, 9);
	assert_int_equal(w.drop_bytes, 90);
	assert_int_equal(w.plateau_chunks, 9);
	/* 200 written: the chunks starting at 100 or later, chunks 10..19, 40 IOPS each */
	assert_int_equal(w.steady_chunks, 10);
	assert_int_equal(w.steady_from_bytes, 100);
	assert_double_equal(w.steady_iops, 40, 1e-12);

	/* A chunk without time has no IOPS: skipped in the levels and in the run of 3 */
	c[10].elapsed_ns = 0;
	assert_int_equal(snia_wsat_levels(c, 20, 100, &w), 0);
	assert_int_equal(w.drop_chunk, 9);
	assert_int_equal(w.steady_chunks, 9);

	/* no drop: flat */
	for (size_t i = 0; i < 20; i++)
		c[i] = (struct wsat_chunk){.ios = 100, .elapsed_ns = S, .bytes = 10};
	assert_int_equal(snia_wsat_levels(c, 20, 100, &w), 0);
	assert_false(w.has_drop);
	assert_int_equal(w.plateau_chunks, 20);
	/* the run ends before 3 chunks: the fall to the end counts */
	c[19].ios = 10;
	assert_int_equal(snia_wsat_levels(c, 20, 100, &w), 0);
	assert_true(w.has_drop);
	assert_int_equal(w.drop_bytes, 190);

	/* no chunk ends by half a fill (one 200-byte chunk): the first chunk sets the plateau */
	c[0] = (struct wsat_chunk){.ios = 70, .elapsed_ns = S, .bytes = 200};
	assert_int_equal(snia_wsat_levels(c, 1, 100, &w), 0);
	assert_double_equal(w.plateau_iops, 70, 0);
	assert_int_equal(w.steady_chunks, 1);

	assert_int_equal(snia_wsat_levels(c, 0, 100, &w), 0);
	assert_true(isnan(w.plateau_iops));
	assert_true(isnan(w.steady_iops));
	assert_int_equal(snia_wsat_levels(c, 1, 0, &w), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names),   cmocka_unit_test(test_cells),
	    cmocka_unit_test(test_window),  cmocka_unit_test(test_latency),
	    cmocka_unit_test(test_wsat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
