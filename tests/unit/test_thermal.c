/* SPDX-License-Identifier: MIT */
/*
 * test_thermal: the throttling verdict (analysis/thermal.h) over hand-made snapshots and series,
 * and the reader's part that fills it (reader_thermal.c): NVMe snapshots as `ssdlab smart`
 * writes them (raw thermal_transitions_1/_2, warning_temp_minutes), the neutral devcounters keys
 * under raw.counters, WCTEMP in Kelvin, a series file's hottest row, and the endurance block.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "analysis/reader.h"
#include "analysis/thermal.h"
#include "results/snapshot.h"
#include "testutil.h"

#define MAXS 6

struct snaps {
	struct reader_snaps rs;
	struct wa_point at[MAXS];
	uint64_t t[MAXS];
	bool has_t[MAXS], parsed[MAXS];
	int64_t seq[MAXS];
	struct snapshot s[MAXS];
};

/* Snapshot i: temperature (NaN: none), percentage_used / available_spare (< 0: none), raw JSON
 * text (NULL: none). */
static void put(struct snaps *x, size_t i, double temp, double used, double spare, const char *raw)
{
	snapshot_init(&x->s[i], "nvme-smart");
	if (!isnan(temp))
		assert_int_equal(snapshot_set(&x->s[i], "temperature_c", "celsius", temp), 0);
	if (used >= 0)
		assert_int_equal(snapshot_set(&x->s[i], "percentage_used", "percent", used), 0);
	if (spare >= 0)
		assert_int_equal(snapshot_set(&x->s[i], "available_spare", "percent", spare), 0);
	if (raw) {
		x->s[i].raw = json_tokener_parse(raw);
		assert_non_null(x->s[i].raw);
	}
	x->parsed[i] = true;
	if (i + 1 > x->rs.n)
		x->rs.n = i + 1;
}

static void init(struct snaps *x)
{
	memset(x, 0, sizeof(*x));
	x->rs = (struct reader_snaps){
	    .at = x->at, .t = x->t, .has_t = x->has_t, .seq = x->seq, .parsed = x->parsed,
	    .s = x->s};
}

static void release(struct snaps *x)
{
	for (size_t i = 0; i < x->rs.n; i++)
		snapshot_release(&x->s[i]);
}

static void judge(struct snaps *x, double series_max, double user_warn, struct thermal_verdict *v)
{
	struct thermal_phase_in in = {.series_max_c = series_max, .user_warning_c = user_warn};

	reader_thermal_snap(&x->rs, 0, &in.a);
	reader_thermal_snap(&x->rs, 1, &in.b);
	thermal_judge(&in, v);
}

static void test_transitions(void **state)
{
	struct snaps x;
	struct thermal_verdict v;

	(void)state;
	/* thermal management transitions 2 + 0 -> 3 + 0: +1, throttled on that alone (45 and
	 * 50 C, no warning level known: the temperature says nothing) */
	init(&x);
	put(&x, 0, 45, -1, -1,
	    "{\"thermal_transitions_1\": 2, \"thermal_transitions_2\": 0, "
	    "\"warning_temp_minutes\": 10}");
	put(&x, 1, 50, -1, -1,
	    "{\"thermal_transitions_1\": 3, \"thermal_transitions_2\": 0, "
	    "\"warning_temp_minutes\": 10}");
	judge(&x, NAN, NAN, &v);
	assert_true(v.throttled);
	assert_int_equal(v.evidence, THERMAL_EV_TRANSITIONS);
	assert_int_equal(v.transitions_delta, 1);
	assert_true(v.max_c == 50.0);
	assert_true(isnan(v.warning_c));
	release(&x);

	/* the same counters before and after: not throttled */
	init(&x);
	put(&x, 0, 45, -1, -1, "{\"thermal_transitions_1\": 2, \"warning_temp_minutes\": 10}");
	put(&x, 1, 50, -1, -1, "{\"thermal_transitions_1\": 2, \"warning_temp_minutes\": 10}");
	judge(&x, 60, NAN, &v);
	assert_false(v.throttled);
	assert_int_equal(v.evidence, 0);
	assert_true(v.max_c == 60.0); /* the series' hottest row */
	release(&x);

	/* a level-2 transition (2 + 1 -> 2 + 3: +2) counts too; a counter that went backwards
	 * (the drive was reset) is no evidence */
	init(&x);
	put(&x, 0, NAN, -1, -1, "{\"thermal_transitions_1\": 2, \"thermal_transitions_2\": 1}");
	put(&x, 1, NAN, -1, -1, "{\"thermal_transitions_1\": 2, \"thermal_transitions_2\": 3}");
	judge(&x, NAN, NAN, &v);
	assert_true(v.throttled && v.transitions_delta == 2);
	release(&x);
	init(&x);
	put(&x, 0, NAN, -1, -1, "{\"thermal_transitions_1\": 9}");
	put(&x, 1, NAN, -1, -1, "{\"thermal_transitions_1\": 0}");
	judge(&x, NAN, NAN, &v);
	assert_false(v.throttled);
	release(&x);
}

static void test_warning(void **state)
{
	struct snaps x;
	struct thermal_verdict v;

	(void)state;
	/* devcounters keys under raw.counters: warning-temperature time 7 -> 12 minutes (+5) */
	init(&x);
	put(&x, 0, NAN, -1, -1, "{\"counters\": {\"nvme:smart.warning_temp_minutes\": 7}}");
	put(&x, 1, NAN, -1, -1, "{\"counters\": {\"nvme:smart.warning_temp_minutes\": 12}}");
	judge(&x, NAN, NAN, &v);
	assert_true(v.throttled);
	assert_int_equal(v.evidence, THERMAL_EV_WARN_MINUTES);
	assert_int_equal(v.warn_minutes_delta, 5);
	release(&x);

	/* WCTEMP 348 K = 74.85 C from the drive; the series peaked at 78 C: at or above it, and the
	 * drive's level wins over the user's 80 C */
	init(&x);
	put(&x, 0, 40, -1, -1, "{\"wctemp\": 348}");
	put(&x, 1, 70, -1, -1, "{\"wctemp\": 348}");
	judge(&x, 78, 80, &v);
	assert_true(v.throttled);
	assert_int_equal(v.evidence, THERMAL_EV_TEMPERATURE);
	assert_true(fabs(v.warning_c - 74.85) < 1e-9);
	assert_true(v.warning_from_drive);
	release(&x);

	/* no level from the drive (WCTEMP 0: not reported): the user's 80 C, not reached by 78 C;
	 * the user's 78 C is reached ("at or above") */
	init(&x);
	put(&x, 0, 40, -1, -1, "{\"wctemp\": 0}");
	put(&x, 1, 70, -1, -1, NULL);
	judge(&x, 78, 80, &v);
	assert_false(v.throttled);
	assert_true(v.warning_c == 80.0 && !v.warning_from_drive);
	judge(&x, 78, 78, &v);
	assert_true(v.throttled && v.evidence == THERMAL_EV_TEMPERATURE);
	/* a snapshot's own temperature counts too: 70 C at the end against 70 C */
	judge(&x, NAN, 70, &v);
	assert_true(v.throttled && v.max_c == 70.0);
	release(&x);
}

static void test_endurance(void **state)
{
	struct snaps x;
	struct thermal_snap ts[MAXS];
	struct thermal_endurance e;

	(void)state;
	/* used 3 -> (a snapshot without it) -> 4; spare 100 -> 98 */
	init(&x);
	put(&x, 0, 30, 3, 100, NULL);
	put(&x, 1, 30, -1, -1, NULL);
	put(&x, 2, 30, 4, 98, NULL);
	for (size_t i = 0; i < x.rs.n; i++)
		reader_thermal_snap(&x.rs, i, &ts[i]);
	thermal_endurance(ts, x.rs.n, &e);
	assert_true(e.has_used_start && e.used_start == 3 && e.has_used_end && e.used_end == 4);
	assert_true(e.has_spare_start && e.spare_start == 100 && e.spare_end == 98);
	/* nothing known */
	thermal_endurance(&ts[1], 1, &e);
	assert_false(e.has_used_start || e.has_used_end || e.has_spare_start || e.has_spare_end);
	thermal_endurance(NULL, 0, &e);
	assert_false(e.has_used_start);
	release(&x);
}

static void test_series_file(void **state)
{
	char *dir = tu_mkdtemp("thermal"), path[4200];
	const char *hdr = "t_ns,interval_ns,read_ios,read_bytes,read_iops,read_bw_bps,"
			  "read_lat_mean_ns,read_lat_p99_ns,read_lat_max_ns,write_ios,write_bytes,"
			  "write_iops,write_bw_bps,write_lat_mean_ns,write_lat_p99_ns,"
			  "write_lat_max_ns,temperature_c,total_bytes_written,round\n";
	char text[2048];

	(void)state;
	snprintf(path, sizeof(path), "%s/series", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	/* rows at 41.5, none, 47.25, 44: the hottest is 47.25 */
	snprintf(text, sizeof(text),
		 "%s1,1,0,0,,,,0,0,1,4096,1.000,4096.000,10.0,10,10,41.5,4096,1\n"
		 "2,1,0,0,,,,0,0,1,4096,1.000,4096.000,10.0,10,10,,8192,1\n"
		 "3,1,0,0,,,,0,0,1,4096,1.000,4096.000,10.0,10,10,47.25,12288,2\n"
		 "4,1,0,0,,,,0,0,1,4096,1.000,4096.000,10.0,10,10,44,16384,2\n",
		 hdr);
	snprintf(path, sizeof(path), "%s/series/phase-01-rep-00-precondition.csv", dir);
	assert_int_equal(tu_write_file(path, text), 0);
	/* another phase's file, hotter: not this phase's */
	snprintf(text, sizeof(text), "%s1,1,0,0,,,,0,0,1,4096,1.000,4096.000,10.0,10,10,90,4096,0\n",
		 hdr);
	snprintf(path, sizeof(path), "%s/series/phase-10-rep-00-write_until.csv", dir);
	assert_int_equal(tu_write_file(path, text), 0);
	/* a file from before the column existed: no temperature */
	snprintf(path, sizeof(path), "%s/series/phase-02-rep-00-precondition.csv", dir);
	assert_int_equal(tu_write_file(path, "t_ns,interval_ns,total_bytes_written,round\n1,1,4096,0\n"),
			 0);

	assert_true(reader_series_max_temp(dir, 1, 0) == 47.25);
	assert_true(reader_series_max_temp(dir, 10, 0) == 90.0);
	assert_true(isnan(reader_series_max_temp(dir, 2, 0)));
	assert_true(isnan(reader_series_max_temp(dir, 3, 0)));
	tu_rmtree(dir);
	free(dir);
}

/* The runner's reading after each job (records' temperature_c, between cells: how a SATA drive's
 * temperature is known inside a phase): the hottest step record of the phase; records without it
 * and other phases' records do not count. */
static void test_records_temp(void **state)
{
	static const char *const recs[] = {
		"{\"kind\":\"round\",\"phase\":2,\"repeat\":0,\"round\":1,\"cell\":\"a\",\"temperature_c\":51.0}",
		"{\"kind\":\"round\",\"phase\":2,\"repeat\":0,\"round\":1,\"cell\":\"b\",\"temperature_c\":68.5}",
		"{\"kind\":\"round\",\"phase\":2,\"repeat\":0,\"round\":2,\"cell\":\"a\"}",
		"{\"kind\":\"round\",\"phase\":2,\"repeat\":1,\"round\":1,\"cell\":\"a\",\"temperature_c\":80}",
		"{\"kind\":\"round\",\"phase\":3,\"repeat\":0,\"round\":1,\"cell\":\"a\",\"temperature_c\":99}",
	};
	struct json_object *o[5];
	struct results_records rr = {.rec = o, .n = 5};

	(void)state;
	for (size_t i = 0; i < 5; i++)
		assert_non_null(o[i] = json_tokener_parse(recs[i]));
	assert_true(reader_records_max_temp(&rr, 2, 0) == 68.5);
	assert_true(reader_records_max_temp(&rr, 2, 1) == 80.0);
	assert_true(isnan(reader_records_max_temp(&rr, 4, 0)));
	for (size_t i = 0; i < 5; i++)
		json_object_put(o[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_transitions),
		cmocka_unit_test(test_warning),
		cmocka_unit_test(test_endurance),
		cmocka_unit_test(test_series_file),
		cmocka_unit_test(test_records_temp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
