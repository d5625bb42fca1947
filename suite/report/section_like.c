/* SPDX-License-Identifier: MIT */
/*
 * section_like: for a run made with `run --like DIR` (manifest "like"), the run it repeats and
 * the headline figures of both side by side: what a reader of a repeat wants first is whether
 * the numbers came out the same. The other run's summary.json is read from the recorded
 * absolute path, else from the directory as it was given; when neither holds one any more the
 * section says so and shows this run's figures alone (the report is not refused).
 */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "report/section.h"
#include "results/files.h"

/* The headline's rows (the report's own headline table uses the same keys): wa_run, then per
 * entry of results[] its figures, keyed "CELL figure". */
static const char *const fig[] = {"iops", "bw_bps", "lat_mean_ns", "lat_p99_ns", "lat_max_ns"};

static void row(struct section_table *t, const char *key, struct json_object *a,
		struct json_object *b, const char *k)
{
	section_table_str(t, key);
	section_table_json(t, a, k);
	section_table_json(t, b, k);
}

static const char *entry_name(struct json_object *e)
{
	const char *cell = jsonget_str(e, "cell");

	if (cell && *cell)
		return cell;
	return jsonget_str(e, "workload") ? jsonget_str(e, "workload") : "-";
}

void section_like(struct section_ctx *c)
{
	static const char *const head[] = {"figure", "this run", "the run it repeats"};
	struct json_object *like = section_get(c->manifest, "like"), *other = NULL;
	struct json_object *ha, *hb, *ra, *rb;
	const char *path, *dir;
	struct section_table t;
	char text[2048], key[300];
	size_t n;

	if (!like)
		return;
	path = jsonget_str(like, "path");
	dir = jsonget_str(like, "dir");
	if (!(path && !files_read_in_dir(path, RESULTS_SUMMARY_FILE, &other)) &&
	    !(dir && !files_read_in_dir(dir, RESULTS_SUMMARY_FILE, &other)))
		other = NULL;
	section_heading(c, 2, "like", "Repeat of an earlier run", true);
	snprintf(text, sizeof(text), "This run repeats %s (profile %s, seed %s, on %s, started %s) "
		 "with its profile, seed, time scale and chunks (ssdlab run --like).%s",
		 dir ? dir : "?", jsonget_str(like, "profile") ? jsonget_str(like, "profile") : "?",
		 json_object_to_json_string_ext(section_get(like, "seed"), JSON_C_TO_STRING_PLAIN),
		 jsonget_str(like, "target") ? jsonget_str(like, "target") : "?",
		 jsonget_str(like, "started_utc") ? jsonget_str(like, "started_utc") : "?",
		 other ? "" : " Its summary.json is not there any more: only this run's figures "
			      "are shown.");
	section_para(c, text);
	html_printf(&c->md, "%s\n\n", text);

	ha = section_get(c->summary, "headline");
	hb = other ? section_get(other, "headline") : NULL;
	section_table_init(&t, "like", "Headline figures of both runs", 3, head, true);
	row(&t, "wa_run", ha, hb, "wa_run");
	ra = section_get(ha, "results");
	rb = section_get(hb, "results");
	n = section_alen(ra);
	for (size_t i = 0; i < n; i++) {
		struct json_object *ea = json_object_array_get_idx(ra, i);
		/* the same entry of the other run: same index, same cell or workload */
		struct json_object *eb = i < section_alen(rb) ? json_object_array_get_idx(rb, i) : NULL;

		if (eb && strcmp(entry_name(ea), entry_name(eb)))
			eb = NULL;
		for (size_t j = 0; j < sizeof(fig) / sizeof(fig[0]); j++) {
			snprintf(key, sizeof(key), "results[%zu] %s %s", i, entry_name(ea), fig[j]);
			row(&t, key, ea, eb, fig[j]);
		}
	}
	section_emit_table(c, &t);
	section_table_release(&t);
	json_object_put(other);
}
