/* SPDX-License-Identifier: MIT */
/*
 * test_runner_stop: a write_until's stop rule (run/runner.h, runner_stop_update and
 * runner_stop_chunk) on hand-made chunk sequences: fast chunks then slow ones stop once the
 * slow run holds `for`; a fast chunk in between restarts the run; a chunk just above the
 * threshold is not slow; the peak follows the best chunk; a chunk without time says nothing;
 * the chunk size a rule asks for. And runner_target_nand's two-state class (the sprandom fill's
 * refusal): a dynamic SLC cache without PLP with the write cache off, as the profile pins it or
 * as the target is when left as found.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "run/runner.h"

#define MB 1000000ull
#define MiB (1ull << 20)

/* A chunk of `mb` MB written at `mbps`: its bytes and elapsed ns. */
static bool feed(struct runner_stop *s, uint64_t mb, double mbps)
{
	return runner_stop_update(s, mb * MB, (uint64_t)((double)mb / mbps * 1e9));
}

static void test_cache_then_slow(void **state)
{
	struct runner_stop s;

	(void)state;
	/* below 70 % of the peak for 300 MB: chunks of 100 MB */
	runner_stop_init(&s, 0.7, 300 * MB);
	assert_false(feed(&s, 100, 500)); /* peak 500 */
	assert_false(feed(&s, 100, 500));
	assert_false(feed(&s, 100, 360)); /* 72 %: not slow */
	assert_false(feed(&s, 100, 80));  /* 100 MB slow */
	assert_false(feed(&s, 100, 80));  /* 200 MB */
	assert_true(feed(&s, 100, 80));	  /* 300 MB: stop */
}

static void test_fast_chunk_restarts(void **state)
{
	struct runner_stop s;

	(void)state;
	runner_stop_init(&s, 0.7, 250 * MB);
	assert_false(feed(&s, 100, 500));
	assert_false(feed(&s, 100, 80));
	assert_false(feed(&s, 100, 80));  /* 200 MB slow */
	assert_false(feed(&s, 100, 400)); /* 80 %: the run ends */
	assert_false(feed(&s, 100, 80));
	assert_false(feed(&s, 100, 80));
	assert_true(feed(&s, 100, 80)); /* 300 MB >= 250 MB */
}

static void test_peak_and_no_time(void **state)
{
	struct runner_stop s;

	(void)state;
	runner_stop_init(&s, 0.5, 100 * MB);
	assert_false(feed(&s, 100, 200));
	assert_false(feed(&s, 100, 600)); /* the peak rises to 600: 200 would now be slow */
	assert_false(runner_stop_update(&s, 100 * MB, 0)); /* no time: nothing changes */
	assert_true(feed(&s, 100, 200)); /* 33 % of 600, 100 MB */
}

static void test_chunk(void **state)
{
	(void)state;
	/* a quarter of `for` in whole MiB, at least 1 MiB, never above the default chunk */
	assert_true(runner_stop_chunk(410 * MiB, 146 * MiB) == 102 * MiB); /* 102.5 -> 102 */
	assert_true(runner_stop_chunk(1000 * MiB, 146 * MiB) == 146 * MiB);
	assert_true(runner_stop_chunk(2 * MiB, 146 * MiB) == 1 * MiB);
	assert_true(runner_stop_chunk(40 * MiB, 0) == 10 * MiB);
}

static void test_target_nand_two_state(void **state)
{
	static const struct {
		bool dyn_no_plp, at_open;
		enum profile_drive_setting wc;
		bool two_state;
	} cases[] = {
	    {true, true, PROFILE_OFF, true},	   /* PTS-E on client-tlc */
	    {true, true, PROFILE_ON, false},	   /* PTS-C */
	    {true, true, PROFILE_AS_FOUND, false}, /* the model's cache is on */
	    {true, false, PROFILE_AS_FOUND, true}, /* ... and off */
	    {true, false, PROFILE_ON, false},
	    {false, false, PROFILE_OFF, false}, /* PLP, no SLC cache, a static one, or a drive */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct target_info ti = {.slc_dynamic_no_plp = cases[i].dyn_no_plp,
					 .write_cache_at_open = cases[i].at_open};
		struct profile p = {.write_cache = cases[i].wc};

		assert_int_equal(runner_target_nand(&ti, &p).two_state, cases[i].two_state);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cache_then_slow),
	    cmocka_unit_test(test_fast_chunk_restarts),
	    cmocka_unit_test(test_peak_and_no_time),
	    cmocka_unit_test(test_chunk),
	    cmocka_unit_test(test_target_nand_two_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
