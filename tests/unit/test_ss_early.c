/* SPDX-License-Identifier: MIT */
/*
 * test_ss_early: the early steady-state verdict (analysis/ss_early.h) on hand-made series: flat,
 * noisy-flat, a converging exponential, flat then a drop, rising. One case has its prediction
 * interval worked out on paper (see test_hand_worked); the others check where the rule fires
 * and where it must not.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_errno.h>
#include <json-c/json.h>

#include "analysis/ss_early.h"

static void defaults(struct ss_params *p, struct ss_early_params *e)
{
	ss_params_default(p);
	ss_early_params_default(e);
}

/*
 * By hand: y = 100, 101, 99, 100 (rounds 1-4), window 5, so k = 4 and round 5 is missing.
 * xbar 2.5, Sxx 5, sum dx dy = -1: slope -0.2, intercept 100.5; residuals -0.3, 0.9, -0.9, 0.3,
 * SSR 1.8, s_resid = sqrt(1.8 / 2) = 0.948683; the values' sd = sqrt(2 / 3) = 0.816497, so
 * s = 0.948683. t(0.975, 2 df) = 4.302653 (tables). Round 5: yhat 99.5, se = s sqrt(1 + 1/4 +
 * 2.5^2 / 5) = sqrt(0.9 x 2.5) = 1.5, interval 99.5 +- 6.453980 = [93.046020, 105.953980].
 * avg_min = (400 + 93.046020) / 5 = 98.609204; data excursion 105.953980 - 93.046020 = 12.907960
 * <= 0.2 x 98.609204 = 19.721841. Window slope weights (x - 3) / 10: the observed part is -20.1,
 * the extremes -20.1 + 0.2 x 105.953980 = 1.090796 and -20.1 + 0.2 x 93.046020 = -1.490796,
 * slope excursion 4 x 1.490796 = 5.963184 <= 0.1 x 98.609204 = 9.860920: predicted.
 */
static void test_hand_worked(void **state)
{
	const double y[] = {100, 101, 99, 100};
	struct ss_params p;
	struct ss_early_params e;
	struct ss_early_result r;

	(void)state;
	defaults(&p, &e);
	assert_int_equal(ss_early_check(y, 4, 1, &p, &e, &r), 0);
	assert_true(r.predicted);
	assert_int_equal(r.round, 4);
	assert_int_equal(r.fit_rounds, 4);
	assert_int_equal(r.missing, 1);
	assert_int_equal(r.first_round, 1);
	assert_int_equal(r.last_round, 5);
	assert_float_equal(r.slope, -0.2, 1e-12);
	assert_float_equal(r.intercept, 100.5, 1e-9);
	assert_float_equal(r.s_resid, 0.948683, 1e-6);
	assert_float_equal(r.s_floor, 0.816497, 1e-6);
	assert_float_equal(r.t, 4.302653, 1e-6);
	assert_float_equal(r.lo_min, 93.046020, 1e-5);
	assert_float_equal(r.hi_max, 105.953980, 1e-5);
	assert_float_equal(r.avg_min, 98.609204, 1e-5);
	assert_float_equal(r.data_excursion, 12.907960, 1e-5);
	assert_float_equal(r.allowed_data_excursion, 19.721841, 1e-5);
	assert_float_equal(r.slope_excursion, 5.963184, 1e-5);
	assert_float_equal(r.allowed_slope_excursion, 9.860920, 1e-5);
	/* at 99.9% confidence, t(0.9995, 2) = 31.5991: the interval is 99.5 +- 47.4, no longer flat
	 */
	e.confidence = 0.999;
	assert_int_equal(ss_early_check(y, 4, 1, &p, &e, &r), 0);
	assert_false(r.predicted);
	assert_int_equal(r.why, SS_EARLY_DATA);
	assert_float_equal(r.t, 31.599055, 1e-5);
}

/* A flat series has no scatter: predicted as soon as min_rounds allows, never before. */
static void test_flat(void **state)
{
	const double y[] = {5000, 5000, 5000, 5000, 5000};
	struct ss_params p;
	struct ss_early_params e;
	struct ss_early_result r;

	(void)state;
	defaults(&p, &e);
	assert_int_equal(ss_early_check(y, 2, 1, &p, &e, &r), 0);
	assert_false(r.predicted);
	assert_int_equal(r.why, SS_EARLY_TOO_FEW);
	assert_int_equal(ss_early_check(y, 3, 1, &p, &e, &r), 0);
	assert_true(r.predicted);
	assert_int_equal(r.missing, 2);
	assert_int_equal(r.last_round, 5);
	e.min_rounds = 4;
	assert_int_equal(ss_early_check(y, 3, 1, &p, &e, &r), 0);
	assert_false(r.predicted);
	assert_int_equal(ss_early_scan(y, NULL, 5, 1, &p, &e, &r), 0);
	assert_true(r.predicted);
	assert_int_equal(r.round, 4);
	/* the guard holds it back until round 4 is allowed; at round 5 the SNIA rule decides */
	{
		const bool g[] = {false, false, false, false, true};

		e.min_rounds = 3;
		assert_int_equal(ss_early_scan(y, g, 5, 1, &p, &e, &r), 0);
		assert_false(r.predicted);
		assert_int_equal(r.round, 0);
	}
}

/* Noisy flat (+-0.5%): 1 degree of freedom at round 3 is far too little (t(1 - 0.05/4, 1) =
 * 25.45), round 4 (2 df, one missing round) is enough. At +-2% the same shape is not predicted
 * at round 4: the scatter times t(0.975, 2) x 1.58 eats the 20% band; the SNIA rule decides. */
static void test_noisy_flat(void **state)
{
	const double y[] = {1000, 1005, 996, 1003, 998};
	const double z[] = {1000, 1020, 980, 1015, 990};
	struct ss_params p;
	struct ss_early_params e;
	struct ss_early_result r;

	(void)state;
	defaults(&p, &e);
	assert_int_equal(ss_early_check(y, 3, 1, &p, &e, &r), 0);
	assert_false(r.predicted);
	assert_float_equal(r.t, 25.451699, 1e-5);
	assert_int_equal(ss_early_scan(y, NULL, 5, 1, &p, &e, &r), 0);
	assert_true(r.predicted);
	assert_int_equal(r.round, 4);
	assert_int_equal(ss_early_scan(z, NULL, 5, 1, &p, &e, &r), 0);
	assert_false(r.predicted);
}

/* y = 1000 (1 + a exp(-(i - 1) / tau)): a series still converging. While it moves, its values'
 * own scatter (the floor) keeps the intervals wide: the early rule never fires before the SNIA
 * rule stops (rounds 11, 8 and 14, worked with tests/integration/ss_early_rule.py). */
static void test_converging(void **state)
{
	static const struct {
		double a, tau;
		unsigned snia_stop;
	} c[] = {{2, 2, 11}, {0.3, 3, 8}, {1, 6, 14}};
	struct ss_params p;
	struct ss_early_params e;
	struct ss_early_result r;
	struct ss_result snia;

	(void)state;
	defaults(&p, &e);
	for (size_t j = 0; j < sizeof(c) / sizeof(c[0]); j++) {
		double y[25];

		for (int i = 0; i < 25; i++)
			y[i] = 1000 * (1 + c[j].a * exp(-i / c[j].tau));
		assert_int_equal(ss_scan(y, 25, 1, &p, &snia), 0);
		assert_true(snia.reached);
		assert_int_equal(snia.last_round, c[j].snia_stop);
		for (size_t n = 1; n < c[j].snia_stop; n++) {
			assert_int_equal(ss_early_check(y, n, 1, &p, &e, &r), 0);
			assert_false(r.predicted);
		}
		assert_int_equal(ss_early_scan(y, NULL, 25, 1, &p, &e, &r), 0);
		assert_false(r.predicted);
	}
}

/* Flat, then a drop to 60%: predicted on the flat part (the confidence is about the series'
 * model; a later change is the guard's business), never once the drop is among the rounds. */
static void test_flat_then_drop(void **state)
{
	const double y[] = {1000, 1010, 995, 1005, 600, 600, 605, 598};
	struct ss_params p;
	struct ss_early_params e;
	struct ss_early_result r;

	(void)state;
	defaults(&p, &e);
	assert_int_equal(ss_early_check(y, 4, 1, &p, &e, &r), 0);
	assert_true(r.predicted);
	for (size_t n = 5; n <= 7; n++) {
		assert_int_equal(ss_early_check(y, n, 1, &p, &e, &r), 0);
		assert_false(r.predicted);
	}
	/* the drop's rounds left the candidate window: flat again at 600 */
	assert_int_equal(ss_early_check(y, 8, 1, &p, &e, &r), 0);
	assert_true(r.predicted);
	assert_int_equal(r.first_round, 5);
	assert_int_equal(r.last_round, 9);
}

/* Rising 5% a round: never predicted. */
static void test_rising(void **state)
{
	double y[25];
	struct ss_params p;
	struct ss_early_params e;
	struct ss_early_result r;

	(void)state;
	defaults(&p, &e);
	for (int i = 0; i < 25; i++)
		y[i] = 1000 * (1 + 0.05 * i);
	for (size_t n = 1; n <= 25; n++) {
		assert_int_equal(ss_early_check(y, n, 1, &p, &e, &r), 0);
		assert_false(r.predicted);
	}
}

/* Never when the candidate window would end after max_rounds. */
static void test_no_room(void **state)
{
	const double y[] = {100, 100, 100, 100, 100, 100};
	struct ss_params p;
	struct ss_early_params e;
	struct ss_early_result r;

	(void)state;
	defaults(&p, &e);
	p.max_rounds = 5;
	assert_int_equal(ss_early_check(y, 4, 1, &p, &e, &r), 0);
	assert_true(r.predicted);
	p.max_rounds = 6;
	assert_int_equal(ss_early_check(y, 6, 1, &p, &e, &r), 0);
	assert_false(r.predicted);
	assert_int_equal(r.why, SS_EARLY_NO_ROOM);
}

static void test_invalid(void **state)
{
	const double y[] = {100, 100, 100, 0};
	struct ss_params p;
	struct ss_early_params e;
	struct ss_early_result r;
	struct json_object *o;

	(void)state;
	defaults(&p, &e);
	assert_int_equal(ss_early_check(NULL, 3, 1, &p, &e, &r), -EINVAL);
	e.min_rounds = 2;
	assert_int_equal(ss_early_check(y, 3, 1, &p, &e, &r), -EINVAL);
	e.min_rounds = 3;
	e.confidence = 1;
	assert_int_equal(ss_early_check(y, 3, 1, &p, &e, &r), -EINVAL);
	e.confidence = 0.95;
	assert_int_equal(ss_early_check(y, 4, 1, &p, &e, &r), 0);
	assert_int_equal(r.why, SS_EARLY_NONPOSITIVE);
	o = ss_early_params_to_json(&e);
	assert_non_null(o);
	e.confidence = 0.9;
	assert_int_equal(ss_early_params_from_json(o, &e), 0);
	assert_float_equal(e.confidence, 0.95, 0);
	json_object_object_add(o, "min_rounds", json_object_new_int(1));
	assert_int_equal(ss_early_params_from_json(o, &e), -EINVAL);
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_hand_worked),	   cmocka_unit_test(test_flat),
	    cmocka_unit_test(test_noisy_flat),	   cmocka_unit_test(test_converging),
	    cmocka_unit_test(test_flat_then_drop), cmocka_unit_test(test_rising),
	    cmocka_unit_test(test_no_room),	   cmocka_unit_test(test_invalid),
	};

	gsl_set_error_handler_off();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
