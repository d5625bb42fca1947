/* SPDX-License-Identifier: MIT */
/*
 * report: the lab report of a results directory (issue 17). From DIR/summary.json and
 * DIR/manifest.json (and the first and last snapshot) it writes
 *   DIR/report.html   one self-contained page: inline CSS and SVG, no script, font or other file
 *   DIR/summary.md    the headline and the main tables in Markdown
 *   DIR/report/<name>.csv  one CSV per table and per plot (docs/report.md lists them)
 * It prints nothing; the same inputs give the same bytes (no time stamp, no path in the files).
 */
#ifndef SSDLAB_REPORT_REPORT_H
#define SSDLAB_REPORT_REPORT_H

#include <stddef.h>

/*
 * Writes the report of results directory dir. Returns 0, or -errno with a message in err:
 * -ENOENT when dir has no manifest.json or summary.json (run `ssdlab analyze` first), -EINVAL
 * when one is not JSON, the errors of writing the files otherwise. Files already written by a
 * failed call stay (each is written atomically, so none is torn).
 */
int report_write(const char *dir, char *err, size_t errlen);

struct html_buf;
struct section_ctx;

/*
 * The report's sections that draw curves, in report order: the SNIA blocks, steady state, the
 * probes' curves, WA and counters. report_write calls them; compare_write calls them with a
 * context that keeps the plots (section.h) to overlay each curve of several runs, so that a curve
 * is read and drawn by one function for both.
 */
void report_curve_sections(struct section_ctx *c);

/*
 * Appends the whole page around body to page: the doctype, head with title and the report's
 * inline CSS, body, and a footer "Written by WRITER FROM" (both escaped; NULL writes nothing).
 * report_write and compare_write (compare.h) share it, so the two pages look and print alike.
 */
void report_page(struct html_buf *page, const char *title, const char *body, const char *writer,
		 const char *from);

#endif
