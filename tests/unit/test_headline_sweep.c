/* SPDX-License-Identifier: MIT */
/*
 * test_headline_sweep: the headline of an idle sweep (suite/cli/headline_sweep.c and the
 * grouping in headline.c) from a hand-made summary whose expected lines are worked out here:
 * three steady states of one shape (10, 30, 20 MB/s: range 10.0-30.0, median 20.0; WA 2, 4, 3:
 * median 3.00), two idles given out of order (2 s and 1 s on the target, the profile's x 10)
 * sorted into the table with their gc_recovery excess bytes, four blocks of the same cells
 * (first and last shown), and no WSAT line for the sweep's after phase.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "cli/headline.h"

#define CELL(p)                                                                                    \
	"{\"phase\": " #p ", \"repeat\": 0, \"cell\": \"c\", \"workload\": \"4k randwrite\","      \
	"\"queue\": \"QD32\", \"over\": \"steady_state_window\", \"first_round\": 1,"              \
	"\"last_round\": 5, \"iops\": 100, \"bw_bps\": 409600, \"lat_mean_ns\": 1e6,"              \
	"\"lat_p99_ns\": 2e6, \"lat_max_ns\": 3e6}"
#define SS(p, avg, wa, verdict)                                                                    \
	"{\"phase\": " #p ", \"repeat\": 0, \"cell\": \"c\", \"metric\": \"bw\", \"verdict\": \"" \
	verdict "\", \"average\": " #avg ", \"first_round\": 1, \"last_round\": 5,"                \
	"\"workload\": \"4k randwrite\", \"queue\": \"QD32\", \"wa\": " #wa "}"

static const char summary_json[] =
    "{\"headline\": {"
    "\"steady_state\": [" SS(3, 10e6, 2.0, "reached") "," SS(7, 30e6, 4.0, "not_converged") "," SS(
	10, 20e6, 3.0, "reached") "],"
    "\"wa_run\": 2.5,"
    "\"recovery\": ["
    "{\"idle_phase\": 5, \"idle_repeat\": 0, \"idle_target_ns\": 2e9, \"idle_profile_ns\": 2e10,"
    " \"phase\": 6, \"cell\": \"c\", \"metric\": \"bw\", \"first\": 50e6, \"first_change\": 1.5,"
    " \"verdict\": \"back\", \"back_after_target_ns\": 1e8, \"back_after_profile_ns\": 1e9,"
    " \"rule\": {\"name\": \"first_of_consecutive_in_band\", \"rounds\": 3, \"band\": 0.1}},"
    "{\"idle_phase\": 8, \"idle_repeat\": 0, \"idle_target_ns\": 1e9, \"idle_profile_ns\": 1e10,"
    " \"phase\": 9, \"cell\": \"c\", \"metric\": \"bw\", \"first\": 30e6, \"first_change\": 0.5,"
    " \"verdict\": \"not_within_measured_rounds\", \"back_after_target_ns\": null,"
    " \"back_after_profile_ns\": null,"
    " \"rule\": {\"name\": \"first_of_consecutive_in_band\", \"rounds\": 3, \"band\": 0.1}}],"
    "\"results\": [" CELL(3) "," CELL(7) "," CELL(10) "," CELL(13) "],"
    "\"write_saturation\": [{\"phase\": 6, \"repeat\": 0, \"workload\": \"4k randwrite\","
    " \"queue\": \"QD32\", \"written_x\": 0.15, \"profile_ns\": 1e12, \"first_iops\": 9,"
    " \"fills\": []}]},"
    "\"gc_recovery\": {\"model\": \"none\", \"source\": \"none\", \"time_scale\": 0.1,"
    " \"points\": [{\"idle_phase\": 5, \"idle_repeat\": 0, \"phase\": 6, \"excess_bytes\": 4e6},"
    " {\"idle_phase\": 8, \"idle_repeat\": 0, \"phase\": 9, \"excess_bytes\": 1.5e6}]}}";

static const char expected[] =
    "steady state   4k randwrite 10.0-30.0 MB/s over 3 phases (median 20.0; NOT reached in 1 of "
    "them)\n"
    "WA             2.00-4.00 in steady state (median 3.00)\n"
    "WA             2.50 whole run\n"
    "recovery after 2 idles, by idle time; times are the target's (the profile's in brackets); "
    "back = 3 rounds in a row within 10% of steady state\n"
    "  idle                   first (vs steady)      excess     back to steady state after "
    "(writing)\n"
    "  1.00 s (10.00 s)       30.0 MB/s (+50%)       1.5 MB     not back within the measured "
    "rounds\n"
    "  2.00 s (20.00 s)       50.0 MB/s (+150%)      4.0 MB     100.00 ms (1.00 s)\n"
    "GC recovery rate: none detected (2 idles; BIC prefers no recovery)\n"
    "  (times and bytes are the target's: its idles were the profile's x 0.1000)\n"
    "cells of phase 3, rounds 1-5 (steady-state window)\n"
    "  4k randwrite QD32  IOPS 100, 0.4 MB/s, latency mean 1.00 ms, p99 2.00 ms, max 3.00 ms\n"
    "  (2 more phases of the same cells, phases 7 to 10, in summary.json)\n"
    "cells of phase 13, rounds 1-5 (steady-state window)\n"
    "  4k randwrite QD32  IOPS 100, 0.4 MB/s, latency mean 1.00 ms, p99 2.00 ms, max 3.00 ms\n";

static void test_sweep_headline(void **state)
{
	struct json_object *s = json_tokener_parse(summary_json);
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;

	(void)state;
	assert_non_null(s);
	mem = open_memstream(&buf, &len);
	assert_non_null(mem);
	headline_print(s, mem);
	fclose(mem);
	assert_string_equal(buf, expected);
	free(buf);
	json_object_put(s);
}

/* The after phases of gc_recovery's points, and nothing else, are the sweep's. */
static void test_sweep_after(void **state)
{
	struct json_object *s = json_tokener_parse(summary_json);

	(void)state;
	assert_true(headline_sweep_after(s, 6));
	assert_true(headline_sweep_after(s, 9));
	assert_false(headline_sweep_after(s, 5));
	assert_false(headline_sweep_after(s, 3));
	json_object_put(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sweep_headline),
	    cmocka_unit_test(test_sweep_after),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
