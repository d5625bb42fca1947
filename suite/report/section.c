/* SPDX-License-Identifier: MIT */
/*
 * section: the helpers every report section uses (see section.h): a table or a plot goes to the
 * HTML, the Markdown and its CSV in one call, so that the three cannot disagree.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/errmsg.h"
#include "base/jsonnum.h"
#include "report/section.h"
#include "results/files.h"

void section_fail(struct section_ctx *c, int rc, const char *what)
{
	if (c->rc || rc >= 0)
		return;
	c->rc = rc;
	errmsg_set(c->err, c->errlen, rc, "%s: %s", what, strerror(-rc));
}

struct json_object *section_get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

size_t section_alen(struct json_object *a)
{
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

double *section_numbers(struct json_object *a, double scale, size_t *n)
{
	size_t len = section_alen(a);
	double *v = len ? calloc(len, sizeof(*v)) : NULL;

	if (!v)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		v[i] = e ? json_object_get_double(e) * scale : NAN;
	}
	*n = len;
	return v;
}

void section_table_init(struct section_table *t, const char *id, const char *title, size_t ncols,
			const char *const *head, bool in_md)
{
	memset(t, 0, sizeof(*t));
	t->id = id;
	t->title = title;
	t->ncols = ncols;
	t->head = head;
	t->in_md = in_md;
}

void section_table_release(struct section_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->cap && t->cells[i]; i++)
		free(t->cells[i]);
	free(t->cells);
	t->cells = NULL;
	t->rows = t->cap = 0;
}

/* Cells filled so far: complete rows plus the current one. */
static size_t filled(const struct section_table *t)
{
	size_t n = t->rows * t->ncols;

	while (n < t->cap && t->cells[n])
		n++;
	return n;
}

void section_table_str(struct section_table *t, const char *s)
{
	size_t n;
	char *d;

	if (t->err)
		return;
	n = filled(t);
	if (n + 1 >= t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		char **p = realloc(t->cells, cap * sizeof(*p));
		if (!p) {
			t->err = -ENOMEM;
			return;
		}
		memset(p + t->cap, 0, (cap - t->cap) * sizeof(*p));
		t->cells = p;
		t->cap = cap;
	}
	d = strdup(s ? s : "");
	if (!d) {
		t->err = -ENOMEM;
		return;
	}
	t->cells[n++] = d;
	if (n % t->ncols == 0)
		t->rows = n / t->ncols;
}

void section_table_num(struct section_table *t, double v)
{
	char num[40];

	section_table_str(t, isfinite(v) ? jsonnum_fmt(v, num, sizeof(num)) : "");
}

void section_table_json(struct section_table *t, struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!o || !json_object_object_get_ex(o, key, &v) || !v) {
		section_table_str(t, "");
		return;
	}
	switch (json_object_get_type(v)) {
	case json_type_string:
		section_table_str(t, json_object_get_string(v));
		break;
	case json_type_int:
	case json_type_double:
		section_table_num(t, json_object_get_double(v));
		break;
	case json_type_boolean:
		section_table_str(t, json_object_get_boolean(v) ? "true" : "false");
		break;
	default:
		section_table_str(t, json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
	}
}

void section_table_objects(struct section_table *t, struct json_object *arr)
{
	for (size_t i = 0; i < section_alen(arr); i++)
		for (size_t j = 0; j < t->ncols; j++)
			section_table_json(t, json_object_array_get_idx(arr, i), t->head[j]);
}

/* A number as the HTML and Markdown tables show it: an integer in full (a capacity in bytes
 * must not lose digits), anything else to 6 significant digits. */
static const char *display(double v, char *buf, size_t len)
{
	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, len, "%.0f", v);
		return buf;
	}
	return svg_num(v, buf, len);
}

/* A cell as HTML shows it: a number shortened to 6 significant digits, text escaped. */
static void html_cell(struct html_buf *b, const char *s)
{
	char *end, num[48];
	double v;

	if (s[0]) {
		v = strtod(s, &end);
		if (!*end && isfinite(v)) {
			html_printf(b, "<td class=\"num\" data-v=\"%s\">%s</td>", s,
				    display(v, num, sizeof(num)));
			return;
		}
	}
	html_puts(b, "<td>");
	html_esc(b, s);
	html_puts(b, "</td>");
}

static void write_file(struct section_ctx *c, const char *name, struct html_buf *b)
{
	char *sub = NULL, *path = NULL;
	int rc;

	if (b->err) {
		section_fail(c, b->err, name);
		return;
	}
	sub = files_path_join(c->dir, "report");
	if (!sub) {
		section_fail(c, -ENOMEM, name);
		return;
	}
	rc = files_mkdir_p(sub);
	if (rc)
		goto out;
	path = files_path_join(sub, name);
	if (!path) {
		rc = -ENOMEM;
		goto out;
	}
	rc = files_atomic_write(path, b->p ? b->p : "", b->len);
out:
	if (rc)
		section_fail(c, rc, path ? path : sub);
	free(path);
	free(sub);
}

void section_emit_table(struct section_ctx *c, struct section_table *t)
{
	struct html_buf csv;
	char name[128];

	if (t->err) {
		section_fail(c, t->err, t->id);
		return;
	}
	if (!t->rows || c->keep) /* compare's tables are its own (compare.c) */
		return;
	html_init(&csv);
	for (size_t j = 0; j < t->ncols; j++) {
		html_puts(&csv, j ? "," : "");
		html_csv_field(&csv, t->head[j]);
	}
	html_puts(&csv, "\n");
	for (size_t i = 0; i < t->rows; i++) {
		for (size_t j = 0; j < t->ncols; j++) {
			html_puts(&csv, j ? "," : "");
			html_csv_field(&csv, t->cells[i * t->ncols + j]);
		}
		html_puts(&csv, "\n");
	}
	snprintf(name, sizeof(name), "%s.csv", t->id);
	write_file(c, name, &csv);
	html_release(&csv);

	html_printf(&c->html, "<table id=\"t-%s\" data-csv=\"report/%s\"><caption>", t->id, name);
	html_esc(&c->html, t->title);
	html_puts(&c->html, "</caption>\n<thead><tr>");
	for (size_t j = 0; j < t->ncols; j++) {
		html_puts(&c->html, "<th>");
		html_esc(&c->html, t->head[j]);
		html_puts(&c->html, "</th>");
	}
	html_puts(&c->html, "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < t->rows; i++) {
		html_puts(&c->html, "<tr>");
		for (size_t j = 0; j < t->ncols; j++)
			html_cell(&c->html, t->cells[i * t->ncols + j]);
		html_puts(&c->html, "</tr>\n");
	}
	html_puts(&c->html, "</tbody></table>\n");

	if (!t->in_md)
		return;
	html_puts(&c->md, "**");
	html_md_cell(&c->md, t->title);
	html_puts(&c->md, "**\n\n|");
	for (size_t j = 0; j < t->ncols; j++) {
		html_puts(&c->md, " ");
		html_md_cell(&c->md, t->head[j]);
		html_puts(&c->md, " |");
	}
	html_puts(&c->md, "\n|");
	for (size_t j = 0; j < t->ncols; j++)
		html_puts(&c->md, "---|");
	html_puts(&c->md, "\n");
	for (size_t i = 0; i < t->rows; i++) {
		html_puts(&c->md, "|");
		for (size_t j = 0; j < t->ncols; j++) {
			const char *s = t->cells[i * t->ncols + j];
			char *end, num[48];
			double v = s[0] ? strtod(s, &end) : NAN;

			html_puts(&c->md, " ");
			if (s[0] && !*end && isfinite(v))
				html_puts(&c->md, display(v, num, sizeof(num)));
			else
				html_md_cell(&c->md, s);
			html_puts(&c->md, " |");
		}
		html_puts(&c->md, "\n");
	}
	html_puts(&c->md, "\n");
}

void section_kept_release(struct section_kept *k)
{
	for (size_t i = 0; k && i < k->n; i++) {
		struct section_kept_plot *p = &k->p[i];
		for (size_t s = 0; s < p->nse; s++) {
			free(p->se[s].name);
			free(p->se[s].x);
			free(p->se[s].y);
		}
		free(p->se);
		free(p->key);
		free(p->title);
		free(p->xlabel);
		free(p->xunit);
		free(p->ylabel);
		free(p->yunit);
	}
	if (k) {
		free(k->p);
		*k = (struct section_kept){0};
	}
}

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

static double *dup_doubles(const double *v, size_t n)
{
	double *d = malloc((n ? n : 1) * sizeof(*d));

	if (d && n)
		memcpy(d, v, n * sizeof(*d));
	return d;
}

/* A deep copy of p at the end of c->keep. */
static void keep_plot(struct section_ctx *c, const struct svg_plot *p)
{
	struct section_kept *k = c->keep;
	struct section_kept_plot *q;

	if (k->n == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 32;
		struct section_kept_plot *np = realloc(k->p, cap * sizeof(*np));
		if (!np)
			goto enomem;
		k->p = np;
		k->cap = cap;
	}
	q = &k->p[k->n++];
	*q = (struct section_kept_plot){0};
	q->key = dup_or_empty(p->key ? p->key : p->title);
	q->title = dup_or_empty(p->title);
	q->xlabel = dup_or_empty(p->x.label);
	q->xunit = dup_or_empty(p->x.unit);
	q->ylabel = dup_or_empty(p->y.label);
	q->yunit = dup_or_empty(p->y.unit);
	q->xlog = p->x.log;
	q->ylog = p->y.log;
	q->se = calloc(p->nseries ? p->nseries : 1, sizeof(*q->se));
	if (!q->key || !q->title || !q->xlabel || !q->xunit || !q->ylabel || !q->yunit || !q->se)
		goto enomem;
	for (size_t s = 0; s < p->nseries; s++) {
		const struct svg_series *f = &p->series[s];
		struct section_kept_series *t = &q->se[q->nse++];
		t->name = dup_or_empty(f->name);
		t->x = dup_doubles(f->x, f->n);
		t->y = dup_doubles(f->y, f->n);
		t->n = f->n;
		t->style = f->style;
		if (!t->name || !t->x || !t->y)
			goto enomem;
	}
	return;
enomem:
	section_fail(c, -ENOMEM, "keeping a plot");
}

void section_emit_plot(struct section_ctx *c, struct svg_plot *p)
{
	struct html_buf csv;
	char name[128], path[160], num[40];

	if (c->keep) {
		keep_plot(c, p);
		return;
	}

	snprintf(name, sizeof(name), "%s.csv", p->id);
	snprintf(path, sizeof(path), "report/%s", name);
	p->csv = path;
	p->simulated = c->simulated;
	html_init(&csv);
	html_puts(&csv, "series,x,y\n");
	for (size_t s = 0; s < p->nseries; s++) {
		const struct svg_series *se = &p->series[s];
		for (size_t i = 0; i < se->n; i++) {
			html_csv_field(&csv, se->name);
			html_printf(&csv, ",%s", isfinite(se->x[i]) ? jsonnum_fmt(se->x[i], num, sizeof(num)) : "nan");
			html_printf(&csv, ",%s\n", isfinite(se->y[i]) ? jsonnum_fmt(se->y[i], num, sizeof(num)) : "nan");
		}
	}
	write_file(c, name, &csv);
	html_release(&csv);
	svg_plot_write(&c->html, p);
}

void section_heading(struct section_ctx *c, int level, const char *id, const char *text,
		     bool in_md)
{
	html_printf(&c->html, "<h%d id=\"sec-%s\">", level, id); /* plots own the bare ids */
	html_esc(&c->html, text);
	html_printf(&c->html, "</h%d>\n", level);
	if (!in_md)
		return;
	html_printf(&c->md, "%s ", level <= 2 ? "##" : "###");
	html_puts(&c->md, text);
	html_puts(&c->md, "\n\n");
}

void section_para(struct section_ctx *c, const char *text)
{
	html_puts(&c->html, "<p>");
	html_esc(&c->html, text);
	html_puts(&c->html, "</p>\n");
}
