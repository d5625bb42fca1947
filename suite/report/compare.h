/* SPDX-License-Identifier: MIT */
/*
 * compare: several results directories side by side (`ssdlab compare DIR...`, issue 18). Each
 * run's summary.json gives named figures (compare.c lists which); the runs compare on the names
 * they all have (cmpmatch.h), each figure with its ratio to the first run's, marked beyond
 * COMPARE_THRESHOLD; what a run does not share is listed. The result is a text for the terminal
 * (aligned tables) and a page, the report's own (report_page, section.h, svg.h): tables, plots
 * with one series per run, and a CSV per table and plot.
 */
#ifndef SSDLAB_REPORT_COMPARE_H
#define SSDLAB_REPORT_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

struct html_buf;

/* A ratio to the first run outside [0.9, 1.1] is marked as a difference. */
#define COMPARE_THRESHOLD 0.10

/*
 * Compares the n (>= 1) results directories dirs. Writes the page to out and its CSVs to
 * report/compare-<name>.csv beside out, and appends the terminal text to text. fast (n == 2):
 * dirs[0] is a full run and dirs[1] a fast one, and the page and text begin with the fast
 * comparison (cmpfast.h: drive time and bytes to the verdict, the verdicts, every steady-state
 * figure against the 5 % goal; report/compare-fast.csv). Returns 0, or -errno with a message in
 * err: -ENOENT when a directory has no summary.json or manifest.json, -EINVAL when one is not a
 * JSON object or fast is set with n != 2, the errors of reading records and writing otherwise.
 */
int compare_write(const char *const *dirs, size_t n, const char *out, bool fast,
		  struct html_buf *text, char *err, size_t errlen);

#endif
