/* SPDX-License-Identifier: MIT */
/*
 * test_recovery: recovery_scan() (analysis/recovery.h) on hand-made series after an idle: back
 * at once, a lone round in the band that does not count, a swing out of the band restarting the
 * count (the demo's case), never back, the writing summed before the run, and bad input.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/recovery.h"

#define MAXP 12

struct rcase {
	const char *what;
	double v[MAXP]; /* 0 ends the series */
	bool back;
	int64_t back_round;
	uint64_t back_after_ns; /* each point wrote 10 ns and 100 bytes */
	size_t measurements;
	int64_t first_in; /* -1: none */
};

static void test_cases(void **state)
{
	/* steady state 100, band 10 %, 3 in a row */
	static const struct rcase cases[] = {
	    {"back at once", {100, 95, 105, 100}, true, 1, 0, 3, 1},
	    {"high after idle, then back", {400, 300, 108, 92, 100, 99}, true, 3, 20, 5, 3},
	    {"lone round inside does not count", {400, 100, 300, 95, 96, 97}, true, 4, 30, 6, 2},
	    {"swing through the band", {400, 103, 105, 78, 101, 99, 100}, true, 5, 40, 7, 2},
	    {"never back", {400, 300, 200, 150}, false, 0, 0, 4, -1},
	    {"two inside at the end: not enough", {400, 300, 100, 100}, false, 0, 0, 4, 3},
	    {"band edge counts", {110, 90, 110}, true, 1, 0, 3, 1},
	};
	const struct recovery_rule rule = RECOVERY_RULE_DEFAULT;

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct recovery_point p[MAXP];
		struct recovery_result r;
		size_t n = 0;

		for (; n < MAXP && cases[c].v[n] > 0; n++)
			p[n] = (struct recovery_point){.value = cases[c].v[n],
						       .round = (int64_t)n + 1,
						       .write_ns = 10,
						       .write_bytes = 100};
		assert_int_equal(recovery_scan(p, n, 100, &rule, &r), 0);
		if (r.back != cases[c].back || r.measurements != cases[c].measurements ||
		    r.first != cases[c].v[0] || r.has_first_in_band != (cases[c].first_in >= 0) ||
		    (r.has_first_in_band && r.first_in_band_round != cases[c].first_in))
			fail_msg("%s: back %d, measurements %zu, first in band %lld", cases[c].what,
				 r.back, r.measurements,
				 (long long)(r.has_first_in_band ? r.first_in_band_round : -1));
		if (r.back) {
			assert_int_equal(r.back_round, cases[c].back_round);
			assert_int_equal(r.back_after_ns, cases[c].back_after_ns);
			assert_int_equal(r.back_after_bytes, cases[c].back_after_ns * 10);
		} else {
			assert_int_equal(r.back_round, 0);
		}
	}
}

static void test_rule_and_input(void **state)
{
	const struct recovery_point p[] = {{.value = 50, .round = 1}, {.value = 95, .round = 2}};
	struct recovery_rule one = {.band = 0.10, .rounds = 1}, zero = {.band = 0.10, .rounds = 0};
	struct recovery_result r = {.measurements = 77};

	(void)state;
	assert_int_equal(recovery_scan(p, 0, 100, &one, &r), -ENODATA);
	assert_int_equal(recovery_scan(p, 2, 100, &zero, &r), -EINVAL);
	assert_int_equal(r.measurements, 77); /* untouched on failure */
	assert_int_equal(recovery_scan(p, 2, 100, &one, &r), 0);
	assert_true(r.back);
	assert_int_equal(r.back_round, 2);
	/* a wider band takes the first one */
	one.band = 0.5;
	assert_int_equal(recovery_scan(p, 2, 100, &one, &r), 0);
	assert_int_equal(r.back_round, 1);
	assert_int_equal(r.measurements, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cases),
	    cmocka_unit_test(test_rule_and_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
