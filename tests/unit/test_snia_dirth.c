/* SPDX-License-Identifier: MIT */
/*
 * test_snia_dirth: the DIRTH point choice (analysis/snia_dirth.h) against tables worked out by
 * hand: Max the highest IOPS (a tie keeps the first, the higher TOIO of a high-to-low round),
 * Min the TC1/QD1 cell, Mid of the others the IOPS nearest (Max + Min) / 2; cells without IOPS
 * (NaN) left out; the errors when there is no TC1/QD1 or fewer than three cells; and the cell
 * keys "threads=T,qd=Q".
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/snia_dirth.h"

static void test_cell_keys(void **state)
{
	static const char *const bad[] = {"qd=4,threads=2",	  "threads=2", "threads=0,qd=1",
					  "threads=2,qd=4,bs=4k", "all",       ""};
	unsigned t = 7, q = 7;

	(void)state;
	assert_int_equal(snia_dirth_cell("threads=32,qd=16", &t, &q), 0);
	assert_int_equal(t, 32);
	assert_int_equal(q, 16);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		t = q = 7;
		assert_int_equal(snia_dirth_cell(bad[i], &t, &q), -EINVAL);
		assert_int_equal(t, 7); /* untouched */
		assert_int_equal(q, 7);
	}
	assert_string_equal(snia_dirth_point_name(SNIA_DIRTH_MAX), "max");
	assert_string_equal(snia_dirth_point_name(SNIA_DIRTH_MID), "mid");
	assert_string_equal(snia_dirth_point_name(SNIA_DIRTH_MIN), "min");
}

/* Hand-worked choices: cells in round order, the expected Max, Mid, Min indexes and middle. */
static const struct {
	const char *what;
	size_t n;
	struct snia_dirth_cell c[6];
	size_t max, mid, min;
	double target;
} cases[] = {
    /* Max 900 at TC4/QD4; Min 100 at TC1/QD1; TC1/QD2 has no IOPS; middle (900 + 100) / 2 =
     * 500: |480 - 500| = 20 beats |530 - 500| = 30 and |850 - 500|, so Mid is TC2/QD2. */
    {"plain",
     6,
     {{4, 8, 850}, {4, 4, 900}, {2, 4, 530}, {2, 2, 480}, {1, 2, NAN}, {1, 1, 100}},
     1,
     3,
     5,
     500},
    /* Max: 700 twice, the first (TC8/QD8) wins; Min 300; middle 500: 450 and 550 are both 50
     * away, the first wins. */
    {"ties", 5, {{8, 8, 700}, {8, 4, 700}, {4, 4, 450}, {4, 2, 550}, {1, 1, 300}}, 0, 2, 4, 500},
    /* TC1/QD1 is the fastest: Max is the fastest of the others (TC2/QD1, 90), so that the three
     * points differ; middle (90 + 100) / 2 = 95: of what is left, 80 is nearest. */
    {"min fastest", 4, {{2, 2, 70}, {2, 1, 90}, {1, 2, 80}, {1, 1, 100}}, 1, 2, 3, 95},
};

static void test_choose(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct snia_dirth_choice ch;
		char tc[32];

		assert_int_equal(snia_dirth_choose(cases[i].c, cases[i].n, &ch), 0);
		if (ch.idx[SNIA_DIRTH_MAX] != cases[i].max ||
		    ch.idx[SNIA_DIRTH_MID] != cases[i].mid ||
		    ch.idx[SNIA_DIRTH_MIN] != cases[i].min || ch.mid_target != cases[i].target)
			fail_msg("%s: max %zu mid %zu min %zu middle %g", cases[i].what,
				 ch.idx[SNIA_DIRTH_MAX], ch.idx[SNIA_DIRTH_MID],
				 ch.idx[SNIA_DIRTH_MIN], ch.mid_target);
		/* each reason names its point's TC x QD */
		for (int p = 0; p < SNIA_DIRTH_NPOINTS; p++) {
			const struct snia_dirth_cell *c = &cases[i].c[ch.idx[p]];

			snprintf(tc, sizeof(tc), "TC%u/QD%u", c->threads, c->qd);
			assert_non_null(strstr(ch.why[p], tc));
		}
	}
}

static void test_errors(void **state)
{
	const struct snia_dirth_cell no_min[] = {{2, 2, 70}, {2, 1, 90}, {1, 2, 80}};
	const struct snia_dirth_cell two[] = {{2, 2, 70}, {2, 1, NAN}, {1, 1, 80}};
	struct snia_dirth_choice ch = {.mid_target = 42};

	(void)state;
	assert_int_equal(snia_dirth_choose(no_min, 3, &ch), -ENOENT);
	assert_int_equal(snia_dirth_choose(two, 3, &ch), -EINVAL);
	assert_int_equal(snia_dirth_choose(two, 0, &ch), -EINVAL);
	assert_true(ch.mid_target == 42); /* untouched */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cell_keys),
	    cmocka_unit_test(test_choose),
	    cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
