/* SPDX-License-Identifier: MIT */
/*
 * html: the report's text buffer and its three escapings (HTML, CSV, Markdown). One place, so
 * that every string that came from a results directory (a model name, a profile's description)
 * is escaped the same way wherever it lands.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"

void html_init(struct html_buf *b)
{
	memset(b, 0, sizeof(*b));
}

void html_release(struct html_buf *b)
{
	if (!b)
		return;
	free(b->p);
	html_init(b);
}

static int grow(struct html_buf *b, size_t more)
{
	size_t want = b->len + more + 1, cap = b->cap ? b->cap : 4096;
	char *p;

	if (b->err)
		return b->err;
	if (want <= b->cap)
		return 0;
	while (cap < want)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->err = -ENOMEM;
		return b->err;
	}
	b->p = p;
	b->cap = cap;
	return 0;
}

static void put(struct html_buf *b, const char *s, size_t n)
{
	if (grow(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void html_puts(struct html_buf *b, const char *s)
{
	if (s)
		put(b, s, strlen(s));
}

void html_printf(struct html_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || grow(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void html_esc(struct html_buf *b, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': html_puts(b, "&amp;"); break;
		case '<': html_puts(b, "&lt;"); break;
		case '>': html_puts(b, "&gt;"); break;
		case '"': html_puts(b, "&quot;"); break;
		case '\'': html_puts(b, "&#39;"); break;
		default: put(b, s, 1);
		}
	}
}

void html_csv_field(struct html_buf *b, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		html_puts(b, s);
		return;
	}
	put(b, "\"", 1);
	for (; *s; s++) {
		if (*s == '"')
			put(b, "\"", 1);
		put(b, s, 1);
	}
	put(b, "\"", 1);
}

void html_md_cell(struct html_buf *b, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|' || *s == '\\')
			put(b, "\\", 1);
		if (*s == '\n' || *s == '\r')
			put(b, " ", 1);
		else
			put(b, s, 1);
	}
}
