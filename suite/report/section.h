/* SPDX-License-Identifier: MIT */
/*
 * section: what the report's sections share. A section reads the results directory's
 * summary.json and manifest.json (already parsed, in struct section_ctx) and emits headings,
 * text, tables and plots through the helpers here, which put each into every output at once:
 * report.html, summary.md (tables only, for the sections that belong in it) and one CSV per
 * table or plot under DIR/report/. A section that finds nothing of its kind emits nothing.
 */
#ifndef SSDLAB_REPORT_SECTION_H
#define SSDLAB_REPORT_SECTION_H

#include <stdbool.h>
#include <stddef.h>

#include "report/html.h"
#include "report/svg.h"

struct json_object;

/* A plot a section drew, copied instead of written when the context keeps plots (compare.c
 * overlays the same plot of several runs). The strings and arrays are owned. */
struct section_kept_series {
	char *name;
	double *x, *y;
	size_t n;
	enum svg_style style;
};

struct section_kept_plot {
	char *key, *title; /* key: svg_plot.key, or the title when that is NULL */
	char *xlabel, *xunit, *ylabel, *yunit;
	bool xlog, ylog;
	struct section_kept_series *se;
	size_t nse;
};

struct section_kept {
	struct section_kept_plot *p;
	size_t n, cap;
};

/* Frees what k holds (k itself is the caller's); NULL is fine. */
void section_kept_release(struct section_kept *k);

struct section_ctx {
	const char *dir;               /* the results directory */
	struct json_object *manifest;  /* borrowed */
	struct json_object *summary;   /* borrowed */
	bool simulated;                /* the target is the virtual SSD */
	struct html_buf html;          /* report.html's body */
	struct html_buf md;            /* summary.md */
	struct section_kept *keep;     /* non-NULL: plots are copied here and nothing is written
					* (no HTML, Markdown or CSV): compare.c's use of the sections */
	int rc;                        /* the first error, sticky */
	char *err;
	size_t errlen;
};

/* A table: ncols headings, then rows of cells. Cells are strings (numbers in jsonnum's format,
 * so that the CSV holds the summary's value exactly); HTML shows numbers shortened to 6 digits. */
struct section_table {
	const char *id;    /* the CSV's name, report/<id>.csv, and the HTML id */
	const char *title;
	size_t ncols;
	const char *const *head;
	char **cells;      /* rows x ncols, owned */
	size_t rows, cap;
	bool in_md;        /* also a table of summary.md */
	int err;
};

void section_table_init(struct section_table *t, const char *id, const char *title, size_t ncols,
			const char *const *head, bool in_md);
void section_table_release(struct section_table *t);
/* Appends a cell to the current row (a new row every ncols cells); a copy of s ("" for NULL). */
void section_table_str(struct section_table *t, const char *s);
/* A number cell: jsonnum's shortest round-trip decimal, "" for NaN (null in the summary). */
void section_table_num(struct section_table *t, double v);
/* The member key of o as a cell: a string as is, a number as section_table_num, a boolean as
 * true/false, absent or null as "". */
void section_table_json(struct section_table *t, struct json_object *o, const char *key);

/* A row per element of array arr: its members named by t's headings, as section_table_json. */
void section_table_objects(struct section_table *t, struct json_object *arr);

/* Emits t: writes report/<id>.csv, the HTML table and (in_md) the Markdown table (nothing when
 * c keeps plots). */
void section_emit_table(struct section_ctx *c, struct section_table *t);

/*
 * Emits plot p (p->csv is set here to report/<p->id>.csv): writes the CSV (series,x,y, one row
 * per value in the same number format as the plot's data-x/data-y) and the SVG. Plots of a
 * virtual-SSD run are marked simulated. When c keeps plots (c->keep), copies p there instead.
 */
void section_emit_plot(struct section_ctx *c, struct svg_plot *p);

/* A heading (level 2 or 3) in the HTML and (in_md) the Markdown; a paragraph of text in the
 * HTML. */
void section_heading(struct section_ctx *c, int level, const char *id, const char *text,
		     bool in_md);
void section_para(struct section_ctx *c, const char *text);

/* Member key of o (borrowed), NULL when o is not an object or has no such member. */
struct json_object *section_get(struct json_object *o, const char *key);
/* The length of array a, 0 when a is not an array. */
size_t section_alen(struct json_object *a);
/* The numbers of array a times scale in a new array (NaN for null; the caller frees it), their
 * count in *n; NULL (n untouched) for an empty array, not an array, or ENOMEM. */
double *section_numbers(struct json_object *a, double scale, size_t *n);

/* Records the first failure (rc < 0) with its message; later ones are dropped. */
void section_fail(struct section_ctx *c, int rc, const char *what);

/* The sections, in report order. Each appends to c and returns nothing: errors go to c->rc. */
void section_header(struct section_ctx *c);
void section_flags(struct section_ctx *c);
/* A run made with `run --like`: the run it repeats and both headlines (section_like.c). */
void section_like(struct section_ctx *c);
void section_steady_state(struct section_ctx *c);
void section_snia(struct section_ctx *c);
/* One XSR, DIRTH, HIR or ECW block b (index k in snia) of section_snia (section_pts.c); false
 * for a block of another test. */
bool section_snia_more(struct section_ctx *c, struct json_object *b, size_t k);
void section_cells(struct section_ctx *c);
void section_probes(struct section_ctx *c);
/* The probes' curves: SLC cache, GC recovery, OP variants, surface (section_curves.c). */
void section_curves(struct section_ctx *c);

#endif
