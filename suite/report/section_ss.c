/* SPDX-License-Identifier: MIT */
/*
 * section_ss: steady state, one table row and one measurement-window plot per tracked series of
 * summary.json's steady_state. The plot follows SNIA PTS 2.0.1's steady-state figure: the
 * window's per-round values, their average, the least-squares line, the data-excursion band
 * (average +- half the allowed excursion: max - min must fit in it, so a band of that width
 * centred on the average is the usual drawing) and the slope-excursion limit (the two lines
 * through the window's centre whose rise over the window equals the allowed excursion). The
 * round numbers are the x of the fit (analysis/ss.c fits y against round numbers).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "report/section.h"

static const char *const ss_head[] = {"phase", "repeat", "cell", "metric", "verdict", "rounds",
				      "first_round", "last_round", "average", "data_excursion",
				      "allowed_data_excursion", "slope", "intercept",
				      "slope_excursion", "allowed_slope_excursion"};
#define NSS (sizeof(ss_head) / sizeof(ss_head[0]))

enum { MAXW = 4096 };

/* The unit of a tracked metric (records_metric.c's names: iops, bw, lat_*). */
static const char *unit_of(const char *metric)
{
	if (!metric)
		return "";
	if (strstr(metric, "lat"))
		return "ns";
	if (strstr(metric, "bw"))
		return "bytes/s";
	if (strstr(metric, "iops"))
		return "I/O per s";
	return "";
}

static void window_plot(struct section_ctx *c, struct json_object *e, size_t k)
{
	struct json_object *vals = NULL;
	double first = jsonget_num(e, "first_round"), avg = jsonget_num(e, "average");
	double slope = jsonget_num(e, "slope"), icpt = jsonget_num(e, "intercept");
	double ade = jsonget_num(e, "allowed_data_excursion");
	double ase = jsonget_num(e, "allowed_slope_excursion");
	double *x = NULL, *y = NULL, ends[2], avgy[2], lsy[2], hiy[2], loy[2], s1[2], s2[2], xm, ym;
	const char *cell = jsonget_str(e, "cell"), *metric = jsonget_str(e, "metric");
	struct svg_series se[7];
	struct svg_plot p = {0};
	char id[64], title[256], key[256];
	size_t n;

	if (!json_object_object_get_ex(e, "values", &vals) || !json_object_is_type(vals, json_type_array))
		return;
	n = json_object_array_length(vals);
	if (!n || n > MAXW || !isfinite(first))
		return;
	x = calloc(n, sizeof(*x));
	y = calloc(n, sizeof(*y));
	if (!x || !y) {
		section_fail(c, -ENOMEM, "steady-state plot");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		x[i] = first + (double)i;
		y[i] = json_object_get_double(json_object_array_get_idx(vals, i));
	}
	ends[0] = x[0];
	ends[1] = x[n - 1];
	xm = (ends[0] + ends[1]) / 2;
	ym = icpt + slope * xm;
	for (int i = 0; i < 2; i++) {
		double half = n > 1 ? ase / (double)(n - 1) : 0;
		avgy[i] = avg;
		lsy[i] = icpt + slope * ends[i];
		hiy[i] = avg + ade / 2;
		loy[i] = avg - ade / 2;
		s1[i] = ym + half * (ends[i] - xm);
		s2[i] = ym - half * (ends[i] - xm);
	}
	se[0] = (struct svg_series){"per-round value", x, y, n, SVG_LINE};
	se[1] = (struct svg_series){"average", ends, avgy, 2, SVG_DASHED};
	se[2] = (struct svg_series){"least-squares line", ends, lsy, 2, SVG_DASHED};
	se[3] = (struct svg_series){"data excursion band (upper)", ends, hiy, 2, SVG_DASHED};
	se[4] = (struct svg_series){"data excursion band (lower)", ends, loy, 2, SVG_DASHED};
	se[5] = (struct svg_series){"slope excursion limit (+)", ends, s1, 2, SVG_DASHED};
	se[6] = (struct svg_series){"slope excursion limit (-)", ends, s2, 2, SVG_DASHED};
	snprintf(id, sizeof(id), "ss-window-%zu", k);
	snprintf(title, sizeof(title), "Steady-state window: phase %lld, %s, %s (%s)",
		 (long long)jsonget_num(e, "phase"), cell && cell[0] ? cell : "-",
		 metric ? metric : "?", jsonget_str(e, "verdict") ? jsonget_str(e, "verdict") : "?");
	snprintf(key, sizeof(key), "Steady-state window: %s, %s", cell && cell[0] ? cell : "-",
		 metric ? metric : "?");
	p.id = id;
	p.title = title;
	p.key = key; /* without the phase number and the verdict, which differ between runs */
	p.x = (struct svg_axis){"round", "", false};
	p.y = (struct svg_axis){metric ? metric : "value", unit_of(metric), false};
	p.series = se;
	p.nseries = 7;
	section_emit_plot(c, &p);
out:
	free(x);
	free(y);
}

static const char *const early_head[] = {
    "phase",	      "cell",		      "snia_verdict",	 "snia_reason",
    "early_verdict",  "early_round",	      "confidence",	 "stopped_run",
    "window_first",   "window_last",	      "observed_average", "guard_bytes",
    "guard_source",   "written_at_round"};
#define NEARLY (sizeof(early_head) / sizeof(early_head[0]))

/* The early verdicts (docs/early-verdict.md) beside the SNIA verdicts: a sentence per series
 * the run stopped early, and a table of every series that asked for one. */
static void early_section(struct section_ctx *c, struct json_object *ss, size_t n)
{
	struct section_table t;
	bool any = false;

	for (size_t i = 0; i < n; i++) {
		struct json_object *e = section_get(json_object_array_get_idx(ss, i), "early");
		const char *v = jsonget_str(e, "verdict");

		any |= v && strcmp(v, "off");
	}
	if (!any)
		return;
	section_heading(c, 3, "early-verdict", "Early verdict", true);
	for (size_t i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(ss, i), *e = section_get(s, "early");
		struct json_object *x = section_get(e, "stopped_run");
		char text[256];

		if (!x || !json_object_get_boolean(x))
			continue;
		snprintf(text, sizeof(text),
			 "Phase %.0f, %s: steady state predicted at round %.0f (confidence %g), SNIA "
			 "window not completed; the SNIA verdict stays \"%s\".",
			 jsonget_num(s, "phase"), jsonget_str(s, "cell") ? jsonget_str(s, "cell") : "?",
			 jsonget_num(e, "round"), jsonget_num(e, "confidence"),
			 jsonget_str(s, "verdict") ? jsonget_str(s, "verdict") : "?");
		section_para(c, text);
	}
	section_table_init(&t, "early_verdict", "Early steady-state verdict per tracked series",
			   NEARLY, early_head, true);
	for (size_t i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(ss, i), *e = section_get(s, "early");
		struct json_object *g = section_get(e, "guard"), *x = section_get(e, "stopped_run");
		const char *v = jsonget_str(e, "verdict");

		if (!v || !strcmp(v, "off"))
			continue;
		section_table_num(&t, jsonget_num(s, "phase"));
		section_table_str(&t, jsonget_str(s, "cell"));
		section_table_str(&t, jsonget_str(s, "verdict"));
		section_table_str(&t, jsonget_str(s, "reason"));
		section_table_str(&t, v);
		section_table_num(&t, jsonget_num(e, "round"));
		section_table_num(&t, jsonget_num(e, "confidence"));
		section_table_str(&t, x && json_object_get_boolean(x) ? "true" : "false");
		section_table_num(&t, jsonget_num(e, "window_first_round"));
		section_table_num(&t, jsonget_num(e, "window_last_round"));
		section_table_num(&t, jsonget_num(e, "observed_average"));
		section_table_num(&t, jsonget_num(g, "bytes"));
		section_table_str(&t, jsonget_str(g, "source"));
		section_table_num(&t, jsonget_num(g, "written_at_round"));
	}
	section_emit_table(c, &t);
	section_table_release(&t);
}

/* The WA guard after a sprandom fill (docs/fast-steady-state.md): a sentence per series it
 * judged. */
static void guard_sentences(struct section_ctx *c, struct json_object *ss, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(ss, i), *g = section_get(s, "wa_guard");
		const char *o = jsonget_str(g, "outcome");
		char text[400];

		if (!o || !strcmp(o, "off"))
			continue;
		snprintf(text, sizeof(text),
			 "Phase %.0f, %s: WA guard %s (a round whose WA is more than %.0f %% below "
			 "1/(1-alpha) = %.2f of the sprandom fill accepts no steady-state verdict; %.0f "
			 "verdict(s) refused, the rounds stopped by %s at round %.0f).",
			 jsonget_num(s, "phase"), jsonget_str(s, "cell") ? jsonget_str(s, "cell") : "?",
			 o, 100 * jsonget_num(g, "tolerance"), jsonget_num(g, "expected_wa"),
			 jsonget_num(g, "blocked"),
			 jsonget_str(g, "stop") ? jsonget_str(g, "stop") : "?",
			 jsonget_num(g, "stop_round"));
		section_para(c, text);
	}
}

void section_steady_state(struct section_ctx *c)
{
	struct json_object *ss = NULL;
	struct section_table t;
	size_t n;

	if (!json_object_object_get_ex(c->summary, "steady_state", &ss) ||
	    !json_object_is_type(ss, json_type_array) || !(n = json_object_array_length(ss)))
		return;
	section_heading(c, 2, "steady-state", "Steady state", true);
	section_para(c, "Each tracked series' measurement window (SNIA PTS 2.0.1 steady-state "
			"rule: max - min within the allowed data excursion, the least-squares line's "
			"rise over the window within the allowed slope excursion).");
	section_table_init(&t, "steady_state", "Steady state per tracked series", NSS, ss_head, true);
	section_table_objects(&t, ss);
	section_emit_table(c, &t);
	section_table_release(&t);
	guard_sentences(c, ss, n);
	early_section(c, ss, n);
	for (size_t i = 0; i < n; i++)
		window_plot(c, json_object_array_get_idx(ss, i), i);
}
