/* SPDX-License-Identifier: MIT */
/*
 * section_probes: the drive's temperature per phase (summary.json's thermal), write
 * amplification per phase (summary.json's wa: the deltas, WA, its interval
 * from the counters' resolution and, where WA is unknown, why; a table and a plot) and the counters before and after
 * the run (the first and last snapshot under DIR/snapshots/, their "counters" objects: {value, unit} each).
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "report/section.h"
#include "results/files.h"

/* WA per phase where it is known, with its interval's ends as points of their own (the interval
 * of exact counters is the WA itself). */
static void wa_plot(struct section_ctx *c, struct json_object *ph)
{
	size_t n = section_alen(ph), m = 0;
	double *x = calloc(n ? n : 1, sizeof(*x)), *w = calloc(n ? n : 1, sizeof(*w));
	double *lo = calloc(n ? n : 1, sizeof(*lo)), *hi = calloc(n ? n : 1, sizeof(*hi));
	struct svg_series se[3];
	struct svg_plot p = {0};

	if (!x || !w || !lo || !hi) {
		section_fail(c, -ENOMEM, "WA plot");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(ph, i), *iv = section_get(e, "interval");
		double v = jsonget_num(e, "wa");

		if (!isfinite(v))
			continue;
		x[m] = jsonget_num(e, "phase");
		w[m] = v;
		lo[m] = section_alen(iv) == 2 ? json_object_get_double(json_object_array_get_idx(iv, 0)) : NAN;
		hi[m] = section_alen(iv) == 2 && json_object_array_get_idx(iv, 1)
			    ? json_object_get_double(json_object_array_get_idx(iv, 1))
			    : NAN;
		m++;
	}
	if (!m)
		goto out;
	se[0] = (struct svg_series){"WA", x, w, m, SVG_POINTS};
	se[1] = (struct svg_series){"interval low", x, lo, m, SVG_POINTS};
	se[2] = (struct svg_series){"interval high", x, hi, m, SVG_POINTS};
	p.id = "wa-phases";
	p.title = "Write amplification per phase, with its interval";
	p.x = (struct svg_axis){"phase", "", false};
	p.y = (struct svg_axis){"write amplification", "NAND / host bytes", false};
	p.series = se;
	p.nseries = 3;
	section_emit_plot(c, &p);
out:
	free(x);
	free(w);
	free(lo);
	free(hi);
}

static void wa_table(struct section_ctx *c)
{
	static const char *const head[] = {"phase", "repeat", "from_label", "to_label",
					   "host_bytes_written", "nand_bytes_written", "wa",
					   "wa_lo", "wa_hi", "wa_reason"};
	struct json_object *ph = section_get(section_get(c->summary, "wa"), "phases");
	size_t n = ph && json_object_is_type(ph, json_type_array) ? json_object_array_length(ph) : 0;
	struct section_table t;

	if (!n)
		return;
	section_heading(c, 2, "wa", "Write amplification per phase", true);
	section_table_init(&t, "wa_phases", "Write amplification per phase (interval from the "
					    "counters' resolution)", 10, head, true);
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(ph, i), *iv = section_get(e, "interval");
		for (size_t j = 0; j < 7; j++)
			section_table_json(&t, e, head[j]);
		for (size_t j = 0; j < 2; j++) {
			struct json_object *v = iv && json_object_is_type(iv, json_type_array)
						    ? json_object_array_get_idx(iv, j)
						    : NULL;
			section_table_num(&t, v ? json_object_get_double(v) : NAN);
		}
		section_table_json(&t, e, "wa_reason");
	}
	section_emit_table(c, &t);
	section_table_release(&t);
	wa_plot(c, ph);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_json(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 5 && !strcmp(d->d_name + n - 5, ".json");
}

/* The counters of the run's first and last snapshot, side by side. */
static void counters(struct section_ctx *c)
{
	static const char *const head[] = {"counter", "unit", "before", "after"};
	struct dirent **ents = NULL;
	struct json_object *first = NULL, *last = NULL;
	struct section_table t;
	char *sdir = files_path_join(c->dir, "snapshots");
	int n = sdir ? scandir(sdir, &ents, is_json, by_name) : -1;

	if (n < 2)
		goto out;
	if (files_read_in_dir(sdir, ents[0]->d_name, &first) ||
	    files_read_in_dir(sdir, ents[n - 1]->d_name, &last))
		goto out;
	if (!section_get(first, "counters") || !json_object_is_type(section_get(first, "counters"), json_type_object))
		goto out;
	section_heading(c, 2, "counters", "Counters before and after", false);
	section_table_init(&t, "counters", "Device counters: first and last snapshot", 4, head, false);
	json_object_object_foreach(section_get(first, "counters"), k, v)
	{
		struct json_object *after = section_get(section_get(section_get(last, "counters"), k), "value");
		struct json_object *before = section_get(v, "value");

		if (!before || (!json_object_is_type(before, json_type_int) &&
				!json_object_is_type(before, json_type_double)))
			continue;
		section_table_str(&t, k);
		section_table_json(&t, v, "unit");
		section_table_num(&t, json_object_get_double(before));
		section_table_num(&t, after ? json_object_get_double(after) : NAN);
	}
	section_emit_table(c, &t);
	section_table_release(&t);
out:
	json_object_put(first);
	json_object_put(last);
	for (int i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	free(sdir);
}

/* The drive's temperature per phase and whether it throttled (summary.json's thermal). */
static void thermal(struct section_ctx *c)
{
	static const char *const head[] = {"phase", "repeat", "throttled", "evidence", "max_c",
					   "warning_c", "warning_source", "thermal_transitions",
					   "warning_temp_minutes"};
	struct json_object *ph = section_get(section_get(c->summary, "thermal"), "phases");
	struct section_table t;

	if (!section_alen(ph))
		return;
	section_heading(c, 2, "thermal", "Temperature and throttling", true);
	section_table_init(&t, "thermal", "Temperature per phase (Celsius) and throttling evidence",
			   9, head, true);
	section_table_objects(&t, ph);
	section_emit_table(c, &t);
	section_table_release(&t);
}

void section_probes(struct section_ctx *c)
{
	thermal(c);
	wa_table(c);
	counters(c);
}
