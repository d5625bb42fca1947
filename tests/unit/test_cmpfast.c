/* SPDX-License-Identifier: MIT */
/*
 * test_cmpfast: the arithmetic of `ssdlab compare --fast` (suite/report/cmpfast.c) on hand-made
 * runs: which round a verdict sums to (an early "predicted" verdict, else the SNIA window's last
 * round, else the phase's last recorded round), the drive time and host bytes of the records up
 * to it (hand-added below), the precondition method and the relative difference.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "report/cmpfast.h"
#include "results/records.h"

/* A purge (no time), a precondition of 10 s writing 1000 bytes, then rounds 1..4 of phase 2 with
 * two cells each of 1 s and 100 bytes, and a phase 3 record after them. */
static const char *const recs[] = {
    "{\"kind\":\"purge\",\"phase\":0,\"repeat\":0,\"round\":0}",
    "{\"kind\":\"precondition\",\"phase\":1,\"repeat\":0,\"round\":1,\"elapsed_ns\":10000000000,"
    "\"write\":{\"bytes\":1000},\"precondition\":{\"method\":\"sprandom\"}}",
    "{\"kind\":\"cell\",\"phase\":2,\"repeat\":0,\"round\":1,\"elapsed_ns\":1000000000,\"write\":{\"bytes\":100}}",
    "{\"kind\":\"cell\",\"phase\":2,\"repeat\":0,\"round\":1,\"elapsed_ns\":1000000000,\"write\":{\"bytes\":100}}",
    "{\"kind\":\"cell\",\"phase\":2,\"repeat\":0,\"round\":2,\"elapsed_ns\":1000000000,\"write\":{\"bytes\":100}}",
    "{\"kind\":\"cell\",\"phase\":2,\"repeat\":0,\"round\":2,\"elapsed_ns\":1000000000,\"write\":{\"bytes\":100}}",
    "{\"kind\":\"cell\",\"phase\":2,\"repeat\":0,\"round\":3,\"elapsed_ns\":1000000000,\"write\":{\"bytes\":100}}",
    "{\"kind\":\"cell\",\"phase\":2,\"repeat\":0,\"round\":3,\"elapsed_ns\":1000000000,\"write\":{\"bytes\":100}}",
    "{\"kind\":\"cell\",\"phase\":2,\"repeat\":0,\"round\":4,\"elapsed_ns\":1000000000,\"write\":{\"bytes\":100}}",
    "{\"kind\":\"cell\",\"phase\":2,\"repeat\":0,\"round\":4,\"elapsed_ns\":1000000000,\"write\":{\"bytes\":100}}",
    "{\"kind\":\"cell\",\"phase\":3,\"repeat\":0,\"round\":1,\"elapsed_ns\":7000000000,\"write\":{\"bytes\":7}}",
};
#define NREC (sizeof(recs) / sizeof(recs[0]))

static void load(struct results_records *rr, struct json_object **store)
{
	for (size_t i = 0; i < NREC; i++) {
		store[i] = json_tokener_parse(recs[i]);
		assert_non_null(store[i]);
	}
	rr->rec = store;
	rr->n = NREC;
}

static void put_all(struct json_object **store)
{
	for (size_t i = 0; i < NREC; i++)
		json_object_put(store[i]);
}

static void verdict_rounds(void **state)
{
	struct json_object *store[NREC], *sum;
	struct results_records rr = {0};
	struct cmpfast_verdict v;

	(void)state;
	load(&rr, store);
	/* reached at round 3, no early key: the SNIA window's round 3 */
	sum = json_tokener_parse("{\"steady_state\":[{\"phase\":2,\"repeat\":0,\"cell\":\"c\","
				 "\"metric\":\"iops\",\"verdict\":\"reached\",\"reached\":true,"
				 "\"last_round\":3}]}");
	cmpfast_verdict(cmpfast_ss_result(sum), &rr, &v);
	assert_true(v.found);
	assert_false(v.early_present);
	assert_string_equal(v.early, "absent");
	assert_int_equal(v.round, 3);
	assert_string_equal(v.round_from, "SNIA window");
	/* 10 s + 6 x 1 s; 1000 + 6 x 100 bytes; purge + precondition + 6 cells */
	assert_int_equal(v.drive_ns, 16000000000ull);
	assert_int_equal(v.host_bytes, 1600);
	assert_int_equal(v.records, 8);
	/* the whole run, to the figures, whatever the verdict: all 11 records (each has a phase),
	 * 10 s + 8 x 1 s + 7 s, 1000 + 8 x 100 + 7 bytes (phase 3 too, after the verdict) */
	assert_int_equal(v.run_records, 11);
	assert_int_equal(v.run_drive_ns, 25000000000ull);
	assert_int_equal(v.run_host_bytes, 1807);
	json_object_put(sum);

	/* an early verdict predicted at round 1 wins over the SNIA window */
	sum = json_tokener_parse("{\"steady_state\":[{\"phase\":2,\"repeat\":0,\"verdict\":\"reached\","
				 "\"reached\":true,\"last_round\":3,\"early\":{\"verdict\":\"predicted\","
				 "\"round\":1,\"confidence\":0.95,\"method\":\"m\",\"stopped_run\":true}}]}");
	cmpfast_verdict(cmpfast_ss_result(sum), &rr, &v);
	assert_true(v.early_present);
	assert_string_equal(v.early, "predicted");
	assert_int_equal(v.round, 1);
	assert_int_equal(v.stopped_run, 1);
	assert_true(fabs(v.early_confidence - 0.95) < 1e-12);
	assert_int_equal(v.drive_ns, 12000000000ull);
	assert_int_equal(v.host_bytes, 1200);
	json_object_put(sum);

	/* "not predicted" and not reached: the phase's last recorded round, 4 */
	sum = json_tokener_parse("{\"snia\":[{\"test\":\"iops\",\"steady_state\":{\"phase\":2,"
				 "\"verdict\":\"not reached\",\"reached\":false,\"last_round\":4,"
				 "\"early\":{\"verdict\":\"not predicted\",\"round\":2}}}]}");
	cmpfast_verdict(cmpfast_ss_result(sum), &rr, &v);
	assert_string_equal(v.early, "not predicted");
	assert_int_equal(v.snia_round, -1);
	assert_int_equal(v.round, 4);
	assert_string_equal(v.round_from, "last round (no verdict)");
	assert_int_equal(v.drive_ns, 18000000000ull);
	assert_int_equal(v.host_bytes, 1800);
	json_object_put(sum);

	/* no steady-state result */
	sum = json_tokener_parse("{\"cells\":[]}");
	assert_null(cmpfast_ss_result(sum));
	cmpfast_verdict(NULL, &rr, &v);
	assert_false(v.found);
	json_object_put(sum);
	put_all(store);
}

static void precondition_method(void **state)
{
	struct json_object *store[NREC], *m;
	struct results_records rr = {0}, none = {0};
	char buf[64];

	(void)state;
	load(&rr, store);
	m = json_tokener_parse("{\"profile\":{\"text\":\"precondition: {method: sprandom}\"}}");
	cmpfast_precondition(m, &rr, buf, sizeof(buf));
	assert_string_equal(buf, "sprandom");
	cmpfast_precondition(m, &none, buf, sizeof(buf));
	assert_string_equal(buf, "sprandom (profile text)");
	json_object_put(m);
	m = json_tokener_parse("{\"profile\":{\"text\":\"precondition: {amount: 2x}\"}}");
	cmpfast_precondition(m, &none, buf, sizeof(buf));
	assert_string_equal(buf, "sequential (none recorded)");
	json_object_put(m);
	put_all(store);
}

static void diff(void **state)
{
	(void)state;
	assert_true(fabs(cmpfast_diff(105, 100) - 0.05) < 1e-15);
	assert_true(fabs(cmpfast_diff(90, 100) + 0.1) < 1e-15);
	assert_true(isnan(cmpfast_diff(1, 0)));
	assert_true(isnan(cmpfast_diff(NAN, 1)));
}

/* Two SNIA blocks of one test (repeats 0 and 1), windows over rounds 2..3: the range is the
 * tracked IOPS of matrix[I]'s cell in those rounds (round 1's 500 left out), worked by hand. */
static void round_range(void **state)
{
	struct json_object *s = json_tokener_parse(
	    "{\"snia\": ["
	    "{\"test\": \"iops\", \"repeat\": 0, \"window\": {\"first_round\": 2, \"last_round\": 3},"
	    " \"matrix\": [{\"cell\": \"a\", \"iops\": 270}, {\"cell\": \"b\", \"iops\": 9}],"
	    " \"tracking\": [{\"cell\": \"b\", \"rounds\": [1, 2, 3], \"iops\": [1, 8, 10]},"
	    "                {\"cell\": \"a\", \"rounds\": [1, 2, 3], \"iops\": [500, 280, 260]}]},"
	    "{\"test\": \"iops\", \"repeat\": 1, \"window\": {\"first_round\": 1, \"last_round\": 1},"
	    " \"matrix\": [{\"cell\": \"a\", \"iops\": 7}],"
	    " \"tracking\": [{\"cell\": \"a\", \"rounds\": [1], \"iops\": [7]}]}]}");
	double lo = -1, hi = -1;

	(void)state;
	assert_non_null(s);
	assert_true(cmpfast_round_range(s, "iops matrix[0].iops", &lo, &hi));
	assert_true(lo == 260 && hi == 280);
	assert_true(cmpfast_round_range(s, "iops matrix[1].iops", &lo, &hi));
	assert_true(lo == 8 && hi == 10);
	assert_true(cmpfast_round_range(s, "iops#1 matrix[0].iops", &lo, &hi));
	assert_true(lo == 7 && hi == 7);
	lo = hi = -1;
	/* not a matrix cell's IOPS, no such cell, no such test: nothing set */
	assert_false(cmpfast_round_range(s, "iops matrix[0].mb_s", &lo, &hi));
	assert_false(cmpfast_round_range(s, "iops matrix[2].iops", &lo, &hi));
	assert_false(cmpfast_round_range(s, "latency matrix[0].iops", &lo, &hi));
	assert_false(cmpfast_round_range(s, "iops tracked.iops", &lo, &hi));
	assert_false(cmpfast_round_range(s, "iops matrix[0].iops.x", &lo, &hi));
	assert_true(lo == -1 && hi == -1);
	json_object_put(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(verdict_rounds),
	    cmocka_unit_test(precondition_method),
	    cmocka_unit_test(diff),
	    cmocka_unit_test(round_range),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
