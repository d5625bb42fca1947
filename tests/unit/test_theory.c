/* SPDX-License-Identifier: MIT */
/*
 * test_theory: the closed-form WA models (analysis/theory.h) against a table computed by the
 * hand-written Halley-iteration Lambert W the sim tests used before GSL's (tests/unit/sim_testlib.c
 * until issue 10), against published figures, and at the edges (no spare area, bad input).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <gsl/gsl_errno.h>

#include "analysis/theory.h"

static void near(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want)))
		fail_msg("%.17g, expected %.17g (rel. tolerance %g)", got, want, rel);
}

/* alpha, WA_lrw, WA_greedy for 16, 64 and 256 pages per block (the old sim_testlib values). */
static const struct {
	double alpha, lrw, greedy[3];
} table[] = {
    {1.0309278350515465,
     16.836741705745073,
     {8.3315726790656122, 13.392768819460173, 15.817884815244577}},
    {1.075268817204301,
     7.3177232148467812,
     {5.1112891734115982, 6.6001017225091623, 7.1237174739254465}},
    {1.1428571428571428,
     4.1819619807036199,
     {3.3799903184371276, 3.9461695512983042, 4.1202985978542612}},
    {1.3, 2.3642341379727361, {2.1035668469677149, 2.2927147349879924, 2.3459073110322732}},
    {1.5, 1.7158202148587194, {1.584629098681658, 1.6808068093304642, 1.7069163186495582}},
    {2.0, 1.2550009749159752, {1.1926651597546689, 1.23872813956534, 1.2508872235267667}},
    {3.0, 1.0632870688777627, {1.024497002157202, 1.053281696815904, 1.0607656679273814}},
};
static const unsigned nps[] = {16, 64, 256};

static void test_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		near(theory_wa_lrw(table[i].alpha), table[i].lrw, 1e-9);
		for (size_t j = 0; j < 3; j++)
			near(theory_wa_greedy(table[i].alpha, nps[j]), table[i].greedy[j], 1e-9);
	}
}

static void test_published(void **state)
{
	(void)state;
	near(theory_wa_lrw(1.3), 2.364, 2e-4);		     /* Xiang & Kurkoski's example */
	near(theory_wa_greedy(1.0 / 0.93, 64), 6.600, 2e-4); /* Desnoyers, Sf 0.07 */
	near(theory_wa_greedy(1.0 / 0.875, 256), 4.120, 2e-4);
	near(theory_wa_lrw(2.0), 1.255, 2e-4);
}

static void test_edges(void **state)
{
	(void)state;
	assert_true(isnan(theory_wa_lrw(1.0)));
	assert_true(isnan(theory_wa_lrw(0.5)));
	assert_true(isnan(theory_wa_lrw(NAN)));
	assert_true(isnan(theory_wa_lrw(INFINITY)));
	assert_true(isnan(theory_wa_greedy(1.5, 0)));
	/* More spare area, less WA; greedy never worse than FIFO. */
	for (double a = 1.01; a < 4; a += 0.07) {
		assert_true(theory_wa_lrw(a + 0.07) < theory_wa_lrw(a));
		assert_true(theory_wa_greedy(a, 64) <= theory_wa_lrw(a));
		assert_true(theory_wa_greedy(a, 64) >= 1.0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table),
	    cmocka_unit_test(test_published),
	    cmocka_unit_test(test_edges),
	};

	gsl_set_error_handler_off();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
