/* SPDX-License-Identifier: MIT */
/*
 * compare: runs side by side (compare.h). The figures taken from each summary.json, by group:
 *   headline      headline.wa_run; per headline.steady_state entry its average and WA
 *   results       per headline.results entry (its cell, or its workload) iops, bw_bps,
 *                 lat_mean_ns, lat_p99_ns, lat_max_ns: the steady-state figures per cell
 *   snia          the scalar numbers of each SNIA block (snia[]), but its header and the
 *                 per-round arrays, named "TEST path"; blocks of the same test match
 *   latency       per summary cell and direction: mean, p50 .. p99.999 and max latency
 * A figure is named without phase numbers, so that profiles laid out differently still match
 * on the cell. The plots: the results' IOPS per shared cell, and a latency exceedance plot per
 * shared cell and direction (the first MAX_LAT_PLOTS; the table has them all).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/errmsg.h"
#include "base/jsonget.h"
#include "base/jsonnum.h"
#include "report/cmpfast.h"
#include "report/cmpmatch.h"
#include "report/compare.h"
#include "report/report.h"
#include "report/section.h"
#include "results/files.h"
#include "results/records.h"

enum group { G_HEADLINE, G_RESULTS, G_SNIA, G_LATENCY, G_COUNT };

static const char *const group_id[G_COUNT] = {"headline", "results", "snia", "latency"};
static const char *const group_title[G_COUNT] = {
    "Headline: run WA and the steady-state averages",
    "Steady-state figures per cell (headline results)",
    "SNIA PTS blocks (scalar figures of the same test)",
    "Latency per cell and direction (ns)"};

static const char *const pct_keys[] = {"p50", "p90", "p95", "p99", "p99_9", "p99_99", "p99_999"};
static const double pct_exceed[] = {0.5, 0.1, 0.05, 0.01, 1e-3, 1e-4, 1e-5};
#define NPCT (sizeof(pct_keys) / sizeof(pct_keys[0]))

enum { MAX_LAT_PLOTS = 12 };

struct run {
	const char *dir;
	char label[32]; /* "run K" */
	struct json_object *manifest, *summary;
	struct section_kept plots; /* the report's plots of this run (report_curve_sections) */
	char **ckeys;              /* per data series of plots: "KEY | SERIES" (#K when repeated) */
	const struct section_kept_plot **cplot;
	const struct section_kept_series **cser;
	size_t nc;
	char **keys;
	double *v;
	enum group *g;
	size_t n, cap;
	int err;
};

static void fig(struct run *r, enum group g, double v, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void fig(struct run *r, enum group g, double v, const char *fmt, ...)
{
	va_list ap;
	char *k = NULL;

	if (r->err || !isfinite(v))
		return;
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 256;
		char **nk = realloc(r->keys, cap * sizeof(*nk));
		if (!nk)
			goto enomem;
		r->keys = nk;
		double *nv = realloc(r->v, cap * sizeof(*nv));
		if (!nv)
			goto enomem;
		r->v = nv;
		enum group *ng = realloc(r->g, cap * sizeof(*ng));
		if (!ng)
			goto enomem;
		r->g = ng;
		r->cap = cap;
	}
	va_start(ap, fmt);
	if (vasprintf(&k, fmt, ap) < 0)
		k = NULL;
	va_end(ap);
	if (!k)
		goto enomem;
	r->keys[r->n] = k;
	r->v[r->n] = v;
	r->g[r->n++] = g;
	return;
enomem:
	r->err = -ENOMEM;
}

static double num(struct json_object *o, const char *key)
{
	struct json_object *v = section_get(o, key);

	if (!v || !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		return NAN;
	return json_object_get_double(v);
}

static const char *cell_name(struct json_object *e, char *buf, size_t len)
{
	const char *cell = jsonget_str(e, "cell");
	double rep = num(e, "repeat");

	if (cell && cell[0])
		snprintf(buf, len, "%s", cell);
	else
		snprintf(buf, len, "%s", jsonget_str(e, "workload") ? jsonget_str(e, "workload")
			 : jsonget_str(e, "kind") ? jsonget_str(e, "kind") : "-");
	if (isfinite(rep) && rep > 0)
		snprintf(buf + strlen(buf), len - strlen(buf), " repeat %lld", (long long)rep);
	return buf;
}

/* The scalar numbers under o as "TEST path": objects by member, arrays of objects by index;
 * arrays of numbers (per-round values) are series, not figures. */
static void flatten(struct run *r, struct json_object *o, const char *path)
{
	char sub[512];

	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, k, v)
		{
			if (!v || !strcmp(k, "header"))
				continue;
			snprintf(sub, sizeof(sub), "%s.%s", path, k);
			flatten(r, v, sub);
		}
	} else if (json_object_is_type(o, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(o); i++) {
			struct json_object *e = json_object_array_get_idx(o, i);
			if (!json_object_is_type(e, json_type_object))
				return;
			snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
			flatten(r, e, sub);
		}
	} else if (json_object_is_type(o, json_type_int) || json_object_is_type(o, json_type_double)) {
		fig(r, G_SNIA, json_object_get_double(o), "%s", path);
	}
}

static void figures(struct run *r)
{
	static const char *const rk[] = {"iops", "bw_bps", "lat_mean_ns", "lat_p99_ns", "lat_max_ns"};
	static const char *const dirs[] = {"read", "write"};
	struct json_object *h = section_get(r->summary, "headline"), *a;
	char name[256];

	fig(r, G_HEADLINE, num(h, "wa_run"), "wa_run");
	a = section_get(h, "steady_state");
	for (size_t i = 0; i < section_alen(a); i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		const char *m = jsonget_str(e, "metric");
		cell_name(e, name, sizeof(name));
		fig(r, G_HEADLINE, num(e, "average"), "steady state %s %s average", name, m ? m : "-");
		fig(r, G_HEADLINE, num(e, "wa"), "steady state %s %s wa", name, m ? m : "-");
	}
	a = section_get(h, "results");
	for (size_t i = 0; i < section_alen(a); i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		cell_name(e, name, sizeof(name));
		for (size_t j = 0; j < sizeof(rk) / sizeof(rk[0]); j++)
			fig(r, G_RESULTS, num(e, rk[j]), "%s %s", name, rk[j]);
	}
	a = section_get(r->summary, "snia");
	for (size_t i = 0; i < section_alen(a); i++) {
		struct json_object *b = json_object_array_get_idx(a, i);
		const char *t = jsonget_str(b, "test");
		double rep = num(b, "repeat");
		snprintf(name, sizeof(name), "%s", t ? t : "-");
		if (isfinite(rep) && rep > 0)
			snprintf(name + strlen(name), sizeof(name) - strlen(name), "#%lld", (long long)rep);
		json_object_object_foreach(b, k, v)
		{
			char path[512];
			if (!v || !strcmp(k, "header") || !strcmp(k, "phase") || !strcmp(k, "repeat") ||
			    !strcmp(k, "test"))
				continue;
			snprintf(path, sizeof(path), "%s %s", name, k);
			flatten(r, v, path);
		}
	}
	a = section_get(r->summary, "cells");
	for (size_t i = 0; i < section_alen(a); i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		const char *kind = jsonget_str(e, "kind");
		if (jsonget_str(e, "cell") && jsonget_str(e, "cell")[0])
			cell_name(e, name, sizeof(name));
		else
			snprintf(name, sizeof(name), "%s", kind ? kind : "-");
		for (size_t d = 0; d < 2; d++) {
			struct json_object *lat = section_get(section_get(e, dirs[d]), "lat_ns");
			if (!lat || !json_object_is_type(lat, json_type_object))
				continue;
			fig(r, G_LATENCY, num(lat, "mean"), "%s %s mean", name, dirs[d]);
			for (size_t j = 0; j < NPCT; j++)
				fig(r, G_LATENCY, num(lat, pct_keys[j]), "%s %s %s", name, dirs[d],
				    pct_keys[j]);
			fig(r, G_LATENCY, num(lat, "max"), "%s %s max", name, dirs[d]);
		}
	}
}

static long lookup(const struct run *r, const char *key)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->keys[i], key))
			return (long)i;
	return -1;
}

struct cmp {
	struct run *runs;
	size_t n;
	struct cmpmatch_run *m;
	size_t *idx; /* shared rows x n */
	size_t rows;
	struct section_ctx c;
	struct html_buf *text;
	bool fast; /* run 1 is a full run, run 2 a fast one (--fast) */
};

/* One group's shared rows as a table (HTML, CSV) and as aligned text. */
static void group_table(struct cmp *k, enum group g)
{
	size_t ncols = 1 + k->n + (k->n - 1) + 1, nrows = 0, w0 = 6, wv = 8;
	const char **head = calloc(ncols, sizeof(*head));
	char **names = calloc(ncols, sizeof(*names)), id[64], num[40];
	struct section_table t;

	if (!head || !names) {
		section_fail(&k->c, -ENOMEM, "compare");
		goto out;
	}
	head[0] = "figure";
	for (size_t r = 0; r < k->n; r++) {
		if (asprintf(&names[1 + r], "%s", k->runs[r].label) < 0)
			names[1 + r] = NULL;
		if (r && asprintf(&names[k->n + r], "%s / run 1", k->runs[r].label) < 0)
			names[k->n + r] = NULL;
	}
	for (size_t j = 1; j + 1 < ncols; j++) {
		if (!names[j]) {
			section_fail(&k->c, -ENOMEM, "compare");
			goto out;
		}
		head[j] = names[j];
	}
	head[ncols - 1] = "beyond +-10 %";
	for (size_t i = 0; i < k->rows; i++) {
		size_t i0 = k->idx[i * k->n];
		if (k->runs[0].g[i0] != g)
			continue;
		nrows++;
		if (strlen(k->runs[0].keys[i0]) > w0)
			w0 = strlen(k->runs[0].keys[i0]);
		for (size_t r = 0; r < k->n; r++) {
			size_t l = strlen(jsonnum_fmt(k->runs[r].v[k->idx[i * k->n + r]], num, sizeof(num)));
			if (l > wv)
				wv = l;
		}
	}
	if (!nrows)
		goto out;
	snprintf(id, sizeof(id), "compare-%s", group_id[g]);
	section_heading(&k->c, 2, id, group_title[g], false);
	section_table_init(&t, id, group_title[g], ncols, head, false);
	html_printf(k->text, "\n%s\n%-*s", group_title[g], (int)w0, "figure");
	for (size_t r = 0; r < k->n; r++)
		html_printf(k->text, "  %*s", (int)wv, k->runs[r].label);
	for (size_t r = 1; r < k->n; r++)
		html_printf(k->text, "  %9s", r == 1 ? "ratio r2" : "ratio");
	html_puts(k->text, "\n");
	for (size_t i = 0; i < k->rows; i++) {
		const size_t *ix = &k->idx[i * k->n];
		double ref = k->runs[0].v[ix[0]];
		char beyond[256] = "";
		if (k->runs[0].g[ix[0]] != g)
			continue;
		section_table_str(&t, k->runs[0].keys[ix[0]]);
		html_printf(k->text, "%-*s", (int)w0, k->runs[0].keys[ix[0]]);
		for (size_t r = 0; r < k->n; r++) {
			section_table_num(&t, k->runs[r].v[ix[r]]);
			html_printf(k->text, "  %*s", (int)wv,
				    jsonnum_fmt(k->runs[r].v[ix[r]], num, sizeof(num)));
		}
		for (size_t r = 1; r < k->n; r++) {
			double ratio;
			int d = cmpmatch_diff(k->runs[r].v[ix[r]], ref, COMPARE_THRESHOLD, &ratio);
			section_table_num(&t, ratio);
			if (d < 0)
				html_printf(k->text, "  %9s", "-");
			else
				html_printf(k->text, "  %8.3f%c", ratio, d ? '*' : ' ');
			if (d > 0 && strlen(beyond) + 40 < sizeof(beyond))
				snprintf(beyond + strlen(beyond), sizeof(beyond) - strlen(beyond), "%s%s",
					 beyond[0] ? ", " : "", k->runs[r].label);
		}
		section_table_str(&t, beyond);
		html_puts(k->text, "\n");
	}
	section_emit_table(&k->c, &t);
	section_table_release(&t);
out:
	for (size_t j = 0; names && j < ncols; j++)
		free(names[j]);
	free(names);
	free(head);
}

/* The IOPS of the shared results rows, one series per run against the row's number. */
static void plot_iops(struct cmp *k)
{
	struct svg_series *se = calloc(k->n, sizeof(*se));
	double *x = calloc(k->rows + 1, sizeof(*x)), *y = calloc((k->rows + 1) * k->n, sizeof(*y));
	struct svg_plot p = {0};
	size_t m = 0;

	if (!se || !x || !y) {
		section_fail(&k->c, -ENOMEM, "compare");
		goto out;
	}
	for (size_t i = 0; i < k->rows; i++) {
		const size_t *ix = &k->idx[i * k->n];
		const char *key = k->runs[0].keys[ix[0]];
		size_t l = strlen(key);
		if (k->runs[0].g[ix[0]] != G_RESULTS || l < 5 || strcmp(key + l - 5, " iops"))
			continue;
		x[m] = (double)(m + 1);
		for (size_t r = 0; r < k->n; r++)
			y[r * k->rows + m] = k->runs[r].v[ix[r]];
		m++;
	}
	if (!m)
		goto out;
	for (size_t r = 0; r < k->n; r++)
		se[r] = (struct svg_series){k->runs[r].label, x, &y[r * k->rows], m, SVG_LINE};
	section_para(&k->c, "IOPS of each shared cell (the rows ending in \"iops\" of the table "
			    "above, numbered in its order), one series per run.");
	p.id = "compare-iops";
	p.title = "Steady-state IOPS per shared cell";
	p.x = (struct svg_axis){"shared cell (row of the table)", "", false};
	p.y = (struct svg_axis){"IOPS", "IO/s", true};
	p.series = se;
	p.nseries = k->n;
	section_emit_plot(&k->c, &p);
out:
	free(se);
	free(x);
	free(y);
}

/* An exceedance plot per shared "CELL DIR" whose percentiles all runs have. */
static void plot_latency(struct cmp *k)
{
	size_t plots = 0, skipped = 0;

	for (size_t i = 0; i < k->rows; i++) {
		const size_t *ix = &k->idx[i * k->n];
		const char *key = k->runs[0].keys[ix[0]];
		size_t l = strlen(key);
		char prefix[256], pk[300], id[64];
		struct svg_series *se;
		double *x, *y;
		struct svg_plot p = {0};
		size_t npt = 0;

		if (k->runs[0].g[ix[0]] != G_LATENCY || l < 4 || strcmp(key + l - 4, " p50"))
			continue;
		if (plots == MAX_LAT_PLOTS) {
			skipped++;
			continue;
		}
		snprintf(prefix, sizeof(prefix), "%.*s", (int)(l - 4), key);
		se = calloc(k->n, sizeof(*se));
		x = calloc(NPCT * k->n, sizeof(*x));
		y = calloc(NPCT * k->n, sizeof(*y));
		if (!se || !x || !y) {
			section_fail(&k->c, -ENOMEM, "compare");
			free(se);
			free(x);
			free(y);
			return;
		}
		for (size_t j = 0; j < NPCT; j++) {
			snprintf(pk, sizeof(pk), "%s %s", prefix, pct_keys[j]);
			if (!cmpmatch_in_all(k->m, k->n, pk))
				continue;
			for (size_t r = 0; r < k->n; r++) {
				x[r * NPCT + npt] = k->runs[r].v[lookup(&k->runs[r], pk)];
				y[r * NPCT + npt] = pct_exceed[j];
			}
			npt++;
		}
		for (size_t r = 0; r < k->n; r++)
			se[r] = (struct svg_series){k->runs[r].label, &x[r * NPCT], &y[r * NPCT], npt,
						    SVG_LINE};
		snprintf(id, sizeof(id), "compare-latency-%zu", ++plots);
		snprintf(pk, sizeof(pk), "Latency exceedance: %s", prefix);
		p.id = id;
		p.title = pk;
		p.x = (struct svg_axis){"latency", "ns", true};
		p.y = (struct svg_axis){"share of I/Os slower", "1 - CDF", true};
		p.series = se;
		p.nseries = k->n;
		section_emit_plot(&k->c, &p);
		free(se);
		free(x);
		free(y);
	}
	if (skipped) {
		char msg[160];
		snprintf(msg, sizeof(msg), "%zu more shared cells and directions are in the table, "
					   "without a plot (at most %d plots).", skipped, MAX_LAT_PLOTS);
		section_para(&k->c, msg);
	}
}

static void runs_table(struct cmp *k)
{
	static const char *const head[] = {"run", "directory", "profile", "target", "model",
					   "analyzer", "figures", "shared", "not shared"};
	struct section_table t;

	section_heading(&k->c, 2, "compare-runs", "Runs", false);
	section_table_init(&t, "compare-runs", "The runs compared (run 1 is the reference)", 9, head,
			   false);
	html_puts(k->text, "runs (ratios are to run 1; * marks a ratio outside [0.9, 1.1]):\n");
	for (size_t r = 0; r < k->n; r++) {
		struct run *u = &k->runs[r];
		struct json_object *tg = section_get(u->manifest, "target");
		size_t first = 0;
		for (size_t i = 0; i < u->n; i++)
			first += cmpmatch_first(&k->m[r], i);
		section_table_str(&t, u->label);
		section_table_str(&t, u->dir);
		section_table_json(&t, section_get(u->manifest, "profile"), "name");
		section_table_json(&t, tg, "path");
		section_table_json(&t, tg, "model");
		section_table_json(&t, u->summary, "analyzer");
		section_table_num(&t, (double)first);
		section_table_num(&t, (double)k->rows);
		section_table_num(&t, (double)(first - k->rows));
		html_printf(k->text, "  %s: %s (profile %s, target %s): %zu figures, %zu not shared\n",
			    u->label, u->dir,
			    jsonget_str(section_get(u->manifest, "profile"), "name")
				? jsonget_str(section_get(u->manifest, "profile"), "name") : "-",
			    jsonget_str(tg, "path") ? jsonget_str(tg, "path") : "-", first,
			    first - k->rows);
	}
	section_emit_table(&k->c, &t);
	section_table_release(&t);
}

/* The data series (not the dashed fits and limits) of run u's kept plots, each named by what it
 * shows: the plot's key and the series' name; a name repeated in the run (a repeated block) gets
 * " #K" so that the K-th of each run meet. */
static int curve_index(struct run *u)
{
	size_t cap = 0;

	for (size_t i = 0; i < u->plots.n; i++)
		cap += u->plots.p[i].nse;
	u->ckeys = calloc(cap ? cap : 1, sizeof(*u->ckeys));
	u->cplot = calloc(cap ? cap : 1, sizeof(*u->cplot));
	u->cser = calloc(cap ? cap : 1, sizeof(*u->cser));
	if (!u->ckeys || !u->cplot || !u->cser)
		return -ENOMEM;
	for (size_t i = 0; i < u->plots.n; i++) {
		const struct section_kept_plot *p = &u->plots.p[i];
		for (size_t s = 0; s < p->nse; s++) {
			const struct section_kept_series *se = &p->se[s];
			size_t dup = 0;
			char *k;
			if (se->style == SVG_DASHED || !se->n)
				continue;
			if (asprintf(&k, "%s | %s", p->key, se->name) < 0)
				return -ENOMEM;
			for (size_t j = 0; j < u->nc; j++)
				dup += !strncmp(u->ckeys[j], k, strlen(k)) &&
				       (!u->ckeys[j][strlen(k)] || !strncmp(u->ckeys[j] + strlen(k), " #", 2));
			if (dup) {
				char *k2;
				int w = asprintf(&k2, "%s #%zu", k, dup + 1);
				free(k);
				if (w < 0)
					return -ENOMEM;
				k = k2;
			}
			u->ckeys[u->nc] = k;
			u->cplot[u->nc] = p;
			u->cser[u->nc++] = se;
		}
	}
	return 0;
}

static long curve_find(const struct run *u, const char *key)
{
	for (size_t i = 0; i < u->nc; i++)
		if (!strcmp(u->ckeys[i], key))
			return (long)i;
	return -1;
}

/* How many data series plot p has: a plot of one draws as its key, of several as "KEY: SERIES". */
static size_t data_series(const struct section_kept_plot *p)
{
	size_t m = 0;

	for (size_t s = 0; s < p->nse; s++)
		m += p->se[s].style != SVG_DASHED && p->se[s].n;
	return m;
}

/*
 * Every curve the report draws that two or more runs have: one plot with one series per run
 * (named by the run's label), the report's axes and units; the runs without it named under the
 * plot. Curves only one run has are listed in a table. The order: run 1's curves, then those
 * first met in run 2, ...
 */
static void overlay_curves(struct cmp *k)
{
	static const char *const head[] = {"run", "curve"};
	struct svg_series *se = calloc(k->n, sizeof(*se));
	long *at = calloc(k->n, sizeof(*at));
	struct section_table t;
	size_t plots = 0;

	section_table_init(&t, "compare-curves-unshared", "Curves only one run has (not overlaid)",
			   2, head, false);
	if (!se || !at) {
		section_fail(&k->c, -ENOMEM, "compare");
		goto out;
	}
	section_heading(&k->c, 2, "compare-curves", "Curves overlaid", false);
	section_para(&k->c, "Every curve of the report that two or more runs have, one plot each "
			    "with one series per run, on the report's axes (bytes written in "
			    "capacity multiples, surface position in % of capacity, rounds, time "
			    "in profile time); a run without the curve is named under its plot.");
	html_puts(k->text, "\ncurves overlaid (one plot each, a series per run):\n");
	for (size_t r0 = 0; r0 < k->n; r0++) {
		for (size_t i = 0; i < k->runs[r0].nc; i++) {
			const char *key = k->runs[r0].ckeys[i];
			const struct section_kept_plot *pl = k->runs[r0].cplot[i];
			const struct section_kept_series *s0 = k->runs[r0].cser[i];
			size_t have = 0, m = 0, shown = 0;
			bool seen = false;
			const char *rep;
			char title[512], id[48], missing[256] = "";
			struct svg_plot p = {0};

			for (size_t r = 0; r < r0 && !seen; r++)
				seen = curve_find(&k->runs[r], key) >= 0;
			if (seen)
				continue;
			for (size_t r = 0; r < k->n; r++) {
				at[r] = curve_find(&k->runs[r], key);
				have += at[r] >= 0;
			}
			/* the key's " #K" of a repeated curve kept in the title */
			rep = key + strlen(pl->key) + 3 + strlen(s0->name);
			if (data_series(pl) > 1)
				snprintf(title, sizeof(title), "%s: %s%s", pl->key, s0->name, rep);
			else
				snprintf(title, sizeof(title), "%s%s", pl->key, rep);
			if (have < 2) {
				section_table_str(&t, k->runs[r0].label);
				section_table_str(&t, title);
				html_printf(k->text, "  only in %s: %s\n", k->runs[r0].label, title);
				continue;
			}
			for (size_t r = 0; r < k->n; r++) {
				const struct section_kept_series *s;
				if (at[r] < 0) {
					snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing),
						 "%s%s", missing[0] ? ", " : "", k->runs[r].label);
					continue;
				}
				s = k->runs[r].cser[at[r]];
				se[m++] = (struct svg_series){k->runs[r].label, s->x, s->y, s->n,
							      s->style == SVG_BARS ? SVG_LINE : s->style};
			}
			snprintf(id, sizeof(id), "compare-curve-%zu", ++plots);
			p.id = id;
			p.title = title;
			p.x = (struct svg_axis){pl->xlabel, pl->xunit, pl->xlog};
			p.y = (struct svg_axis){pl->ylabel, pl->yunit, pl->ylog};
			p.series = se;
			p.nseries = m;
			section_emit_plot(&k->c, &p);
			html_printf(k->text, "  %s:", title);
			for (size_t r = 0; r < k->n; r++)
				if (at[r] >= 0)
					html_printf(k->text, "%s %s (%zu points)", shown++ ? "," : "",
						    k->runs[r].label, k->runs[r].cser[at[r]]->n);
			if (missing[0]) {
				char msg[300];
				snprintf(msg, sizeof(msg), "not in: %s", missing);
				html_printf(k->text, "; %s", msg);
				html_printf(&k->c.html, "<p class=\"not-in\" data-plot=\"%s\">", id);
				html_esc(&k->c.html, msg);
				html_puts(&k->c.html, "</p>\n");
			}
			html_puts(k->text, "\n");
		}
	}
	if (!plots) {
		html_puts(k->text, "  none: no curve is in two runs\n");
		section_para(&k->c, "No curve is in two or more runs.");
	}
	if (t.rows)
		section_emit_table(&k->c, &t);
out:
	section_table_release(&t);
	free(se);
	free(at);
}

/* What each run has that not all share: a table, and a count (and the first few) in the text. */
static void unshared(struct cmp *k)
{
	static const char *const head[] = {"run", "group", "figure", "value"};
	struct section_table t;

	section_table_init(&t, "compare-unshared", "Figures not shared by every run (not compared)",
			   4, head, false);
	for (size_t r = 0; r < k->n; r++) {
		struct run *u = &k->runs[r];
		size_t shown = 0;
		for (size_t i = 0; i < u->n; i++) {
			if (!cmpmatch_first(&k->m[r], i) || cmpmatch_in_all(k->m, k->n, u->keys[i]))
				continue;
			section_table_str(&t, u->label);
			section_table_str(&t, group_id[u->g[i]]);
			section_table_str(&t, u->keys[i]);
			section_table_num(&t, u->v[i]);
			if (!shown)
				html_printf(k->text, "\nnot shared by every run, %s:\n", u->label);
			if (shown++ < 10)
				html_printf(k->text, "  %s\n", u->keys[i]);
		}
		if (shown > 10)
			html_printf(k->text, "  ... and %zu more (all in the page's table)\n", shown - 10);
	}
	if (!t.rows) {
		html_puts(k->text, "\nevery figure is shared by every run\n");
		section_para(&k->c, "Every figure is shared by every run.");
	} else {
		section_heading(&k->c, 2, "compare-unshared", "Not shared", false);
		section_emit_table(&k->c, &t);
	}
	section_table_release(&t);
}

/* Whether shared figure key of group g is a steady-state figure the fast comparison holds to
 * its 5 % goal: the headline (run WA, steady-state averages and WA), every cell's figures and
 * latency, and the SNIA blocks' measured values (not their round numbers and settings). */
static bool fast_figure(const char *key, enum group g)
{
	static const char *const last[] = {"iops", "mb_s", "average", "ns", "mean_ns", "max_ns",
					   "wa", "bw_bps"};
	const char *dot = strrchr(key, '.');

	if (g != G_SNIA)
		return true;
	if (!dot)
		return false;
	for (size_t i = 0; i < sizeof(last) / sizeof(last[0]); i++)
		if (!strcmp(dot + 1, last[i]))
			return true;
	return false;
}

/* A row of the fast table: the cells as strings (numbers through jsonnum), and the text line. */
static void fast_row(struct cmp *k, struct section_table *t, const char *what, const char *full,
		     const char *fast, double ratio, const char *goal, const char *verdict)
{
	char num[40];

	section_table_str(t, what);
	section_table_str(t, full);
	section_table_str(t, fast);
	section_table_num(t, ratio);
	section_table_str(t, goal);
	section_table_str(t, verdict);
	if (isfinite(ratio))
		snprintf(num, sizeof(num), "%.4f", ratio);
	html_printf(k->text, "  %-46s %22s %22s %10s %-9s %s\n", what, full, fast,
		    isfinite(ratio) ? num : "-", goal, verdict);
}

static const char *early_text(const struct cmpfast_verdict *v, char *buf, size_t len)
{
	char conf[40] = "-";

	if (!v->found)
		return "no steady-state result";
	if (!v->early_present)
		return "absent (no early key)";
	if (isfinite(v->early_confidence))
		jsonnum_fmt(v->early_confidence, conf, sizeof(conf));
	/* "off" (no early rule in the profile) and "not predicted" name no round. */
	if (v->early_round < 0)
		snprintf(buf, len, "%s", v->early);
	else
		snprintf(buf, len, "%s, round %lld, conf. %s%s", v->early, v->early_round, conf,
			 v->stopped_run == 1 ? ", stopped the run" : "");
	return buf;
}

/*
 * `--fast`: run 2 (fast) against run 1 (full) on issue 19's goals: the drive time and host
 * bytes to the verdict (cmpfast.h) as fast/full ratios against CMPFAST_TIME_GOAL, the
 * verdicts of both, and every shared steady-state figure's difference against
 * CMPFAST_FIGURE_GOAL, each marked pass or fail. A table (report/compare-fast.csv) and text.
 */
static void fast_section(struct cmp *k)
{
	static const char *const head[] = {"figure", "full", "fast", "fast/full or difference",
					   "goal", "verdict"};
	struct results_records rr[2] = {{0}};
	struct cmpfast_verdict v[2];
	struct section_table t;
	char a[256], b[256], num[40], num2[40], goal[32];
	size_t pass = 0, fail = 0, in_range = 0, unsteady = 0;
	int rc;

	section_table_init(&t, "compare-fast", "Fast against full (issue 19 goals)", 6, head, false);
	for (size_t r = 0; r < 2; r++) {
		rc = results_read_records(k->runs[r].dir, &rr[r]);
		if (rc) {
			char what[300];
			snprintf(what, sizeof(what), "%s/records.jsonl", k->runs[r].dir);
			section_fail(&k->c, rc, what);
			goto out;
		}
		cmpfast_verdict(cmpfast_ss_result(k->runs[r].summary), &rr[r], &v[r]);
	}
	section_heading(&k->c, 2, "compare-fast", "Fast against full", false);
	section_para(&k->c, "Run 1 is the full run, run 2 the fast one. Drive time to the verdict: "
			    "the target time (elapsed_ns) of the records up to the verdict's round "
			    "(the early verdict's when it predicts steady state, else the SNIA "
			    "window's last round); host bytes likewise. Drive time to the figures: "
			    "the whole run, every record (a *-fast run measures its figures in "
			    "matrix rounds after its tracking phase's verdict). Goals (issue 19): "
			    "the whole run at most 0.5 of the full run's, and every steady-state "
			    "figure within 5 %.");
	html_printf(k->text, "\nfast against full (run 1 full: %s, run 2 fast: %s; goals: drive "
			     "time and bytes to the figures, the whole run, <= 0.5 of full, every "
			     "steady-state figure within 5 %%):\n",
		    k->runs[0].dir, k->runs[1].dir);
	html_printf(k->text, "  %-46s %22s %22s %10s %-9s %s\n", "figure", "full", "fast",
		    "ratio/diff", "goal", "verdict");
	cmpfast_precondition(k->runs[0].manifest, &rr[0], a, sizeof(a));
	cmpfast_precondition(k->runs[1].manifest, &rr[1], b, sizeof(b));
	fast_row(k, &t, "precondition method", a, b, NAN, "", "");
	/* a fill run where ssdlab refuses it: the goals are not expected to hold there */
	{
		const char *why0 = cmpfast_forced(k->runs[0].summary);
		const char *why1 = cmpfast_forced(k->runs[1].summary);

		if (why0 || why1)
			fast_row(k, &t, "fill forced past its refusal", why0 ? "yes" : "no",
				 why1 ? "yes" : "no", NAN, "", why1 ? why1 : why0);
	}
	for (size_t r = 0; r < 2; r++) {
		char *d = r ? b : a;
		if (v[r].found)
			snprintf(d, sizeof(a), "%s (%s %s)", v[r].snia, v[r].cell, v[r].metric);
		else
			snprintf(d, sizeof(a), "no steady-state result");
	}
	fast_row(k, &t, "SNIA steady-state verdict", a, b, NAN, "", "");
	{
		char ea[160], eb[160];
		fast_row(k, &t, "early verdict", early_text(&v[0], ea, sizeof(ea)),
			 early_text(&v[1], eb, sizeof(eb)), NAN, "",
			 v[1].early_present ? "" : "the fast run has no early verdict");
	}
	if (!v[0].found || !v[1].found) {
		fast_row(k, &t, "drive time to the verdict", "-", "-", NAN, "<= 0.5",
			 "not comparable: a run has no steady-state result");
	} else {
		snprintf(a, sizeof(a), "round %lld (%s)", v[0].round, v[0].round_from);
		snprintf(b, sizeof(b), "round %lld (%s)", v[1].round, v[1].round_from);
		fast_row(k, &t, "verdict round", a, b, NAN, "", "");
		for (int which = 0; which < 4; which++) {
			/* drive time in s, then host bytes, to the verdict (as stated) and to the
			 * figures (the whole run: judged against the goal) */
			static const char *const names[] = {
			    "drive time to the verdict (s, target time)",
			    "host bytes written to the verdict",
			    "drive time to the figures (s, whole run)",
			    "host bytes written to the figures (whole run)"};
			bool whole = which >= 2, bytes = which & 1;
			double scale = bytes ? 1 : 1e9;
			uint64_t f0 = whole ? (bytes ? v[0].run_host_bytes : v[0].run_drive_ns)
					    : (bytes ? v[0].host_bytes : v[0].drive_ns);
			uint64_t f1 = whole ? (bytes ? v[1].run_host_bytes : v[1].run_drive_ns)
					    : (bytes ? v[1].host_bytes : v[1].drive_ns);
			double full = (double)f0 / scale, fast = (double)f1 / scale;
			double ratio = full > 0 ? fast / full : NAN;
			const char *verdict = !whole || !isfinite(ratio)	  ? "-"
					      : ratio <= CMPFAST_TIME_GOAL ? "pass"
									   : "fail";

			fast_row(k, &t, names[which], jsonnum_fmt(full, num, sizeof(num)),
				 jsonnum_fmt(fast, num2, sizeof(num2)), ratio, whole ? "<= 0.5" : "",
				 verdict);
			pass += whole && isfinite(ratio) && ratio <= CMPFAST_TIME_GOAL;
			fail += whole && isfinite(ratio) && ratio > CMPFAST_TIME_GOAL;
		}
	}
	snprintf(goal, sizeof(goal), "+-%g %%", CMPFAST_FIGURE_GOAL * 100);
	for (size_t i = 0; i < k->rows; i++) {
		const size_t *ix = &k->idx[i * k->n];
		const char *key = k->runs[0].keys[ix[0]];
		double full = k->runs[0].v[ix[0]], fast = k->runs[1].v[ix[1]];
		double d = cmpfast_diff(fast, full);
		bool ok = isfinite(d) && fabs(d) <= CMPFAST_FIGURE_GOAL;
		if (!fast_figure(key, k->runs[0].g[ix[0]]))
			continue;
		char verdict[160];
		double lo, hi;

		if (!isfinite(d) && full == fast)
			ok = true, d = 0; /* two zeros: no difference */
		snprintf(verdict, sizeof(verdict), "%s", !isfinite(d) ? "-" : ok ? "pass" : "fail");
		/* over the goal: within the full run's own round-to-round range (widened by the
		 * goal), or not; the full procedure's spread, said beside the verdict */
		if (isfinite(d) && !ok && cmpfast_round_range(k->runs[0].summary, key, &lo, &hi)) {
			bool in = fast >= lo * (1 - CMPFAST_FIGURE_GOAL) &&
				  fast <= hi * (1 + CMPFAST_FIGURE_GOAL);

			snprintf(verdict, sizeof(verdict), "fail; %s the full run's rounds %.1f..%.1f",
				 in ? "within" : "outside", lo, hi);
			in_range += in;
		}
		/* the fast run's own check of this cell over its matrix rounds failed: its figure
		 * is one round's (analysis/pass_snia_fast.c) */
		if (isfinite(d) && cmpfast_fast_unsteady(k->runs[1].summary, k->runs[1].keys[ix[1]])) {
			size_t at = strlen(verdict);

			snprintf(verdict + at, sizeof(verdict) - at,
				 "; not steady over the fast run's matrix rounds");
			unsteady++;
		}
		fast_row(k, &t, key, jsonnum_fmt(full, num, sizeof(num)),
			 jsonnum_fmt(fast, num2, sizeof(num2)), isfinite(d) ? d * 100 : NAN, goal,
			 verdict);
		pass += isfinite(d) && ok;
		fail += isfinite(d) && !ok;
	}
	html_printf(k->text, "  %zu pass, %zu fail, of which %zu within the full run's own round "
			     "range +-5 %%; %zu not steady over the fast run's matrix rounds (ratios "
			     "are fast/full; differences in %% of the full run's figure)\n",
		    pass, fail, in_range, unsteady);
	{
		char msg[420];
		snprintf(msg, sizeof(msg), "%zu pass, %zu fail, of which %zu within the full run's "
					   "own round-to-round range of the cell widened by 5 %% (the "
					   "full procedure's spread); %zu cells not steady over the fast "
					   "run's own matrix rounds (their figures are one round's). "
					   "Ratios are fast/full; figure differences are in %% of the "
					   "full run's figure.", pass, fail, in_range, unsteady);
		section_para(&k->c, msg);
	}
	section_emit_table(&k->c, &t);
out:
	section_table_release(&t);
	results_records_release(&rr[0]);
	results_records_release(&rr[1]);
}

/* The directory of path out ("." for a bare name), a new string. */
static char *dir_of(const char *out)
{
	const char *s = strrchr(out, '/');

	if (!s)
		return strdup(".");
	if (s == out)
		return strdup("/");
	return strndup(out, (size_t)(s - out));
}

int compare_write(const char *const *dirs, size_t n, const char *out, bool fast,
		  struct html_buf *text, char *err, size_t errlen)
{
	struct cmp k = {.n = n, .text = text, .fast = fast};
	struct html_buf page;
	char *odir = NULL;
	long rows;
	int rc = 0;

	html_init(&page);
	html_init(&k.c.html);
	html_init(&k.c.md);
	k.c.err = err;
	k.c.errlen = errlen;
	k.runs = calloc(n, sizeof(*k.runs));
	k.m = calloc(n, sizeof(*k.m));
	odir = dir_of(out);
	if (fast && n != 2) {
		rc = errmsg_set(err, errlen, -EINVAL, "--fast compares two runs, FULL and FAST");
		goto out;
	}
	if (!n || !k.runs || !k.m || !odir) {
		rc = errmsg_set(err, errlen, n ? -ENOMEM : -EINVAL, n ? "out of memory" : "no run");
		goto out;
	}
	k.c.dir = odir;
	for (size_t r = 0; r < n; r++) {
		struct run *u = &k.runs[r];
		u->dir = dirs[r];
		snprintf(u->label, sizeof(u->label), "run %zu", r + 1);
		rc = files_read_in_dir(u->dir, RESULTS_MANIFEST_FILE, &u->manifest);
		if (!rc)
			rc = files_read_in_dir(u->dir, RESULTS_SUMMARY_FILE, &u->summary);
		if (rc) {
			errmsg_set(err, errlen, rc, "%s: manifest.json or summary.json: %s (run `ssdlab "
						    "analyze %s` first)", u->dir, strerror(-rc), u->dir);
			goto out;
		}
		if (!json_object_is_type(u->manifest, json_type_object) ||
		    !json_object_is_type(u->summary, json_type_object)) {
			rc = errmsg_set(err, errlen, -EINVAL, "%s: manifest.json or summary.json is not "
							      "a JSON object", u->dir);
			goto out;
		}
		k.c.simulated |= jsonget_str(section_get(u->manifest, "target"), "kind") &&
				 !strcmp(jsonget_str(section_get(u->manifest, "target"), "kind"), "sim");
		figures(u);
		if (u->err) {
			rc = errmsg_set(err, errlen, u->err, "out of memory");
			goto out;
		}
		k.m[r] = (struct cmpmatch_run){(const char *const *)u->keys, u->n};
		/* the report's own curve code, keeping its plots instead of writing them */
		{
			struct section_ctx rc_ = {.dir = u->dir, .manifest = u->manifest,
						  .summary = u->summary, .keep = &u->plots,
						  .err = err, .errlen = errlen};
			html_init(&rc_.html);
			html_init(&rc_.md);
			report_curve_sections(&rc_);
			html_release(&rc_.html);
			html_release(&rc_.md);
			rc = rc_.rc ? rc_.rc : curve_index(u);
			if (rc) {
				if (!rc_.rc)
					errmsg_set(err, errlen, rc, "out of memory");
				goto out;
			}
		}
	}
	rows = cmpmatch_shared(k.m, n, &k.idx);
	if (rows < 0) {
		rc = errmsg_set(err, errlen, (int)rows, "out of memory");
		goto out;
	}
	k.rows = (size_t)rows;

	html_puts(&k.c.html, "<h1>ssdlab compare</h1>\n");
	section_para(&k.c, "Runs side by side on the figures they share (same names in their "
			   "summary.json); each ratio is to run 1's figure, and the last column of a "
			   "table names the runs whose ratio is outside [0.9, 1.1] (10 %). Every plot has "
			   "one series per run.");
	runs_table(&k);
	if (k.fast)
		fast_section(&k);
	for (enum group g = 0; g < G_COUNT; g++) {
		group_table(&k, g);
		if (g == G_RESULTS)
			plot_iops(&k);
		if (g == G_LATENCY)
			plot_latency(&k);
	}
	overlay_curves(&k);
	unshared(&k);
	if (k.c.rc) {
		rc = k.c.rc;
		goto out;
	}
	report_page(&page, "ssdlab compare", k.c.html.p, "ssdlab compare",
		    " from each run's summary.json and manifest.json; every table and plot has its "
		    "CSV under report/ beside this page.");
	if (page.err || text->err) {
		rc = errmsg_set(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	rc = files_atomic_write(out, page.p, page.len);
	if (rc)
		errmsg_set(err, errlen, rc, "writing %s: %s", out, strerror(-rc));
out:
	for (size_t r = 0; k.runs && r < n; r++) {
		for (size_t i = 0; i < k.runs[r].n; i++)
			free(k.runs[r].keys[i]);
		free(k.runs[r].keys);
		free(k.runs[r].v);
		free(k.runs[r].g);
		for (size_t i = 0; i < k.runs[r].nc; i++)
			free(k.runs[r].ckeys[i]);
		free(k.runs[r].ckeys);
		free(k.runs[r].cplot);
		free(k.runs[r].cser);
		section_kept_release(&k.runs[r].plots);
		json_object_put(k.runs[r].manifest);
		json_object_put(k.runs[r].summary);
	}
	free(k.runs);
	free(k.m);
	free(k.idx);
	free(odir);
	html_release(&page);
	html_release(&k.c.html);
	html_release(&k.c.md);
	return rc;
}
