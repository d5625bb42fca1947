/* SPDX-License-Identifier: MIT */
/*
 * html: a growing text buffer for the report's files (report.html, summary.md, the CSVs) and the
 * escaping each needs. Errors are sticky: an append after a failed allocation does nothing and
 * html_buf.err keeps -ENOMEM, so a writer appends freely and checks once at the end.
 */
#ifndef SSDLAB_REPORT_HTML_H
#define SSDLAB_REPORT_HTML_H

#include <stddef.h>

struct html_buf {
	char *p;    /* NUL-terminated text, NULL until the first append */
	size_t len; /* bytes in p without the NUL */
	size_t cap;
	int err;    /* 0, or -ENOMEM after a failed append */
};

/* An empty buffer (caller-owned memory). */
void html_init(struct html_buf *b);
/* Frees what b holds; b is empty afterwards. Accepts NULL. */
void html_release(struct html_buf *b);

void html_puts(struct html_buf *b, const char *s);
void html_printf(struct html_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* s with &, <, >, " and ' escaped: safe in element text and in a quoted attribute. NULL appends
 * nothing. */
void html_esc(struct html_buf *b, const char *s);

/* s as one CSV field (RFC 4180): quoted, with quotes doubled, when it holds a comma, a quote or
 * a line break. */
void html_csv_field(struct html_buf *b, const char *s);

/* s as Markdown table-cell text: '|' and '\' escaped, line breaks as spaces. */
void html_md_cell(struct html_buf *b, const char *s);

#endif
