/* SPDX-License-Identifier: MIT */
/*
 * test_wsat: wsat_summarize (analysis/wsat.h): chunks summed per drive fill where they start,
 * the last fill taking what lies beyond, the first chunk's IOPS, and the edges (no chunks, no
 * capacity).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "analysis/wsat.h"

static void test_fills(void **state)
{
	/* capacity 100 bytes; chunks of 40 bytes: they start at 0, 40, 80 | 120, 160 | 200 */
	static const struct wsat_chunk c[] = {
	    {.ios = 1000, .elapsed_ns = 1000000000, .bytes = 40},
	    {.ios = 500, .elapsed_ns = 1000000000, .bytes = 40},
	    {.ios = 400, .elapsed_ns = 1000000000, .bytes = 40},
	    {.ios = 300, .elapsed_ns = 1000000000, .bytes = 40},
	    {.ios = 300, .elapsed_ns = 1000000000, .bytes = 40},
	    {.ios = 200, .elapsed_ns = 2000000000, .bytes = 40},
	};
	struct wsat_result w;

	(void)state;
	assert_int_equal(wsat_summarize(c, 6, 100, &w), 0);
	assert_int_equal(w.written, 240);
	assert_int_equal(w.ios, 2700);
	assert_int_equal(w.elapsed_ns, 7000000000ull);
	assert_true(w.first_iops == 1000.0);
	assert_int_equal(w.nfills, 3);
	assert_int_equal(w.fills[0].ios, 1900);
	assert_int_equal(w.fills[0].from_bytes, 0);
	assert_int_equal(w.fills[0].to_bytes, 120);
	assert_int_equal(w.fills[1].ios, 600);
	assert_int_equal(w.fills[1].from_bytes, 120);
	assert_int_equal(w.fills[1].to_bytes, 200);
	assert_int_equal(w.fills[2].ios, 200);
	assert_int_equal(w.fills[2].elapsed_ns, 2000000000ull);
	assert_int_equal(w.fills[2].to_bytes, 240);
	free(w.fills);
}

static void test_edges(void **state)
{
	struct wsat_result w = {.nfills = 77};

	(void)state;
	assert_int_equal(wsat_summarize(NULL, 0, 0, &w), -EINVAL);
	assert_int_equal(w.nfills, 77);
	assert_int_equal(wsat_summarize(NULL, 0, 100, &w), 0);
	assert_true(isnan(w.first_iops));
	assert_int_equal(w.nfills, 1);
	assert_int_equal(w.fills[0].elapsed_ns, 0);
	free(w.fills);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fills),
	    cmocka_unit_test(test_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
