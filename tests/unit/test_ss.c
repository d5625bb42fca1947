/* SPDX-License-Identifier: MIT */
/*
 * test_ss: SNIA steady-state detection against windows computed by hand. Every expected number
 * below (average, min/max, fit, excursions) was worked out on paper from the definitions in
 * ss.h (least squares: slope = sum(dx dy) / sum(dx^2) around the window means), never by the
 * module under test.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_errno.h>
#include <json-c/json.h>

#include "analysis/ss.h"

#define MAXN 32

struct ss_case {
	const char *name;
	double y[MAXN];
	size_t n;
	unsigned first_round;
	int custom; /* use the params below instead of the defaults */
	struct ss_params p;
	int scan; /* ss_scan instead of ss_check */
	/* expected */
	enum ss_verdict verdict;
	unsigned window, first, last;
	double avg, min, max, data_exc, allowed_data, slope, intercept, slope_exc, allowed_slope;
	int data_ok, slope_ok;
};

/* clang-format off */
static const struct ss_case cases[] = {
	/* dx = -2..2 (sum dx^2 = 10), dy = 0,2,-2,1,-1: sum dx dy = -3 -> slope -0.3;
	 * intercept = 100 - (-0.3 x 3) = 100.9; slope excursion 0.3 x 4 = 1.2. */
	{"reached", {100, 102, 98, 101, 99}, 5, 1, 0, {0}, 0,
	 SS_REACHED, 5, 1, 5, 100, 98, 102, 4, 20, -0.3, 100.9, 1.2, 10, 1, 1},
	/* The same window numbered from round 11: x mean 13, intercept = 100 + 0.3 x 13. */
	{"reached, rounds from 11", {100, 102, 98, 101, 99}, 5, 11, 0, {0}, 0,
	 SS_REACHED, 5, 11, 15, 100, 98, 102, 4, 20, -0.3, 103.9, 1.2, 10, 1, 1},
	/* dy = -10,15,0,-15,10: sum dx dy = 20-15-15+20 = 10 -> slope 1, exc 4 (ok);
	 * range 115-85 = 30 > 20. */
	{"data excursion too large", {90, 115, 100, 85, 110}, 5, 1, 0, {0}, 0,
	 SS_NOT_YET, 5, 1, 5, 100, 85, 115, 30, 20, 1, 97, 4, 10, 0, 1},
	/* A straight line of slope 4: range 16 <= 20 but slope excursion 16 > 10. */
	{"slope too large", {92, 96, 100, 104, 108}, 5, 1, 0, {0}, 0,
	 SS_NOT_YET, 5, 1, 5, 100, 92, 108, 16, 20, 4, 88, 16, 10, 1, 0},
	/* Exactly at the data limit: range 20 = 20% of 100; dy = -10,10,0,0,0 -> slope 1. */
	{"data excursion at the limit", {90, 110, 100, 100, 100}, 5, 1, 0, {0}, 0,
	 SS_REACHED, 5, 1, 5, 100, 90, 110, 20, 20, 1, 97, 4, 10, 1, 1},
	/* Exactly at the slope limit: slope 2.5 x 4 = 10 = 10% of 100. */
	{"slope excursion at the limit", {95, 97.5, 100, 102.5, 105}, 5, 1, 0, {0}, 0,
	 SS_REACHED, 5, 1, 5, 100, 95, 105, 10, 20, 2.5, 92.5, 10, 10, 1, 1},
	/* Constant: everything exact. The check judges the last five of seven rounds. */
	{"constant", {1000, 1000, 1000, 1000, 1000, 1000, 1000}, 7, 1, 0, {0}, 0,
	 SS_REACHED, 5, 3, 7, 1000, 1000, 1000, 0, 200, 0, 1000, 0, 100, 1, 1},
	/* ... while the scan stops at the first steady window, rounds 1..5. */
	{"constant, scan", {1000, 1000, 1000, 1000, 1000, 1000, 1000}, 7, 1, 0, {0}, 1,
	 SS_REACHED, 5, 1, 5, 1000, 1000, 1000, 0, 200, 0, 1000, 0, 100, 1, 1},
	/* Three rounds of five: not judged. x = 1,2,3, slope 10, intercept 110 - 20 = 90,
	 * slope excursion over the 3 values 10 x 2 = 20, 110 x 0.2 = 22 allowed data. */
	{"fewer rounds than the window", {100, 110, 120}, 3, 1, 0, {0}, 0,
	 SS_TOO_FEW, 3, 1, 3, 110, 100, 120, 20, 22, 10, 90, 20, 11, 1, 0},
	/* Alternating 100/150 for 25 rounds; window 21..25 = 100,150,100,150,100: avg 120,
	 * range 50 > 24; dy = -20,30,-20,30,-20: sum dx dy = 40-30+30-40 = 0. */
	{"never reached by round 25",
	 {100, 150, 100, 150, 100, 150, 100, 150, 100, 150, 100, 150, 100, 150, 100, 150, 100,
	  150, 100, 150, 100, 150, 100, 150, 100},
	 25, 1, 0, {0}, 0,
	 SS_NOT_REACHED, 5, 21, 25, 120, 100, 150, 50, 24, 0, 120, 0, 12, 0, 1},
	{"never reached by round 25, scan",
	 {100, 150, 100, 150, 100, 150, 100, 150, 100, 150, 100, 150, 100, 150, 100, 150, 100,
	  150, 100, 150, 100, 150, 100, 150, 100},
	 25, 1, 0, {0}, 1,
	 SS_NOT_REACHED, 5, 21, 25, 120, 100, 150, 50, 24, 0, 120, 0, 12, 0, 1},
	/* 24 rounds of the same: one more may still be run. Window 20..24 = 150,100,150,100,150:
	 * avg 130, dy = 20,-30,20,-30,20: sum dx dy = -40+30-30+40 = 0. */
	{"not yet at round 24",
	 {100, 150, 100, 150, 100, 150, 100, 150, 100, 150, 100, 150, 100, 150, 100, 150, 100,
	  150, 100, 150, 100, 150, 100, 150},
	 24, 1, 0, {0}, 0,
	 SS_NOT_YET, 5, 20, 24, 130, 100, 150, 50, 26, 0, 130, 0, 13, 0, 1},
	/* Scan: windows ending at 5 (avg 86, range 52) and 6 (avg 96.2, range 22 > 19.24) fail;
	 * the window of rounds 3..7 is case "reached" shifted: intercept 100 + 0.3 x 5. The wild
	 * rounds 8 and 9 come after the stop and change nothing. */
	{"scan stops at the first steady window", {50, 80, 100, 102, 98, 101, 99, 300, 10}, 9, 1,
	 0, {0}, 1,
	 SS_REACHED, 5, 3, 7, 100, 98, 102, 4, 20, -0.3, 101.5, 1.2, 10, 1, 1},
	/* Custom params: window 3, 10%, 5%, max 4 rounds. Window 2..4 = 104,100,96: avg 100,
	 * range 8 <= 10; slope -4, excursion 8 > 5; round 4 = max_rounds. */
	{"custom params, not reached", {100, 104, 100, 96}, 4, 1, 1, {3, 0.10, 0.05, 4}, 0,
	 SS_NOT_REACHED, 3, 2, 4, 100, 96, 104, 8, 10, -4, 112, 8, 5, 1, 0},
	/* A zero series cannot be judged (ss.h): never steady, though both ranges are 0. */
	{"zero average", {0, 0, 0, 0, 0}, 5, 1, 0, {0}, 0,
	 SS_NOT_YET, 5, 1, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
};
/* clang-format on */

static void expect_close(double got, double want, const char *what, const char *name)
{
	double tol = 1e-9 * (fabs(want) > 1 ? fabs(want) : 1);

	if (!(fabs(got - want) <= tol))
		fail_msg("%s: %s = %.17g, expected %.17g", name, what, got, want);
}

static void test_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct ss_case *c = &cases[i];
		struct ss_params p;
		struct ss_result r;
		int rc;

		if (c->custom)
			p = c->p;
		else
			ss_params_default(&p);
		rc = c->scan ? ss_scan(c->y, c->n, c->first_round, &p, &r)
			     : ss_check(c->y, c->n, c->first_round, &p, &r);
		if (rc)
			fail_msg("%s: returned %d", c->name, rc);
		if (r.verdict != c->verdict)
			fail_msg("%s: verdict %s, expected %s", c->name, ss_verdict_name(r.verdict),
				 ss_verdict_name(c->verdict));
		assert_int_equal(r.reached, c->verdict == SS_REACHED);
		assert_int_equal(r.stop, c->verdict == SS_REACHED || c->verdict == SS_NOT_REACHED);
		assert_int_equal(r.window, c->window);
		assert_int_equal(r.first_round, c->first);
		assert_int_equal(r.last_round, c->last);
		expect_close(r.average, c->avg, "average", c->name);
		expect_close(r.min, c->min, "min", c->name);
		expect_close(r.max, c->max, "max", c->name);
		expect_close(r.data_excursion, c->data_exc, "data excursion", c->name);
		expect_close(r.allowed_data_excursion, c->allowed_data, "allowed data", c->name);
		expect_close(r.slope, c->slope, "slope", c->name);
		expect_close(r.intercept, c->intercept, "intercept", c->name);
		expect_close(r.slope_excursion, c->slope_exc, "slope excursion", c->name);
		expect_close(r.allowed_slope_excursion, c->allowed_slope, "allowed slope", c->name);
		if (r.data_ok != c->data_ok || r.slope_ok != c->slope_ok)
			fail_msg("%s: data_ok %d slope_ok %d, expected %d %d", c->name, r.data_ok,
				 r.slope_ok, c->data_ok, c->slope_ok);
	}
}

/* The runner's loop: check after each round; it must stop exactly where the scan says. */
static void test_runner_loop_matches_scan(void **state)
{
	const double y[] = {50, 80, 100, 102, 98, 101, 99, 300, 10};
	struct ss_params p;
	struct ss_result r, s;
	size_t n;

	(void)state;
	ss_params_default(&p);
	for (n = 1; n <= 9; n++) {
		assert_int_equal(ss_check(y, n, 1, &p, &r), 0);
		if (r.stop)
			break;
		assert_int_equal(r.verdict, n < 5 ? SS_TOO_FEW : SS_NOT_YET);
	}
	assert_int_equal(n, 7);
	assert_int_equal(ss_scan(y, 9, 1, &p, &s), 0);
	assert_int_equal(s.last_round, 7);
	assert_int_equal(r.verdict, s.verdict);
	assert_int_equal(r.first_round, s.first_round);
	assert_true(r.average == s.average && r.slope == s.slope && r.intercept == s.intercept);
}

static void test_not_finite(void **state)
{
	const double y[] = {100, 100, NAN, 100, 100};
	struct ss_params p;
	struct ss_result r;

	(void)state;
	ss_params_default(&p);
	assert_int_equal(ss_check(y, 5, 1, &p, &r), 0);
	assert_false(r.reached);
	assert_int_equal(r.verdict, SS_NOT_YET);
}

static void test_invalid(void **state)
{
	const double y[] = {1, 2, 3, 4, 5};
	struct ss_params p;
	struct ss_result r;

	(void)state;
	memset(&r, 0xa5, sizeof(r));
	ss_params_default(&p);
	assert_int_equal(ss_check(y, 0, 1, &p, &r), -EINVAL);
	assert_int_equal(ss_check(NULL, 5, 1, &p, &r), -EINVAL);
	p.window = 1;
	assert_int_equal(ss_check(y, 5, 1, &p, &r), -EINVAL);
	ss_params_default(&p);
	p.max_rounds = 4;
	assert_int_equal(ss_scan(y, 5, 1, &p, &r), -EINVAL);
	ss_params_default(&p);
	p.max_data_excursion = 0;
	assert_int_equal(ss_params_validate(&p), -EINVAL);
	p.max_data_excursion = NAN;
	assert_int_equal(ss_params_validate(&p), -EINVAL);
	/* Untouched on failure. */
	for (size_t i = 0; i < sizeof(r); i++)
		assert_int_equal(((unsigned char *)&r)[i], 0xa5);
}

static void test_json(void **state)
{
	const double y[] = {100, 102, 98, 101, 99};
	struct ss_params p, q;
	struct ss_result r;
	struct json_object *o, *x, *po;

	(void)state;
	ss_params_default(&p);
	assert_int_equal(ss_check(y, 5, 1, &p, &r), 0);
	o = ss_result_to_json(&r);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "verdict", &x));
	assert_string_equal(json_object_get_string(x), "reached");
	/* Numbers read back bit-identical. */
	assert_true(json_object_object_get_ex(o, "slope", &x));
	assert_true(json_object_get_double(x) == r.slope);
	assert_true(json_object_object_get_ex(o, "intercept", &x));
	assert_true(json_object_get_double(x) == r.intercept);
	assert_true(json_object_object_get_ex(o, "params", &po));
	assert_int_equal(ss_params_from_json(po, &q), 0);
	assert_int_equal(p.window, q.window);
	assert_int_equal(p.max_rounds, q.max_rounds);
	assert_true(p.max_data_excursion == q.max_data_excursion);
	assert_true(p.max_slope_excursion == q.max_slope_excursion);
	json_object_put(o);

	/* Partial params take the defaults for the rest; bad values are refused. */
	o = json_tokener_parse("{\"window\": 3, \"max_slope_excursion\": 0.05}");
	assert_int_equal(ss_params_from_json(o, &q), 0);
	assert_int_equal(q.window, 3);
	assert_true(q.max_slope_excursion == 0.05);
	assert_true(q.max_data_excursion == SS_DEFAULT_MAX_DATA_EXCURSION);
	assert_int_equal(q.max_rounds, 25);
	json_object_put(o);
	o = json_tokener_parse("{\"window\": \"five\"}");
	assert_int_equal(ss_params_from_json(o, &q), -EINVAL);
	json_object_put(o);
	o = json_tokener_parse("{\"window\": 30}");
	assert_int_equal(ss_params_from_json(o, &q), -EINVAL);
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table),      cmocka_unit_test(test_runner_loop_matches_scan),
	    cmocka_unit_test(test_not_finite), cmocka_unit_test(test_invalid),
	    cmocka_unit_test(test_json),
	};

	gsl_set_error_handler_off();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
