/* SPDX-License-Identifier: MIT */
/*
 * test_cells: cells_sum (analysis/cells.h): counts, bytes, time and CPU summed, the first and
 * last round, host-limited and I/O-error counts, and latency percentiles of the MERGED
 * histograms, which differ from the average of the measurements' percentiles.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "analysis/cells.h"

static void test_sum(void **state)
{
	struct hist *h = calloc(5, sizeof(*h)), *all = h + 4;
	struct cells_sum *s = malloc(sizeof(*s));
	struct cells_figures a, b;

	(void)state;
	assert_non_null(h);
	assert_non_null(s);
	for (int i = 0; i < 4; i++)
		hist_init(&h[i]);
	/* round 3: 99 writes at 100 ns and one at 100000 ns; round 4: 100 writes at 1000 ns */
	for (int i = 0; i < 99; i++)
		hist_add(&h[1], 100);
	hist_add(&h[1], 100000);
	for (int i = 0; i < 100; i++)
		hist_add(&h[3], 1000);
	a = (struct cells_figures){.round = 3,
				   .elapsed_ns = 1000,
				   .ios = {0, 100},
				   .bytes = {0, 409600},
				   .h = {&h[0], &h[1]},
				   .cpu_user_s = 0.5,
				   .cpu_sys_s = 0.25,
				   .host_limited = true};
	b = (struct cells_figures){.round = 4,
				   .elapsed_ns = 3000,
				   .ios = {0, 100},
				   .bytes = {0, 409600},
				   .h = {&h[2], &h[3]},
				   .cpu_user_s = 0.5,
				   .io_error = true};
	cells_sum_init(s);
	cells_sum_add(s, &a);
	cells_sum_add(s, &b);
	assert_int_equal(s->n, 2);
	assert_int_equal(s->first_round, 3);
	assert_int_equal(s->last_round, 4);
	assert_int_equal(s->elapsed_ns, 4000);
	assert_int_equal(s->ios[1], 200);
	assert_int_equal(s->bytes[1], 819200);
	assert_int_equal(s->ios[0], 0);
	assert_true(s->cpu_user_s == 1.0 && s->cpu_sys_s == 0.25);
	assert_int_equal(s->host_limited, 1);
	assert_int_equal(s->io_errors, 1);
	assert_int_equal(s->h[1].count, 200);
	/* Averaging the two measurements' p40 (100 and 1000 ns) or p99 (100 and 1000 ns) says
	 * 550 ns; the merged bins say the 80th of 200 values (100 ns) and the 198th (1000 ns). */
	cells_sum_all(s, all);
	assert_int_equal(all->count, 200);
	assert_int_equal(hist_percentile(all, 40), hist_percentile(&h[1], 40));
	assert_true(hist_percentile(all, 40) < 550);
	/* (1000 ns's bin: the merged max, 100000 ns, no longer clamps it to 1000) */
	assert_true(hist_percentile(all, 99) >= 1000 && hist_percentile(all, 99) < 1020);
	assert_int_equal(all->max, 100000);
	free(s);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sum),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
