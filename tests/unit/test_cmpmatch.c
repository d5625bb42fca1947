/* SPDX-License-Identifier: MIT */
/*
 * test_cmpmatch: the matching of `ssdlab compare` (suite/report/cmpmatch.c) on hand-made runs:
 * the shared rows in the first run's order with each run's index, a name repeated in a run
 * counted once, what is not in every run, and the ratio with its threshold (hand-worked values).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "report/cmpmatch.h"

static void shared_rows(void **state)
{
	static const char *const a[] = {"wa_run", "4k iops", "8k iops", "4k iops", "only a"};
	static const char *const b[] = {"8k iops", "only b", "4k iops", "wa_run"};
	static const char *const c[] = {"4k iops", "wa_run", "8k iops", "8k iops"};
	struct cmpmatch_run runs[] = {{a, 5}, {b, 4}, {c, 4}};
	size_t *idx = NULL;
	long rows;

	(void)state;
	rows = cmpmatch_shared(runs, 3, &idx);
	assert_int_equal(rows, 3);
	/* wa_run: a[0] b[3] c[1]; 4k iops: a[1] b[2] c[0]; 8k iops: a[2] b[0] c[2] (its first) */
	size_t want[] = {0, 3, 1, 1, 2, 0, 2, 0, 2};
	for (size_t i = 0; i < 9; i++)
		assert_int_equal(idx[i], want[i]);
	free(idx);

	assert_true(cmpmatch_in_all(runs, 3, "8k iops"));
	assert_false(cmpmatch_in_all(runs, 3, "only a"));
	assert_false(cmpmatch_in_all(runs, 3, "only b"));
	assert_true(cmpmatch_first(&runs[0], 1));
	assert_false(cmpmatch_first(&runs[0], 3)); /* the repeated "4k iops" */
	assert_false(cmpmatch_first(&runs[0], 5)); /* past the end */

	/* two runs with nothing in common, an empty first run, no run */
	rows = cmpmatch_shared((struct cmpmatch_run[]){{a + 4, 1}, {b + 1, 1}}, 2, &idx);
	assert_int_equal(rows, 0);
	assert_null(idx);
	rows = cmpmatch_shared((struct cmpmatch_run[]){{a, 0}, {b, 4}}, 2, &idx);
	assert_int_equal(rows, 0);
	assert_int_equal(cmpmatch_shared(runs, 0, &idx), -EINVAL);
	/* one run shares everything with itself, first occurrences only */
	rows = cmpmatch_shared(runs, 1, &idx);
	assert_int_equal(rows, 4);
	assert_int_equal(idx[3], 4);
	free(idx);
}

static void ratios(void **state)
{
	double r;

	(void)state;
	assert_int_equal(cmpmatch_diff(110, 100, 0.10, &r), 0); /* exactly +10 %: within */
	assert_true(fabs(r - (1.1)) <= 1e-15);
	assert_int_equal(cmpmatch_diff(111, 100, 0.10, &r), 1);
	assert_true(fabs(r - (1.11)) <= 1e-15);
	assert_int_equal(cmpmatch_diff(89, 100, 0.10, &r), 1);
	assert_int_equal(cmpmatch_diff(2.5, 10, 0.10, &r), 1);
	assert_true(fabs(r - (0.25)) <= 0);
	assert_int_equal(cmpmatch_diff(0, 0, 0.10, &r), 0); /* two zeros are equal */
	assert_true(fabs(r - (1)) <= 0);
	assert_int_equal(cmpmatch_diff(5, 0, 0.10, &r), -1);
	assert_true(isnan(r));
	assert_int_equal(cmpmatch_diff(NAN, 3, 0.10, &r), -1);
	assert_int_equal(cmpmatch_diff(3, INFINITY, 0.10, &r), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(shared_rows),
	    cmocka_unit_test(ratios),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
