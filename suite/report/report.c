/* SPDX-License-Identifier: MIT */
/*
 * report: builds the report page from its sections (section.h) in a fixed order and writes
 * report.html and summary.md. The page's CSS is here, inline: a screen layout, and @media print
 * rules that fit A4 and Letter alike (the narrower of the two, A4's 210 mm, less margins, is
 * the width every table and plot scales to) and keep a plot or a table on one page. On screen a
 * table wider than the page scrolls by itself; in print it stays a table in a smaller font.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/errmsg.h"
#include "base/jsonget.h"
#include "report/report.h"
#include "report/section.h"
#include "results/files.h"

static const char css[] =
    "body{font-family:sans-serif;font-size:10.5pt;margin:1.5em auto;max-width:60em;color:#111;"
    "padding:0 1em}\n"
    "h1{font-size:1.5em}h2{font-size:1.25em;border-bottom:1px solid #999;margin-top:1.6em}"
    "h3{font-size:1.1em}\n"
    "table{border-collapse:collapse;margin:.6em 0;font-size:9pt;display:block;max-width:100%;"
    "overflow-x:auto}caption{text-align:left;font-weight:bold;padding:.2em 0}\n"
    "th,td{border:1px solid #bbb;padding:.15em .4em;vertical-align:top;overflow-wrap:anywhere}td.num{text-align:right;"
    "font-variant-numeric:tabular-nums}th{background:#eee}\n"
    "figure.plot{margin:.8em 0}svg{max-width:100%;height:auto;font-size:11px;"
    "font-family:sans-serif}\n"
    "svg .ptitle{font-weight:bold}svg .sim{fill:#b00;font-weight:bold}svg .legend text"
    "{font-size:10px}\n"
    ".simnote{color:#b00;font-weight:bold}\n"
    "@page{size:auto;margin:15mm 12mm}\n"
    "@media print{body{max-width:none;margin:0;padding:0;font-size:9pt}"
    "table,figure.plot{break-inside:avoid;page-break-inside:avoid}"
    "h2,h3{break-after:avoid;page-break-after:avoid}"
    "svg{width:100%;max-width:180mm}table{font-size:7.5pt;display:table;overflow:visible}}\n";

void report_page(struct html_buf *page, const char *title, const char *body, const char *writer,
		 const char *from)
{
	html_puts(page, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
			"<title>");
	html_esc(page, title);
	html_puts(page, "</title>\n<style>\n");
	html_puts(page, css);
	html_puts(page, "</style>\n</head>\n<body>\n");
	html_puts(page, body);
	html_puts(page, "<footer><p>Written by ");
	html_esc(page, writer);
	html_esc(page, from);
	html_puts(page, "</p></footer>\n</body>\n</html>\n");
}

static void headline(struct section_ctx *c)
{
	static const char *const head[] = {"key", "value"};
	static const char *const keys[] = {"wa_run", NULL};
	struct json_object *h = NULL, *res = NULL;
	struct section_table t;

	if (!json_object_object_get_ex(c->summary, "headline", &h) || !h)
		return;
	section_heading(c, 2, "headline", "Headline", true);
	section_table_init(&t, "headline", "Headline figures (summary.json headline)", 2, head, true);
	for (size_t i = 0; keys[i]; i++) {
		section_table_str(&t, keys[i]);
		section_table_json(&t, h, keys[i]);
	}
	if (json_object_object_get_ex(h, "results", &res) && json_object_is_type(res, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(res); i++) {
			struct json_object *e = json_object_array_get_idx(res, i);
			static const char *const rk[] = {"iops", "bw_bps", "lat_mean_ns", "lat_p99_ns",
							 "lat_max_ns"};
			for (size_t j = 0; j < sizeof(rk) / sizeof(rk[0]); j++) {
				char key[256];
				const char *cell = jsonget_str(e, "cell");
				snprintf(key, sizeof(key), "results[%zu] %s %s", i,
					 cell && cell[0] ? cell : (jsonget_str(e, "workload") ? jsonget_str(e, "workload") : "-"),
					 rk[j]);
				section_table_str(&t, key);
				section_table_json(&t, e, rk[j]);
			}
		}
	}
	section_emit_table(c, &t);
	section_table_release(&t);
}

static int write_top(const char *dir, const char *name, struct html_buf *b, char *err,
		     size_t errlen)
{
	char *path = files_path_join(dir, name);
	int rc;

	if (b->err)
		return errmsg_set(err, errlen, b->err, "building %s: %s", name, strerror(-b->err));
	if (!path)
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	rc = files_atomic_write(path, b->p ? b->p : "", b->len);
	if (rc)
		errmsg_set(err, errlen, rc, "writing %s: %s", path, strerror(-rc));
	free(path);
	return rc;
}

void report_curve_sections(struct section_ctx *c)
{
	section_snia(c);
	section_steady_state(c);
	section_curves(c);
	section_probes(c);
}

int report_write(const char *dir, char *err, size_t errlen)
{
	struct section_ctx c = {.dir = dir, .err = err, .errlen = errlen};
	struct json_object *target = NULL;
	struct html_buf page;
	const char *kind, *footer;
	int rc;

	html_init(&page);
	html_init(&c.html);
	html_init(&c.md);
	rc = files_read_in_dir(dir, RESULTS_MANIFEST_FILE, &c.manifest);
	if (rc) {
		errmsg_set(err, errlen, rc, "%s/%s: %s", dir, RESULTS_MANIFEST_FILE, strerror(-rc));
		goto out;
	}
	rc = files_read_in_dir(dir, RESULTS_SUMMARY_FILE, &c.summary);
	if (rc) {
		errmsg_set(err, errlen, rc, "%s/%s: %s (run `ssdlab analyze %s` first)", dir,
			   RESULTS_SUMMARY_FILE, strerror(-rc), dir);
		goto out;
	}
	if (!json_object_is_type(c.manifest, json_type_object) ||
	    !json_object_is_type(c.summary, json_type_object)) {
		rc = errmsg_set(err, errlen, -EINVAL, "%s: manifest.json or summary.json is not a "
						      "JSON object", dir);
		goto out;
	}
	json_object_object_get_ex(c.manifest, "target", &target);
	kind = jsonget_str(target, "kind");
	c.simulated = kind && !strcmp(kind, "sim");

	section_header(&c);
	headline(&c);
	section_like(&c);
	section_flags(&c);
	report_curve_sections(&c);
	section_cells(&c);
	if (c.rc) {
		rc = c.rc;
		goto out;
	}

	{
		struct json_object *prof = NULL;
		const char *name;
		char title[512];
		json_object_object_get_ex(c.manifest, "profile", &prof);
		name = jsonget_str(prof, "name");
		snprintf(title, sizeof(title), "SNIA PTS-style report: %s", name ? name : "unnamed profile");
		footer = jsonget_str(c.summary, "analyzer");
		report_page(&page, title, c.html.p, footer, " from summary.json and manifest.json; every "
							    "table and plot has its CSV under report/.");
	}
	rc = write_top(dir, "report.html", &page, err, errlen);
	if (!rc)
		rc = write_top(dir, "summary.md", &c.md, err, errlen);
out:
	html_release(&page);
	html_release(&c.html);
	html_release(&c.md);
	json_object_put(c.manifest);
	json_object_put(c.summary);
	return rc;
}
