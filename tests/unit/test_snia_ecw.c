/* SPDX-License-Identifier: MIT */
/*
 * test_snia_ecw: the pure part of the SNIA ECW block (analysis/snia_ecw.h) against values worked
 * by hand: cell keys to TC x QD (either order, other coordinates ignored, malformed ones
 * refused); the run order of the 49 points (TC outer, QD inner, 32 16 8 6 4 2 1: TC32/QD32 0,
 * TC32/QD1 6, TC16/QD32 7, TC6/QD6 24, TC1/QD1 48), points outside the matrix refused; IOPS per
 * point averaged over its rounds (NaN rounds left out), points sorted into run order whatever
 * the input order, and the highest-IOPS point (the first of equals).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/snia_ecw.h"

static void test_cell_toio(void **state)
{
	static const struct {
		const char *cell;
		int rc;
		unsigned t, q;
	} cases[] = {
	    {"threads=32,qd=16", 0, 32, 16}, {"qd=6,threads=4", 0, 4, 6},
	    {"rwmix_read=40,threads=1,qd=1", 0, 1, 1}, {"threads=2", -ENOENT, 0, 0},
	    {"all", -ENOENT, 0, 0}, {"threads=x,qd=1", -EINVAL, 0, 0},
	    {"threads=8,qd=0", -EINVAL, 0, 0}, {"threads=8,qd=4k", -EINVAL, 0, 0},
	    {"", -ENOENT, 0, 0},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		unsigned t = 99, q = 99;
		int rc = ecw_cell_toio(cases[i].cell, &t, &q);

		if (rc != cases[i].rc)
			fail_msg("%s: %d, expected %d", cases[i].cell, rc, cases[i].rc);
		if (!rc && (t != cases[i].t || q != cases[i].q))
			fail_msg("%s: TC%u/QD%u", cases[i].cell, t, q);
		if (rc && (t != 99 || q != 99))
			fail_msg("%s: outputs touched on failure", cases[i].cell);
	}
}

static void test_order(void **state)
{
	(void)state;
	assert_int_equal(ecw_order(32, 32), 0);
	assert_int_equal(ecw_order(32, 1), 6);
	assert_int_equal(ecw_order(16, 32), 7);
	assert_int_equal(ecw_order(6, 6), 24);
	assert_int_equal(ecw_order(1, 1), 48);
	assert_int_equal(ecw_order(3, 1), -1);
	assert_int_equal(ecw_order(1, 64), -1);
}

static void test_points(void **state)
{
	/* Rounds 1 and 2 of three points, given out of order, plus one point off the matrix:
	 * TC1/QD1 (100 + 300) / 2 = 200; TC32/QD32 (1000 + NaN) -> 1000 over 1 round;
	 * TC6/QD4 (500 + 700) / 2 = 600; TC3/QD3 (off the matrix) 5000 after them. */
	const struct ecw_cell c[] = {
	    {1, 1, 1, 100},   {6, 4, 1, 500}, {3, 3, 1, 5000}, {32, 32, 1, 1000},
	    {32, 32, 2, NAN}, {6, 4, 2, 700}, {1, 1, 2, 300},
	};
	struct ecw_point p[7];
	size_t np = 0;

	(void)state;
	assert_int_equal(ecw_points(c, 7, p, &np), 0);
	assert_int_equal(np, 4);
	assert_int_equal(p[0].threads, 32);
	assert_int_equal(p[0].qd, 32);
	assert_true(p[0].iops == 1000);
	assert_int_equal(p[0].rounds, 1);
	assert_int_equal(p[0].first_round, 1);
	assert_int_equal(p[0].last_round, 2);
	assert_int_equal(p[1].threads, 6);
	assert_int_equal(p[1].qd, 4);
	assert_true(p[1].iops == 600);
	assert_int_equal(p[1].rounds, 2);
	assert_int_equal(p[2].threads, 1);
	assert_true(p[2].iops == 200);
	assert_int_equal(p[3].threads, 3);
	assert_true(p[3].iops == 5000);
	/* the highest is the point off the matrix; without it TC32/QD32 */
	assert_int_equal(ecw_max_point(p, 4), 3);
	assert_int_equal(ecw_max_point(p, 3), 0);
	assert_int_equal(ecw_max_point(p, 0), -1);
	{
		struct ecw_point eq[2] = {{.iops = 7}, {.iops = 7}};
		struct ecw_point none[1] = {{.iops = NAN}};

		assert_int_equal(ecw_max_point(eq, 2), 0);
		assert_int_equal(ecw_max_point(none, 1), -1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cell_toio),
	    cmocka_unit_test(test_order),
	    cmocka_unit_test(test_points),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
