/* SPDX-License-Identifier: MIT */
/*
 * test_reader: the reader's record walks (analysis/reader.h) on records written out here as JSON
 * lines, the way records.jsonl holds them: the notes of flagged records (no_io with its reason,
 * host_limited, errors), resume markers, purges with and without pts_purge, the reads_unmapped
 * sums, the time span of a window of rounds, idles, the write_until phases and the measurements
 * (records with figures) with the table's metrics. Every expected
 * value is read off the lines below. A line without a key (no "cell") counts only where the
 * reader says it does (reads_unmapped).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "analysis/reader.h"
#include "base/hist.h"
#include "results/records.h"

#define KEY(p, r, n, kind, cell)                                                                  \
	"\"phase\":" #p ",\"repeat\":" #r ",\"round\":" #n ",\"kind\":\"" kind "\",\"cell\":\"" cell "\""

static const char *const lines[] = {
    /* 0 */ "{" KEY(0, 0, 0, "purge", "") ",\"method\":\"discard\",\"pts_purge\":false,"
	    "\"settle_ns\":5}",
    /* 1 */ "{" KEY(0, 1, 0, "purge", "") ",\"method\":\"sim-reset\"}",
    /* 2 */ "{" KEY(1, 0, 1, "cell", "bs=4k") ",\"start_ns\":100,\"end_ns\":200,"
	    "\"flags\":[\"host_limited\"],\"reads_unmapped\":{\"bytes\":0,\"of_bytes\":10}}",
    /* 3 */ "{" KEY(1, 0, 2, "cell", "bs=4k") ",\"start_ns\":200,\"end_ns\":300,"
	    "\"flags\":[\"no_io\"],\"no_io_reason\":\"capacity\",\"error\":\"EIO\"}",
    /* 4 */ "{" KEY(1, 0, 2, "cell", "bs=8k") ",\"start_ns\":300,\"end_ns\":400,"
	    "\"reads_unmapped\":{\"bytes\":4,\"of_bytes\":6},\"elapsed_ns\":2000000000,"
	    "\"read\":{\"ios\":10,\"bytes\":40960},\"write\":{\"ios\":30,\"bytes\":122880}}",
    /* 5 */ "{" KEY(2, 0, 0, "idle", "") ",\"idle_ns\":1000,\"time_scale\":0.5}",
    /* 6 */ "{" KEY(3, 0, 0, "write_until", "") "}",
    /* 7 */ "{" KEY(1, 0, 3, "resume", "") ",\"gap_wall_ns\":7,\"sim_replayed\":true,"
	    "\"steps_replayed\":3}",
    /* 8 */ "{" KEY(3, 1, 0, "write_until", "") "}",
    /* 9 */ "{" KEY(3, 0, 1, "write_until", "") "}",
    /* 10 */ "{" KEY(4, 0, 0, "idle", "") "}",
    /* 11: no cell, so no key */
    "{\"phase\":5,\"repeat\":0,\"round\":0,\"kind\":\"cell\",\"error\":\"x\","
    "\"reads_unmapped\":{\"bytes\":1,\"of_bytes\":1}}",
};
#define NLINES (sizeof(lines) / sizeof(lines[0]))

static int setup(void **state)
{
	struct results_records *rr = calloc(1, sizeof(*rr));

	if (!rr || !(rr->rec = calloc(NLINES, sizeof(*rr->rec))))
		return -1;
	for (size_t i = 0; i < NLINES; i++) {
		rr->rec[i] = json_tokener_parse(lines[i]);
		if (!rr->rec[i])
			return -1;
		rr->n++;
	}
	*state = rr;
	return 0;
}

static int teardown(void **state)
{
	results_records_release(*state);
	free(*state);
	return 0;
}

static void test_notes(void **state)
{
	struct reader_note *nt = NULL;
	size_t n = 0;

	assert_int_equal(reader_notes(*state, &nt, &n), 0);
	assert_int_equal(n, NLINES - 1); /* every line with a key */
	assert_string_equal(nt[2].k.cell, "bs=4k");
	assert_true(nt[2].host_limited);
	assert_false(nt[2].no_io);
	assert_false(nt[2].error);
	assert_null(nt[2].no_io_reason);
	assert_true(nt[3].no_io);
	assert_true(nt[3].error);
	assert_false(nt[3].host_limited);
	assert_string_equal(nt[3].no_io_reason, "capacity");
	assert_int_equal(nt[3].k.round, 2);
	for (size_t i = 0; i < n; i++)
		if (i != 2 && i != 3)
			assert_false(nt[i].no_io || nt[i].host_limited || nt[i].error);
	free(nt);
}

static void test_resumes(void **state)
{
	struct reader_resume *r = NULL;
	size_t n = 0;

	assert_int_equal(reader_resumes(*state, &r, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(r[0].phase, 1);
	assert_int_equal(r[0].round, 3);
	assert_true(r[0].has_gap_wall);
	assert_int_equal(r[0].gap_wall_ns, 7);
	assert_false(r[0].has_gap_target);
	assert_true(r[0].has_sim_replayed && r[0].sim_replayed);
	assert_true(r[0].has_steps_replayed);
	assert_int_equal(r[0].steps_replayed, 3);
	free(r);
}

static void test_purges(void **state)
{
	struct reader_purge *p = NULL;
	size_t n = 0;

	assert_int_equal(reader_purges(*state, &p, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(p[0].method, "discard");
	assert_int_equal(p[0].pts_purge, 0);
	assert_int_equal(p[0].settle_ns, 5);
	assert_int_equal(p[1].repeat, 1);
	assert_string_equal(p[1].method, "sim-reset");
	assert_int_equal(p[1].pts_purge, -1); /* written before the key existed */
	assert_int_equal(p[1].settle_ns, 0);
	free(p);
}

static void test_reads_unmapped(void **state)
{
	struct results_records empty = {0};
	struct reader_unmapped u;

	reader_reads_unmapped(*state, &u);
	assert_int_equal(u.records, 3); /* the keyless line counts too */
	assert_int_equal(u.records_with_unmapped, 2);
	assert_int_equal(u.bytes, 5);
	assert_int_equal(u.of_bytes, 17);
	reader_reads_unmapped(&empty, &u);
	assert_int_equal(u.records, 0);
}

/* The WA guard's per-round WA (reader_guard_wa): nand / host of the tracked cell's
 * wa_guard_counters, NaN where a record has none, null counters or no host bytes. */
static void test_guard_wa(void **state)
{
	static const char *const g[] = {
	    "{" KEY(2, 0, 1, "cell", "c") ",\"wa_guard_counters\":{\"host_bytes\":200,"
	    "\"nand_bytes\":700}}",
	    "{" KEY(2, 0, 1, "cell", "other") ",\"wa_guard_counters\":{\"host_bytes\":1,"
	    "\"nand_bytes\":9}}",
	    "{" KEY(2, 0, 2, "cell", "c") ",\"wa_guard_counters\":{\"host_bytes\":null,"
	    "\"nand_bytes\":null}}",
	    "{" KEY(2, 0, 3, "cell", "c") "}",
	    "{" KEY(2, 0, 4, "cell", "c") ",\"wa_guard_counters\":{\"host_bytes\":0,"
	    "\"nand_bytes\":5}}",
	    "{" KEY(2, 0, 5, "cell", "c") ",\"wa_guard_counters\":{\"host_bytes\":400,"
	    "\"nand_bytes\":1000}}",
	};
	struct json_object *recs[6];
	struct results_records rr = {.rec = recs, .n = 6};
	double wa[6] = {0};

	(void)state;
	for (size_t i = 0; i < 6; i++)
		assert_non_null(recs[i] = json_tokener_parse(g[i]));
	/* five records of cell c, four with the key; room for 4 leaves the fifth out */
	assert_int_equal(reader_guard_wa(&rr, 2, 0, "c", wa, 4), 3);
	assert_float_equal(wa[0], 3.5, 1e-12);
	assert_true(isnan(wa[1]) && isnan(wa[2]) && isnan(wa[3]));
	assert_int_equal(reader_guard_wa(&rr, 2, 0, "c", wa, 6), 4);
	assert_float_equal(wa[4], 2.5, 1e-12);
	assert_int_equal(reader_guard_wa(&rr, 3, 0, "c", wa, 6), 0);
	for (size_t i = 0; i < 6; i++)
		json_object_put(recs[i]);
}

static void test_round_span(void **state)
{
	uint64_t t0 = 9, t1 = 9;

	assert_int_equal(reader_round_span(*state, 1, 0, 1, 2, &t0, &t1), 0);
	assert_int_equal(t0, 100);
	assert_int_equal(t1, 400); /* the last record of round 2: bs=8k */
	t0 = t1 = 9;
	/* round 3 is only a resume marker, which does not count */
	assert_int_equal(reader_round_span(*state, 1, 0, 1, 3, &t0, &t1), -ENOENT);
	assert_int_equal(reader_round_span(*state, 2, 0, 0, 0, &t0, &t1), -ENOENT); /* no times */
	assert_int_equal(t0, 9);
	assert_int_equal(t1, 9);
}

static void test_idles(void **state)
{
	struct reader_idle *id = NULL;
	size_t n = 0;

	assert_int_equal(reader_idles(*state, &id, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(id[0].index, 5);
	assert_int_equal(id[0].phase, 2);
	assert_int_equal(id[0].idle_ns, 1000);
	assert_true(id[0].time_scale == 0.5);
	assert_int_equal(id[1].index, 10);
	assert_int_equal(id[1].idle_ns, 0);
	assert_true(id[1].time_scale == 1);
	free(id);
}

static void test_write_until_phases(void **state)
{
	struct reader_phase *ph = NULL;
	size_t n = 0;

	assert_int_equal(reader_write_until_phases(*state, &ph, &n), 0);
	assert_int_equal(n, 2); /* (3,0) once though it has two records, then (3,1) */
	assert_int_equal(ph[0].phase, 3);
	assert_int_equal(ph[0].repeat, 0);
	assert_int_equal(ph[1].phase, 3);
	assert_int_equal(ph[1].repeat, 1);
	free(ph);
}

static void test_measurements(void **state)
{
	struct reader_measurement *m = NULL;
	struct cells_figures f;
	struct hist *h = malloc(2 * sizeof(*h));
	size_t n = 0;

	assert_non_null(h);
	assert_int_equal(reader_measurements(*state, &m, &n), 0);
	assert_int_equal(n, 1); /* only line 4 has "elapsed_ns" */
	assert_int_equal(m[0].index, 4);
	assert_string_equal(m[0].k.cell, "bs=8k");
	/* 40 I/Os and 160 KiB in 2 s; no histogram, so no latency */
	assert_true(m[0].metric[RESULTS_METRIC_IOPS] == 20);
	assert_true(m[0].metric[RESULTS_METRIC_BW] == 81920);
	assert_true(isnan(m[0].metric[RESULTS_METRIC_LAT_MEAN]));
	assert_true(isnan(m[0].metric[RESULTS_METRIC_LAT_P99]));
	/* its figures lack the histograms: malformed; an index past the end is refused */
	assert_int_equal(reader_figures_at(*state, m[0].index, &h[0], &h[1], &f), -EBADMSG);
	assert_int_equal(reader_figures_at(*state, NLINES, &h[0], &h[1], &f), -EBADMSG);
	free(m);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_notes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_resumes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_purges, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_reads_unmapped, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_round_span, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_idles, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_write_until_phases, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_measurements, setup, teardown),
	    cmocka_unit_test(test_guard_wa),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
