/* SPDX-License-Identifier: MIT */
/*
 * test_wa_guard: the WA guard (analysis/wa_guard.h) on hand-worked values: the expectation
 * 1 / (1 - alpha) at the alpha the sprandom fill of enterprise-28op at 2 GiB used, the one-sided
 * verdict, "unavailable" where there is nothing to judge, and the replay of the runner's stop
 * decision with the guard blocking the SNIA and early verdicts.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>

#include <cmocka.h>

#include "analysis/wa_guard.h"

static void expected_values(void **state)
{
	(void)state;
	/* alpha 0.5: 1 / 0.5 = 2 */
	assert_float_equal(wa_guard_expected(0.5), 2.0, 1e-12);
	/* the alpha of enterprise-28op at 2 GiB (spare 0.118: (1 - a) / ln(1 / a) = 0.882 by
	 * bisection): 1 / (1 - 0.77366922) = 4.41831 */
	assert_float_equal(wa_guard_expected(0.7736692162), 4.418312, 1e-5);
	assert_true(isnan(wa_guard_expected(0)));
	assert_true(isnan(wa_guard_expected(1)));
	assert_true(isnan(wa_guard_expected(NAN)));
}

static void one_sided(void **state)
{
	struct wa_guard_round r;

	(void)state;
	/* the false plateau: 3.69 against 4.4183 is 16.5 % short */
	assert_int_equal(wa_guard_check(3.69, 4.418312, 0.10, &r), 0);
	assert_int_equal(r.state, WA_GUARD_SHORT);
	assert_float_equal(r.shortfall, 1 - 3.69 / 4.418312, 1e-12);
	assert_float_equal(r.shortfall, 0.16484, 1e-4);
	/* 1.85 against 2: 7.5 % short, within 10 % */
	assert_int_equal(wa_guard_check(1.85, 2.0, 0.10, &r), 0);
	assert_int_equal(r.state, WA_GUARD_OK);
	assert_float_equal(r.shortfall, 0.075, 1e-12);
	/* exactly at the tolerance is still ok; just past it is short */
	assert_int_equal(wa_guard_check(1.75, 2.0, 0.125, &r), 0);
	assert_int_equal(r.state, WA_GUARD_OK);
	assert_int_equal(wa_guard_check(1.7499, 2.0, 0.125, &r), 0);
	assert_int_equal(r.state, WA_GUARD_SHORT);
	/* above the expectation (an SLC cache's folding) is never a reason to wait */
	assert_int_equal(wa_guard_check(9.0, 2.0, 0.10, &r), 0);
	assert_int_equal(r.state, WA_GUARD_OK);
	assert_float_equal(r.shortfall, -3.5, 1e-12);
	assert_string_equal(wa_guard_state_name(WA_GUARD_SHORT), "short");
	assert_string_equal(wa_guard_state_name(WA_GUARD_OK), "ok");
}

static void unavailable(void **state)
{
	struct wa_guard_round r;

	(void)state;
	assert_int_equal(wa_guard_check(NAN, 2.0, 0.10, &r), 0);
	assert_int_equal(r.state, WA_GUARD_UNAVAILABLE);
	assert_true(isnan(r.shortfall));
	assert_int_equal(wa_guard_check(0, 2.0, 0.10, &r), 0);
	assert_int_equal(r.state, WA_GUARD_UNAVAILABLE);
	assert_int_equal(wa_guard_check(3.0, NAN, 0.10, &r), 0);
	assert_int_equal(r.state, WA_GUARD_UNAVAILABLE);
	assert_float_equal(r.wa, 3.0, 0);
	assert_string_equal(wa_guard_state_name(r.state), "unavailable");
	r.wa = 42;
	assert_int_equal(wa_guard_check(3.0, 2.0, 1.0, &r), -EINVAL);
	assert_int_equal(wa_guard_check(3.0, 2.0, -0.1, &r), -EINVAL);
	assert_float_equal(r.wa, 42, 0);
}

/* A flat series: the early verdict predicts at round 3 (s = 0), the SNIA window passes at 5. */
static void replay(void **state)
{
	const double y[8] = {100, 100, 100, 100, 100, 100, 100, 100};
	enum wa_guard_state g[8];
	struct ss_params p;
	struct ss_early_params e;
	struct wa_guard_replay_result r;

	(void)state;
	ss_params_default(&p);
	ss_early_params_default(&e);
	for (int i = 0; i < 8; i++)
		g[i] = i < 6 ? WA_GUARD_SHORT : WA_GUARD_OK;
	/* no guard: early at 3; strict: SNIA at 5 */
	assert_int_equal(wa_guard_replay(y, NULL, NULL, 8, 1, &p, &e, false, &r), 0);
	assert_int_equal(r.stop, WA_GUARD_STOP_EARLY);
	assert_int_equal(r.round, 3);
	assert_int_equal(r.blocked, 0);
	assert_int_equal(wa_guard_replay(y, NULL, NULL, 8, 1, &p, &e, true, &r), 0);
	assert_int_equal(r.stop, WA_GUARD_STOP_SNIA);
	assert_int_equal(r.round, 5);
	/* short on rounds 1-6: early at 3 and 4 and SNIA at 5 and 6 refused, SNIA at 7 */
	assert_int_equal(wa_guard_replay(y, g, NULL, 8, 1, &p, &e, false, &r), 0);
	assert_int_equal(r.stop, WA_GUARD_STOP_SNIA);
	assert_int_equal(r.round, 7);
	assert_int_equal(r.blocked, 4);
	assert_int_equal(r.first_blocked, 3);
	/* strict: only the SNIA verdicts at 5 and 6 were refused */
	assert_int_equal(wa_guard_replay(y, g, NULL, 8, 1, &p, &e, true, &r), 0);
	assert_int_equal(r.round, 7);
	assert_int_equal(r.blocked, 2);
	assert_int_equal(r.first_blocked, 5);
	/* unavailable does not block (it is reported, not a pass) */
	for (int i = 0; i < 8; i++)
		g[i] = WA_GUARD_UNAVAILABLE;
	assert_int_equal(wa_guard_replay(y, g, NULL, 8, 1, &p, &e, false, &r), 0);
	assert_int_equal(r.stop, WA_GUARD_STOP_EARLY);
	assert_int_equal(r.round, 3);
	/* short to the end, max_rounds 6: rounds 3-6 refused, the rounds end at 6 */
	for (int i = 0; i < 8; i++)
		g[i] = WA_GUARD_SHORT;
	p.max_rounds = 6;
	assert_int_equal(wa_guard_replay(y, g, NULL, 8, 1, &p, &e, false, &r), 0);
	assert_int_equal(r.stop, WA_GUARD_STOP_MAX);
	assert_int_equal(r.round, 6);
	assert_int_equal(r.blocked, 4);
	assert_string_equal(wa_guard_stop_name(r.stop), "max_rounds");
	/* a series cut short before any verdict */
	assert_int_equal(wa_guard_replay(y, g, NULL, 2, 1, &p, &e, false, &r), 0);
	assert_int_equal(r.stop, WA_GUARD_STOP_NONE);
	assert_int_equal(r.round, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(expected_values),
	    cmocka_unit_test(one_sided),
	    cmocka_unit_test(unavailable),
	    cmocka_unit_test(replay),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
