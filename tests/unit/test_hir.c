/* SPDX-License-Identifier: MIT */
/*
 * test_hir: analysis/hir.h's wait states against a table worked out by hand: two bursts phases
 * with a write_until between them (left out of the states), one burst without I/O time (left
 * out of its mean), and the ratio to the steady level; an unknown steady level gives NaN.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/hir.h"

#define B(ph, rd, io, w) {.phase = ph, .round = rd, .burst = true, .iops = io, .wait_ns = w, \
			  .wait_profile_ns = w}

static void test_states(void **state)
{
	const struct hir_point p[] = {
	    B(2, 1, 100, 5), B(2, 2, 200, 5), B(2, 3, 300, 5),
	    {.phase = 3, .round = 1, .iops = 1000}, /* the return to baseline: not a burst */
	    B(4, 1, 400, 50), B(4, 2, NAN, 50), B(4, 3, 800, 50),
	};
	struct hir_state s[7];
	size_t n = 0;

	(void)state;
	assert_int_equal(hir_states(p, 7, 200, s, &n), 0);
	assert_int_equal(n, 2);
	/* phase 2: (100 + 200 + 300) / 3 = 200, 1.0 of 200 */
	assert_int_equal(s[0].phase, 2);
	assert_int_equal(s[0].first, 0);
	assert_int_equal(s[0].n, 3);
	assert_int_equal(s[0].used, 3);
	assert_int_equal(s[0].wait_ns, 5);
	assert_true(fabs(s[0].mean_iops - 200) < 1e-9);
	assert_true(fabs(s[0].of_steady - 1) < 1e-12);
	/* phase 4: (400 + 800) / 2 = 600 (the burst without time left out), 3.0 of 200 */
	assert_int_equal(s[1].phase, 4);
	assert_int_equal(s[1].first, 4);
	assert_int_equal(s[1].n, 3);
	assert_int_equal(s[1].used, 2);
	assert_int_equal(s[1].wait_profile_ns, 50);
	assert_true(fabs(s[1].mean_iops - 600) < 1e-9);
	assert_true(fabs(s[1].of_steady - 3) < 1e-12);
	/* no steady level: the means stand, the ratios are NaN */
	assert_int_equal(hir_states(p, 7, NAN, s, &n), 0);
	assert_true(isnan(s[0].of_steady) && isnan(s[1].of_steady));
	assert_true(fabs(s[1].mean_iops - 600) < 1e-9);
	/* nothing to group */
	assert_int_equal(hir_states(p + 3, 1, 200, s, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(hir_states(p, 7, 200, NULL, &n), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_states),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
