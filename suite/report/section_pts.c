/* SPDX-License-Identifier: MIT */
/*
 * section_pts: the SNIA PTS blocks beyond the rounds tests and WSAT (docs/results-format.md):
 *   XSR    throughput and mean response time against time, one series per access group, and
 *          the groups' table with the recovery verdict;
 *   DIRTH  the Demand Variation plot (IOPS against total outstanding I/O per thread count, log
 *          x) and the Demand Intensity plot (mean response time against IOPS per thread count),
 *          and the Max/Mid/Min points' table;
 *   HIR    IOPS against time from the first burst, each wait state's bursts, and its table;
 *   ECW    the precondition rounds' IOPS, the TOIO points' table and ECW's two plots as DIRTH's.
 * Times on the x axes are the profile's (t_profile_ns: the time scale undone), as the PTS plots.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "report/section.h"

enum { MAXS = 16 };

/* Up to MAXS series of an array of objects: series i's x and y from keys of its element (each
 * an array of numbers, scaled), named by name(element). One plot; the arrays freed here. */
struct many {
	struct svg_series se[MAXS];
	double *x[MAXS], *y[MAXS];
	char names[MAXS][64];
	size_t n;
};

static void many_add(struct section_ctx *c, struct many *m, const char *name,
		     struct json_object *xa, double xs, struct json_object *ya, double ys)
{
	size_t nx = 0, ny = 0;
	double *x, *y;

	if (m->n == MAXS)
		return;
	x = section_numbers(xa, xs, &nx);
	y = section_numbers(ya, ys, &ny);
	if (!x || !y || nx != ny) {
		free(x);
		free(y);
		return;
	}
	snprintf(m->names[m->n], sizeof(m->names[0]), "%s", name);
	m->x[m->n] = x;
	m->y[m->n] = y;
	m->se[m->n] = (struct svg_series){m->names[m->n], x, y, nx, SVG_LINE};
	m->n++;
}

static void many_emit(struct section_ctx *c, struct many *m, const char *id, const char *title,
		      struct svg_axis xa, struct svg_axis ya)
{
	struct svg_plot p = {.id = id, .title = title, .x = xa, .y = ya, .series = m->se,
			     .nseries = m->n};

	if (m->n)
		section_emit_plot(c, &p);
	for (size_t i = 0; i < m->n; i++) {
		free(m->x[i]);
		free(m->y[i]);
	}
	m->n = 0;
}

static void xsr(struct section_ctx *c, struct json_object *b, size_t k)
{
	static const char *const head[] = {"group", "phase", "rw", "bs", "threads", "qd", "samples",
					   "mb_s", "end_mb_s", "lat_mean_ns", "art_peak_ns",
					   "mrt_ns"};
	static const char *const rhead[] = {"key", "value"};
	static const char *const rkeys[] = {"status", "why", "reference_mb_s", "sample",
					    "after_profile_ns", "after_bytes", "rule_text"};
	struct json_object *g = section_get(b, "groups"), *rec = section_get(b, "recovery");
	struct section_table t;
	struct many m = {0};
	char id[64];

	snprintf(id, sizeof(id), "snia_xsr_groups_%zu", k);
	section_table_init(&t, id, "XSR access groups (MB/s: 10^6 bytes per second)", 12, head, true);
	section_table_objects(&t, g);
	section_emit_table(c, &t);
	section_table_release(&t);
	if (rec) {
		snprintf(id, sizeof(id), "snia_xsr_recovery_%zu", k);
		section_table_init(&t, id, "XSR recovery of group 3 to group 1's throughput", 2, rhead,
				   true);
		for (size_t j = 0; j < sizeof(rkeys) / sizeof(rkeys[0]); j++) {
			if (!section_get(rec, rkeys[j]))
				continue;
			section_table_str(&t, rkeys[j]);
			section_table_json(&t, rec, rkeys[j]);
		}
		section_emit_table(c, &t);
		section_table_release(&t);
	}
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < section_alen(g); i++) {
			struct json_object *e = json_object_array_get_idx(g, i), *s = section_get(e, "series");
			char name[64];
			snprintf(name, sizeof(name), "group %lld (%s)", (long long)jsonget_num(e, "group"),
				 jsonget_str(e, "rw") ? jsonget_str(e, "rw") : "?");
			many_add(c, &m, name, section_get(s, "t_profile_ns"), 1.0 / 60e9,
				 section_get(s, pass ? "lat_mean_ns" : "mb_s"), 1);
		}
		snprintf(id, sizeof(id), pass ? "snia-xsr-latency-%zu" : "snia-xsr-throughput-%zu", k);
		many_emit(c, &m, id, pass ? "XSR: mean response time against time"
					  : "XSR: throughput against time",
			  (struct svg_axis){"time", "min (profile time)", false},
			  pass ? (struct svg_axis){"mean response time", "ns", false}
			       : (struct svg_axis){"throughput", "MB/s", false});
	}
}

/* DIRTH's and ECW's two plots from by_tc: x and y keys per TC, for DIRTH inside `points`. */
static void by_tc_plots(struct section_ctx *c, struct json_object *by_tc, const char *test,
			size_t k, bool nested)
{
	struct many m = {0};
	char id[64], title[96];

	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < section_alen(by_tc); i++) {
			struct json_object *e = json_object_array_get_idx(by_tc, i);
			struct json_object *xa, *ya;
			char name[32];

			snprintf(name, sizeof(name), "TC %lld", (long long)jsonget_num(e, "threads"));
			if (nested) { /* DIRTH: points: [{toio, iops, mean_ns}] */
				struct json_object *pts = section_get(e, "points");
				xa = json_object_new_array();
				ya = json_object_new_array();
				if (!xa || !ya) {
					json_object_put(xa);
					json_object_put(ya);
					section_fail(c, -ENOMEM, "DIRTH plot");
					return;
				}
				for (size_t j = 0; j < section_alen(pts); j++) {
					struct json_object *q = json_object_array_get_idx(pts, j);
					json_object_array_add(xa, json_object_get(section_get(q, pass ? "iops" : "toio")));
					json_object_array_add(ya, json_object_get(section_get(q, pass ? "mean_ns" : "iops")));
				}
				many_add(c, &m, name, xa, 1, ya, 1);
				json_object_put(xa);
				json_object_put(ya);
			} else { /* ECW: {toio: [], iops: [], lat_mean_ns: []} */
				many_add(c, &m, name, section_get(e, pass ? "iops" : "toio"), 1,
					 section_get(e, pass ? "lat_mean_ns" : "iops"), 1);
			}
		}
		snprintf(id, sizeof(id), "snia-%s-%s-%zu", test, pass ? "intensity" : "variation", k);
		snprintf(title, sizeof(title), "%s: %s", test,
			 pass ? "Demand Intensity (mean response time against IOPS)"
			      : "Demand Variation (IOPS against total outstanding I/O)");
		many_emit(c, &m, id, title,
			  pass ? (struct svg_axis){"IOPS", "I/O per s", false}
			       : (struct svg_axis){"total outstanding I/O", "TC x QD", true},
			  pass ? (struct svg_axis){"mean response time", "ns", false}
			       : (struct svg_axis){"IOPS", "I/O per s", false});
	}
}

static void dirth(struct section_ctx *c, struct json_object *b, size_t k)
{
	static const char *const head[] = {"point", "threads", "qd", "toio", "rounds_iops",
					   "run_iops", "run_mean_ns", "run_max_ns", "run_p99_ns",
					   "run_p99_999_ns", "why"};
	struct json_object *pts = section_get(b, "points");
	struct section_table t;
	char id[64];

	by_tc_plots(c, section_get(b, "by_tc"), "dirth", k, true);
	if (!section_alen(pts)) {
		if (jsonget_str(b, "points"))
			section_para(c, jsonget_str(b, "points"));
		return;
	}
	snprintf(id, sizeof(id), "snia_dirth_points_%zu", k);
	section_table_init(&t, id, "DIRTH Max, Mid and Min IOPS points", 11, head, true);
	for (size_t i = 0; i < section_alen(pts); i++) {
		struct json_object *e = json_object_array_get_idx(pts, i), *run = section_get(e, "run");
		struct json_object *pc = section_get(run, "percentiles");
		for (size_t j = 0; j < 5; j++)
			section_table_json(&t, e, head[j]);
		section_table_json(&t, run, "iops");
		section_table_json(&t, run, "mean_ns");
		section_table_json(&t, run, "max_ns");
		section_table_json(&t, pc, "p99");
		section_table_json(&t, pc, "p99_999");
		section_table_json(&t, e, "why");
	}
	section_emit_table(c, &t);
	section_table_release(&t);
}

static void hir(struct section_ctx *c, struct json_object *b, size_t k)
{
	static const char *const head[] = {"phase", "wait_profile_ns", "wait_ns", "wait_floored",
					   "bursts", "mean_iops", "of_steady"};
	struct json_object *ws = section_get(b, "wait_states"), *ivt = section_get(b, "iops_vs_time");
	struct section_table t;
	struct many m = {0};
	char id[64];

	snprintf(id, sizeof(id), "snia_hir_%zu", k);
	section_table_init(&t, id, "HIR wait states (steady IOPS: the steady-state window's average)",
			   7, head, true);
	section_table_objects(&t, ws);
	section_emit_table(c, &t);
	section_table_release(&t);
	many_add(c, &m, "IOPS", section_get(ivt, "t_profile_ns"), 1e-9, section_get(ivt, "iops"), 1);
	snprintf(id, sizeof(id), "snia-hir-time-%zu", k);
	many_emit(c, &m, id, "HIR: IOPS against time from the first burst",
		  (struct svg_axis){"time", "s (profile time)", false},
		  (struct svg_axis){"IOPS", "I/O per s", false});
	for (size_t i = 0; i < section_alen(ws); i++) {
		struct json_object *e = json_object_array_get_idx(ws, i), *s = section_get(e, "series");
		char name[64];
		snprintf(name, sizeof(name), "wait %g s", jsonget_num(e, "wait_profile_ns") / 1e9);
		many_add(c, &m, name, section_get(s, "burst"), 1, section_get(s, "iops"), 1);
	}
	snprintf(id, sizeof(id), "snia-hir-bursts-%zu", k);
	many_emit(c, &m, id, "HIR: IOPS per burst, per wait state",
		  (struct svg_axis){"burst", "", false}, (struct svg_axis){"IOPS", "I/O per s", false});
}

static void ecw(struct section_ctx *c, struct json_object *b, size_t k)
{
	static const char *const head[] = {"threads", "qd", "toio", "rounds", "iops", "samples",
					   "lat_mean_ns", "lat_max_ns", "lat_p99_ns", "lat_p99_9_ns",
					   "lat_p99_99_ns", "lat_p99_999_ns"};
	const char *stage = jsonget_str(b, "stage");
	struct json_object *r = section_get(b, "rounds"), *pts = section_get(b, "points");
	struct section_table t;
	struct many m = {0};
	char id[64];

	if (stage && !strcmp(stage, "precondition")) {
		struct json_object *x = json_object_new_array(), *y = json_object_new_array();
		if (!x || !y) {
			json_object_put(x);
			json_object_put(y);
			section_fail(c, -ENOMEM, "ECW plot");
			return;
		}
		for (size_t i = 0; i < section_alen(r); i++) {
			struct json_object *e = json_object_array_get_idx(r, i);
			json_object_array_add(x, json_object_get(section_get(e, "round")));
			json_object_array_add(y, json_object_get(section_get(e, "iops")));
		}
		many_add(c, &m, "IOPS", x, 1, y, 1);
		json_object_put(x);
		json_object_put(y);
		snprintf(id, sizeof(id), "snia-ecw-precondition-%zu", k);
		many_emit(c, &m, id, "ECW precondition: IOPS per round",
			  (struct svg_axis){"round", "", false},
			  (struct svg_axis){"IOPS", "I/O per s", false});
		return;
	}
	snprintf(id, sizeof(id), "snia_ecw_points_%zu", k);
	section_table_init(&t, id, "ECW TOIO points (response times from the merged histograms, ns)",
			   12, head, true);
	section_table_objects(&t, pts);
	section_emit_table(c, &t);
	section_table_release(&t);
	by_tc_plots(c, section_get(b, "by_tc"), "ecw", k, false);
}

bool section_snia_more(struct section_ctx *c, struct json_object *b, size_t k)
{
	const char *test = jsonget_str(b, "test");

	if (!test)
		return false;
	if (!strcmp(test, "xsr"))
		xsr(c, b, k);
	else if (!strcmp(test, "dirth"))
		dirth(c, b, k);
	else if (!strcmp(test, "hir"))
		hir(c, b, k);
	else if (!strcmp(test, "ecw"))
		ecw(c, b, k);
	else
		return false;
	return true;
}
