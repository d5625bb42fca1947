/* SPDX-License-Identifier: MIT */
/*
 * test_qos: latency QoS (analysis/qos.h) on hand-worked histograms. Every expected number below
 * is worked out in the comments from the bin layout of base/hist.h (an octave [2^k, 2^(k+1))
 * split into 64 bins of width 2^(k-6)), not taken from the code under test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "analysis/qos.h"

/* Each test's histograms and result, allocated once per test (they are large). */
struct fx {
	struct hist h, w;
	struct qos_dir q;
};

static int setup(void **state)
{
	struct fx *f = malloc(sizeof(*f));

	if (!f)
		return -1;
	hist_init(&f->h);
	hist_init(&f->w);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

/*
 * 90 I/Os at 50 ns, 9 at 2 ms, 1 at 50 ms (100 in all).
 * 2 ms: k = 20, width 16384, 2e6 / 16384 = 122.07: bin [1998848, 2015231], middle 2007039.
 * 50 ms: k = 25, width 524288, 5e7 / 524288 = 95.37: bin [49807360, 50331647], middle 50069503,
 * clamped to the max, 50000000.
 */
static void three_levels(struct hist *h)
{
	for (int i = 0; i < 90; i++)
		hist_add(h, 50);
	for (int i = 0; i < 9; i++)
		hist_add(h, 2000000);
	hist_add(h, 50000000);
}

static void test_percentiles(void **state)
{
	/* rank = ceil(p% of 100); beyond = 100 - rank; thin below 10 beyond */
	static const struct {
		const char *key;
		uint64_t ns, rank, beyond;
		bool thin;
	} want[QOS_NPCT] = {
	    {"p50", 50, 50, 50, false},		 {"p90", 50, 90, 10, false},
	    {"p95", 2007039, 95, 5, true},	 {"p99", 2007039, 99, 1, true},
	    {"p99_9", 50000000, 100, 0, true},	 {"p99_99", 50000000, 100, 0, true},
	    {"p99_999", 50000000, 100, 0, true},
	};
	struct fx *f = *state;
	struct hist *h = &f->h;
	struct qos_dir *q = &f->q;

	three_levels(h);
	qos_compute(h, q);
	assert_int_equal(q->samples, 100);
	for (size_t i = 0; i < QOS_NPCT; i++) {
		assert_string_equal(q->pct[i].key, want[i].key);
		assert_int_equal(q->pct[i].ns, want[i].ns);
		assert_int_equal(q->pct[i].rank, want[i].rank);
		assert_int_equal(q->pct[i].beyond, want[i].beyond);
		assert_int_equal(q->pct[i].thin, want[i].thin);
	}
	/*
	 * 1 ms: k = 19, width 8192, bin [999424, 1007615] holds nothing: 10 slower, surely.
	 * 10 ms: k = 23, width 131072, bin [9961472, 10092543]: only the 50 ms one.
	 * 100 ms: above the max, none.
	 */
	assert_int_equal(q->over[0].ns, 1000000);
	assert_string_equal(q->over[0].key, "1ms");
	assert_int_equal(q->over[0].ios, 10);
	assert_int_equal(q->over[0].ios_max, 10);
	assert_int_equal(q->over[1].ios, 1);
	assert_int_equal(q->over[1].ios_max, 1);
	assert_int_equal(q->over[2].ios, 0);
	assert_int_equal(q->over[2].ios_max, 0);
}

/*
 * The curve of three_levels(): the grid 100, 125, ... 800 ns, 1 us ... 800 us, 1, 1.25, 1.6 ms
 * (43 values) sees the 10 slow I/Os above (fraction 0.1; 1.6 ms: k = 20, 1.6e6 / 16384 = 97.66,
 * high edge 98 * 16384 - 1 = 1605631); from 2 ms (high edge 2015231) to 40 ms (14 values:
 * 2, 2.5, 3.15, 4, 5, 6.3, 8 and 10 ... 40 ms) only the 50 ms one (0.01); 40 ms: k = 25,
 * 4e7 / 524288 = 76.29, high edge 77 * 524288 - 1 = 40370175. At 50 ms nothing is slower: the
 * end. Below 128 ns a bin is one value, so the first point is (100, 0.1).
 */
static void test_exceedance(void **state)
{
	struct fx *f = *state;
	struct hist *h = &f->h;
	struct qos_dir *q = &f->q;

	three_levels(h);
	qos_compute(h, q);
	assert_int_equal(q->npoints, 57);
	assert_int_equal(q->points[0].ns, 100);
	assert_int_equal(q->points[0].ios, 10);
	assert_int_equal(q->points[42].ns, 1605631);
	assert_int_equal(q->points[42].ios, 10);
	assert_int_equal(q->points[43].ns, 2015231);
	assert_int_equal(q->points[43].ios, 1);
	assert_int_equal(q->points[56].ns, 40370175);
	assert_int_equal(q->points[56].ios, 1);
	for (size_t i = 0; i < q->npoints; i++) {
		assert_true(q->points[i].fraction == (i < 43 ? 0.1 : 0.01));
		if (i)
			assert_true(q->points[i].ns > q->points[i - 1].ns);
	}
}

/*
 * The flat start: 10 I/Os at 20 us and one at 40 us. Up to 16 us every grid value has all 11
 * above it; only the last of those points stays: 16 us, k = 13, width 128, 16000 / 128 = 125,
 * high edge 16127. Then 20 us (k = 14, width 256, 20000 / 256 = 78.1: high edge 20223), 25 us
 * (97.7: 25087) and 31.5 us (123.05: 31743) have the 40 us one above (1/11); 40 us (k = 15,
 * width 512, 78.1: [39936, 40447]) holds it: the end.
 */
static void test_flat_start(void **state)
{
	static const uint64_t ns[] = {16127, 20223, 25087, 31743}, ios[] = {11, 1, 1, 1};
	struct fx *f = *state;
	struct hist *h = &f->h;
	struct qos_dir *q = &f->q;

	for (int i = 0; i < 10; i++)
		hist_add(h, 20000);
	hist_add(h, 40000);
	qos_compute(h, q);
	assert_int_equal(q->npoints, 4);
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(q->points[i].ns, ns[i]);
		assert_int_equal(q->points[i].ios, ios[i]);
		assert_true(q->points[i].fraction == (double)ios[i] / 11.0);
	}
}

/*
 * A threshold inside a bin: 1 ms is in [999424, 1007615]. 3 I/Os at 1.001 ms and 1 at
 * 0.9995 ms share that bin; 1 at 2 ms is above it. Surely slower than 1 ms: 1; perhaps: 5.
 * When the exact min or max settles it, the range closes.
 */
static void test_over_straddle(void **state)
{
	struct fx *f = *state;
	struct hist *h = &f->h;
	struct qos_dir *q = &f->q;

	for (int i = 0; i < 3; i++)
		hist_add(h, 1001000);
	hist_add(h, 999500);
	hist_add(h, 2000000);
	qos_compute(h, q);
	assert_int_equal(q->over[0].ios, 1);
	assert_int_equal(q->over[0].ios_max, 5);
	hist_init(h); /* all above 1 ms by the min */
	for (int i = 0; i < 3; i++)
		hist_add(h, 1001000);
	qos_compute(h, q);
	assert_int_equal(q->over[0].ios, 3);
	assert_int_equal(q->over[0].ios_max, 3);
	hist_init(h); /* none above by the max */
	hist_add(h, 999500);
	qos_compute(h, q);
	assert_int_equal(q->over[0].ios, 0);
	assert_int_equal(q->over[0].ios_max, 0);
}

/* A million I/Os: p99.999 is the 999990th and has exactly 10 beyond it, so it is not thin; of
 * 999999 it is ceil(999989.00001) = the 999990th again, with 9 beyond: thin. */
static void test_million(void **state)
{
	struct fx *f = *state;
	struct hist *h = &f->h;
	struct qos_dir *q = &f->q;

	for (int i = 0; i < 1000000; i++)
		hist_add(h, 100000);
	qos_compute(h, q);
	assert_int_equal(q->pct[6].rank, 999990);
	assert_int_equal(q->pct[6].beyond, 10);
	assert_false(q->pct[6].thin);
	h->count--; /* the layout of the bins does not matter to the rank */
	h->bins[hist_bin(100000)]--;
	qos_compute(h, q);
	assert_int_equal(q->pct[6].rank, 999990);
	assert_int_equal(q->pct[6].beyond, 9);
	assert_true(q->pct[6].thin);
}

static struct json_object *at(struct json_object *o, const char *path)
{
	char buf[128], *save = NULL;

	strncpy(buf, path, sizeof(buf) - 1);
	buf[sizeof(buf) - 1] = 0;
	for (char *k = strtok_r(buf, "/", &save); k && o; k = strtok_r(NULL, "/", &save))
		if (!json_object_object_get_ex(o, k, &o))
			return NULL;
	return o;
}

/* The JSON: read has three_levels(), write nothing (null), total the same as read. */
static void test_json(void **state)
{
	struct fx *f = *state;
	struct json_object *o, *x, *ex;

	three_levels(&f->h);
	o = qos_to_json(&f->h, &f->w);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "write", &x));
	assert_null(x);
	assert_int_equal(json_object_get_int64(at(o, "read/samples")), 100);
	assert_int_equal(json_object_get_int64(at(o, "total/samples")), 100);
	assert_int_equal(json_object_get_int64(at(o, "read/percentiles/p95/ns")), 2007039);
	assert_int_equal(json_object_get_int64(at(o, "read/percentiles/p95/beyond")), 5);
	assert_true(json_object_get_boolean(at(o, "read/percentiles/p99_999/thin")));
	assert_false(json_object_get_boolean(at(o, "read/percentiles/p90/thin")));
	assert_int_equal(json_object_get_int64(at(o, "total/over/10ms/ios")), 1);
	assert_int_equal(json_object_get_int64(at(o, "total/over/1ms/ns")), 1000000);
	ex = at(o, "total/exceedance");
	assert_non_null(ex);
	assert_int_equal(json_object_array_length(ex), 57);
	x = json_object_array_get_idx(ex, 43);
	assert_int_equal(json_object_get_int64(json_object_array_get_idx(x, 0)), 2015231);
	assert_true(json_object_get_double(json_object_array_get_idx(x, 1)) == 0.01);
	json_object_put(o);
}

static void test_empty(void **state)
{
	struct fx *f = *state;
	struct hist *h = &f->h;
	struct qos_dir *q = &f->q;
	int e = 0;

	qos_compute(h, q);
	assert_int_equal(q->samples, 0);
	assert_int_equal(q->npoints, 0);
	assert_null(qos_dir_to_json(q, &e));
	assert_int_equal(e, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_percentiles, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_exceedance, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_flat_start, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_over_straddle, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_million, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_json, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_empty, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
