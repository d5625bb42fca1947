/* SPDX-License-Identifier: MIT */
/*
 * section_header: the report's head. The title ("SNIA PTS-style") with the deviations from the
 * spec this run has (a discard purge, a time scale, no reference test platform, the virtual
 * SSD); the test platform (the manifest's host state), the device (the manifest's target, its
 * drive identity and link, wear before and after from summary.json's endurance, the purge
 * method), the setup and test parameters, and the flags of summary.json. Objects are shown as
 * flattened key/value tables, so that a key a later issue adds to the manifest shows up without
 * a change here.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "report/section.h"
#include "results/records.h"

static const char *const kv_head[] = {"key", "value"};

/* Rows "prefix.key" -> value for every scalar under o; an array of scalars or objects as its
 * compact JSON text (a long list stays one cell: a table row per element would drown the head). */
static void kv_rows(struct section_table *t, const char *prefix, struct json_object *o,
		    const char *const *skip)
{
	char key[256];

	if (!o)
		return;
	if (!json_object_is_type(o, json_type_object)) {
		section_table_str(t, prefix);
		if (json_object_is_type(o, json_type_array))
			section_table_str(t, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		else if (json_object_is_type(o, json_type_int) || json_object_is_type(o, json_type_double))
			section_table_num(t, json_object_get_double(o));
		else
			section_table_str(t, json_object_get_string(o));
		return;
	}
	json_object_object_foreach(o, k, v)
	{
		bool skipped = false;

		for (size_t i = 0; skip && skip[i]; i++)
			skipped |= !strcmp(skip[i], k);
		if (skipped)
			continue;
		snprintf(key, sizeof(key), "%s%s%s", prefix, prefix[0] ? "." : "", k);
		if (!v) {
			section_table_str(t, key);
			section_table_str(t, "null");
			continue;
		}
		kv_rows(t, key, v, NULL);
	}
}

/* The purge methods of the run: from the first SNIA block's header, else "not in the summary". */
static const char *purge_method(struct section_ctx *c, char *buf, size_t len)
{
	struct json_object *snia = section_get(c->summary, "snia"), *purge;

	if (!section_alen(snia))
		return NULL;
	purge = section_get(section_get(json_object_array_get_idx(snia, 0), "header"), "purge");
	if (!purge)
		return NULL;
	if (json_object_is_type(purge, json_type_string))
		snprintf(buf, len, "%s", json_object_get_string(purge));
	else
	{
		struct json_object *pp = section_get(purge, "pts_purge");
		snprintf(buf, len, "%s (pts_purge: %s)",
			 jsonget_str(purge, "method") ? jsonget_str(purge, "method") : "not recorded",
			 pp ? json_object_get_string(pp) : "null");
	}
	return buf;
}

static void deviations(struct section_ctx *c)
{
	struct json_object *flags = section_get(c->summary, "flags"), *ts = section_get(c->manifest, "time_scale");
	double eff = ts && json_object_is_type(ts, json_type_object) ? jsonget_num(ts, "effective")
		     : ts ? json_object_get_double(ts) : NAN;
	char buf[256];

	html_puts(&c->html, "<section id=\"deviations\"><h2>Deviations from the SNIA PTS</h2><ul>\n");
	html_puts(&c->md, "## Deviations from the SNIA PTS\n\n");
#define DEV(text)                                                                                  \
	do {                                                                                       \
		html_puts(&c->html, "<li>");                                                       \
		html_esc(&c->html, text);                                                          \
		html_puts(&c->html, "</li>\n");                                                    \
		html_puts(&c->md, "- ");                                                           \
		html_puts(&c->md, text);                                                           \
		html_puts(&c->md, "\n");                                                           \
	} while (0)
	DEV("No reference test platform: the host is the one described below, not the PTS RTP.");
	if (section_alen(section_get(flags, "purge_not_pts")))
		DEV("Purge by discard (TRIM/deallocate), not a PTS purge (flags.purge_not_pts).");
	if (isfinite(eff) && eff != 1) {
		snprintf(buf, sizeof(buf), "Time scale %g: durations are the profile's times x %g "
					   "(manifest.time_scale).", eff, eff);
		DEV(buf);
	}
	if (c->simulated)
		DEV("Virtual SSD: every figure and plot is simulated (the FTL simulator), not a drive.");
#undef DEV
	html_puts(&c->html, "</ul></section>\n");
	html_puts(&c->md, "\n");
}

void section_header(struct section_ctx *c)
{
	struct json_object *target = section_get(c->manifest, "target"), *prof = section_get(c->manifest, "profile");
	static const char *const skip_target[] = {"drive", NULL};
	static const char *const skip_setup[] = {"profile", "plan", "target", "host", "steady_state",
						  "schema", "link", NULL};
	const char *name = jsonget_str(prof, "name");
	struct section_table t;
	char buf[512];

	snprintf(buf, sizeof(buf), "SNIA PTS-style report: %s", name ? name : "unnamed profile");
	html_puts(&c->html, "<h1>");
	html_esc(&c->html, buf);
	html_puts(&c->html, "</h1>\n");
	html_puts(&c->md, "# ");
	html_puts(&c->md, buf);
	html_puts(&c->md, "\n\n");
	if (c->simulated) {
		html_puts(&c->html, "<p class=\"simnote\">Simulated: the target is the virtual SSD.</p>\n");
		html_puts(&c->md, "**Simulated** (virtual SSD).\n\n");
	}
	deviations(c);

	section_heading(c, 2, "platform", "Test platform", false);
	section_table_init(&t, "platform", "Host state (manifest.host)", 2, kv_head, false);
	kv_rows(&t, "", section_get(c->manifest, "host"), NULL);
	section_emit_table(c, &t);
	section_table_release(&t);

	section_heading(c, 2, "device", "Device", true);
	section_table_init(&t, "device", "Device (manifest.target, target.drive, link, wear)", 2,
			   kv_head, true);
	kv_rows(&t, "target", target, skip_target);
	kv_rows(&t, "target.drive", section_get(target, "drive"), NULL);
	kv_rows(&t, "link", section_get(c->manifest, "link"), NULL);
	kv_rows(&t, "drive_settings", section_get(c->manifest, "drive_settings"), NULL);
	kv_rows(&t, "endurance", section_get(c->summary, "endurance"), NULL);
	if (purge_method(c, buf, sizeof(buf))) {
		section_table_str(&t, "purge");
		section_table_str(&t, buf);
	}
	section_emit_table(c, &t);
	section_table_release(&t);

	section_heading(c, 2, "setup", "Setup and test parameters", false);
	section_table_init(&t, "setup", "Setup (manifest)", 2, kv_head, false);
	section_table_str(&t, "profile.name");
	section_table_str(&t, name);
	section_table_str(&t, "profile.path");
	section_table_str(&t, jsonget_str(prof, "path"));
	kv_rows(&t, "", c->manifest, skip_setup);
	kv_rows(&t, "plan.pts", section_get(section_get(c->manifest, "plan"), "pts"), NULL);
	section_emit_table(c, &t);
	section_table_release(&t);
}

/*
 * Other processes' I/O on the device during the measurements: the records' foreign_sectors_read
 * and _written summed (the analysis keeps no total of them). Rows only when there was some;
 * unreadable records add nothing here (summary.json, which the rest of the page shows, exists).
 */
static void foreign_io(struct section_ctx *c, struct section_table *t)
{
	struct results_records rr = {0};
	double rd = 0, wr = 0, with = 0;

	if (results_read_records(c->dir, &rr))
		return;
	for (size_t i = 0; i < rr.n; i++) {
		double r = jsonget_num(rr.rec[i], "foreign_sectors_read");
		double w = jsonget_num(rr.rec[i], "foreign_sectors_written");
		bool any = false;

		if (isfinite(r) && r > 0) {
			rd += r;
			any = true;
		}
		if (isfinite(w) && w > 0) {
			wr += w;
			any = true;
		}
		with += any;
	}
	results_records_release(&rr);
	if (!with)
		return;
	section_table_str(t, "foreign_io.sectors_read");
	section_table_num(t, rd);
	section_table_str(t, "foreign_io.sectors_written");
	section_table_num(t, wr);
	section_table_str(t, "foreign_io.records");
	section_table_num(t, with);
}

void section_flags(struct section_ctx *c)
{
	struct json_object *flags = section_get(c->summary, "flags"), *wa = section_get(c->summary, "wa");
	struct json_object *run = section_get(wa, "run");
	struct section_table t;

	if (!flags)
		return;
	section_heading(c, 2, "flags", "Flags", true);
	section_table_init(&t, "flags", "Flags (summary.json flags)", 2, kv_head, true);
	json_object_object_foreach(flags, k, v)
	{
		/* an empty list, false or null is no finding: only what is raised is listed */
		if (!v || (json_object_is_type(v, json_type_boolean) && !json_object_get_boolean(v)) ||
		    (json_object_is_type(v, json_type_array) && !section_alen(v)) ||
		    (json_object_is_type(v, json_type_int) && !json_object_get_int64(v)) ||
		    (!strcmp(k, "reads_unmapped") && !(jsonget_num(v, "bytes") > 0)))
			continue;
		kv_rows(&t, k, v, NULL);
	}
	if (run && !section_get(run, "wa")) {
		section_table_str(&t, "wa_unavailable");
		section_table_str(&t, jsonget_str(run, "wa_reason") ? jsonget_str(run, "wa_reason")
								    : "unknown");
	}
	foreign_io(c, &t);
	if (!t.rows) {
		section_table_str(&t, "none");
		section_table_str(&t, "no flag raised");
	}
	section_emit_table(c, &t);
	section_table_release(&t);
}
