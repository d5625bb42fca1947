/* SPDX-License-Identifier: MIT */
/*
 * section_cells: latency percentiles per cell (summary.json's cells, read and write apart) and
 * their exceedance plot: the share of I/Os slower than a latency (1 - CDF) against the latency,
 * both log, from the percentiles the cell has (p50 -> 0.5, p90 -> 0.1, ..., p99.999 -> 1e-5).
 * Those are the only points the summary keeps, so the curve is drawn through them, not through
 * the histogram. At most 8 series to a plot, as the convergence plots.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "report/section.h"

static const char *const pct_keys[] = {"p50", "p90", "p95", "p99", "p99_9", "p99_99", "p99_999"};
static const double pct_exceed[] = {0.5, 0.1, 0.05, 0.01, 1e-3, 1e-4, 1e-5};
#define NPCT (sizeof(pct_keys) / sizeof(pct_keys[0]))

static const char *const head[] = {"phase", "repeat", "kind", "cell", "direction", "ios",
				   "mean_ns", "min_ns", "p50_ns", "p90_ns", "p95_ns", "p99_ns",
				   "p99_9_ns", "p99_99_ns", "p99_999_ns", "max_ns"};
#define NHEAD (sizeof(head) / sizeof(head[0]))

enum { PER = 8 };

struct curve {
	char name[128];
	double x[NPCT], y[NPCT];
	size_t n;
};

static void flush(struct section_ctx *c, struct curve *cv, size_t n, size_t *plot)
{
	struct svg_series se[PER];
	struct svg_plot p = {0};
	char id[64];

	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		se[i] = (struct svg_series){cv[i].name, cv[i].x, cv[i].y, cv[i].n, SVG_LINE};
	snprintf(id, sizeof(id), "latency-exceedance-%zu", ++*plot);
	p.id = id;
	p.title = "Latency exceedance (1 - CDF) from the cell percentiles";
	p.x = (struct svg_axis){"latency", "ns", true};
	p.y = (struct svg_axis){"share of I/Os slower", "1 - CDF", true};
	p.series = se;
	p.nseries = n;
	section_emit_plot(c, &p);
}

void section_cells(struct section_ctx *c)
{
	static const char *const dirs[] = {"read", "write"};
	struct json_object *cells = section_get(c->summary, "cells");
	size_t n = cells && json_object_is_type(cells, json_type_array)
		       ? json_object_array_length(cells)
		       : 0;
	struct curve cv[PER];
	struct section_table t;
	size_t ncv = 0, plot = 0;

	if (!n)
		return;
	section_table_init(&t, "latency_percentiles", "Latency percentiles per cell (ns)", NHEAD,
			   head, false);
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(cells, i);
		for (size_t d = 0; d < 2; d++) {
			struct json_object *io = section_get(e, dirs[d]), *lat = section_get(io, "lat_ns");
			if (!lat || !json_object_is_type(lat, json_type_object))
				continue;
			section_table_json(&t, e, "phase");
			section_table_json(&t, e, "repeat");
			section_table_json(&t, e, "kind");
			section_table_json(&t, e, "cell");
			section_table_str(&t, dirs[d]);
			section_table_json(&t, io, "ios");
			for (size_t j = 6; j < NHEAD; j++) {
				char key[16];
				snprintf(key, sizeof(key), "%.*s", (int)(strlen(head[j]) - 3), head[j]);
				section_table_json(&t, lat, key);
			}
		}
	}
	if (!t.rows) {
		section_table_release(&t);
		return;
	}
	section_heading(c, 2, "latency", "Latency percentiles", false);
	section_emit_table(c, &t);
	section_table_release(&t);

	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(cells, i);
		const char *cell = jsonget_str(e, "cell");
		for (size_t d = 0; d < 2; d++) {
			struct json_object *lat = section_get(section_get(e, dirs[d]), "lat_ns");
			struct curve *k = &cv[ncv];
			if (!lat || !json_object_is_type(lat, json_type_object))
				continue;
			k->n = 0;
			for (size_t j = 0; j < NPCT; j++) {
				double v = jsonget_num(lat, pct_keys[j]);
				if (!isfinite(v))
					continue;
				k->x[k->n] = v;
				k->y[k->n++] = pct_exceed[j];
			}
			if (!k->n)
				continue;
			snprintf(k->name, sizeof(k->name), "phase %lld repeat %lld %s %s",
				 (long long)jsonget_num(e, "phase"), (long long)jsonget_num(e, "repeat"),
				 cell && cell[0] ? cell : "-", dirs[d]);
			if (++ncv == PER) {
				flush(c, cv, ncv, &plot);
				ncv = 0;
			}
		}
	}
	flush(c, cv, ncv, &plot);
}
