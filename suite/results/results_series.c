/* SPDX-License-Identifier: MIT */
/*
 * results_series: the series CSV files (results.h, the row in series.h, the columns in
 * docs/results-format.md): one file written whole, or a phase recorded in steps appended to
 * its one file, resume-safe. Numbers have '.' as the decimal point whatever the locale.
 */
#include "results/results.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/units.h"
#include "results/files.h"

static double rate(uint64_t n, uint64_t ns)
{
	return ns ? (double)n * 1e9 / (double)ns : NAN;
}

/* Appends printf-style text to a growing buffer. */
struct sbuf {
	char *b;
	size_t len, cap;
	int err;
};

static void sb_printf(struct sbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_printf(struct sbuf *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (s->err)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(s->b ? s->b + s->len : NULL, s->b ? s->cap - s->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			s->err = -EINVAL;
			return;
		}
		if (s->b && s->len + (size_t)n < s->cap) {
			s->len += (size_t)n;
			return;
		}
		size_t cap = s->cap ? s->cap * 2 : 4096;
		while (cap < s->len + (size_t)n + 1)
			cap *= 2;
		char *nb = realloc(s->b, cap);
		if (!nb) {
			s->err = -ENOMEM;
			return;
		}
		s->b = nb;
		s->cap = cap;
	}
}

static void series_header(struct sbuf *sb)
{
	static const char *const dn[2] = {"read", "write"};

	sb_printf(sb, "t_ns,interval_ns");
	for (int d = 0; d < 2; d++)
		sb_printf(sb,
			  ",%s_ios,%s_bytes,%s_iops,%s_bw_bps,%s_lat_mean_ns,%s_lat_p99_ns,"
			  "%s_lat_max_ns",
			  dn[d], dn[d], dn[d], dn[d], dn[d], dn[d], dn[d]);
	/* temperature_c before the last two columns: readers take the chunk from the last field
	 * and the bytes written from the one before it */
	sb_printf(sb, ",temperature_c,total_bytes_written,round\n");
}

static void series_rows(struct sbuf *sb, const struct series_row *rows, size_t n,
			uint64_t t_off_ns, uint64_t bytes_off, unsigned round)
{
	uint64_t prev = 0;
	char a[48], b[48];

	for (size_t i = 0; i < n; i++) {
		const struct series_row *row = &rows[i];
		uint64_t dt = row->t_ns > prev ? row->t_ns - prev : 0;

		sb_printf(sb, "%" PRIu64 ",%" PRIu64, row->t_ns + t_off_ns, dt);
		for (int d = 0; d < 2; d++) {
			/* units_fmt_double: '.' whatever the locale (units.h). */
			sb_printf(
			    sb, ",%" PRIu64 ",%" PRIu64 ",%s,%s,", row->d[d].ios, row->d[d].bytes,
			    dt ? units_fmt_double(rate(row->d[d].ios, dt), 3, a, sizeof(a)) : "",
			    dt ? units_fmt_double(rate(row->d[d].bytes, dt), 3, b, sizeof(b)) : "");
			sb_printf(sb, "%s,%" PRIu64 ",%" PRIu64,
				  row->d[d].ios
				      ? units_fmt_double(row->d[d].lat_mean_ns, 1, a, sizeof(a))
				      : "",
				  row->d[d].lat_p99_ns, row->d[d].lat_max_ns);
		}
		sb_printf(sb, ",%s,%" PRIu64 ",%u\n",
			  row->has_temp ? units_fmt_double(row->temperature_c, 2, a, sizeof(a)) : "",
			  row->total_bytes_written + bytes_off, round);
		prev = row->t_ns;
	}
}

static char *series_path(struct results *r, const char *name, int *rc)
{
	char safe[128], file[160];
	char *path;

	*rc = results_safe_name(name, safe, sizeof(safe));
	if (*rc)
		return NULL;
	snprintf(file, sizeof(file), "series/%s.csv", safe);
	path = files_path_join(results_path(r), file);
	if (!path)
		*rc = -ENOMEM;
	return path;
}

int results_write_series(struct results *r, const char *name, const struct series_row *rows,
			 size_t n)
{
	struct sbuf sb = {0};
	char *path;
	int rc;

	if (!r || !name || (n && !rows))
		return -EINVAL;
	path = series_path(r, name, &rc);
	if (!path)
		return rc;
	series_header(&sb);
	series_rows(&sb, rows, n, 0, 0, 0);
	rc = sb.err ? sb.err : files_atomic_write(path, sb.b, sb.len);
	free(path);
	free(sb.b);
	return rc;
}

int results_write_series_text(struct results *r, const char *name, const char *text, size_t len)
{
	char *path;
	int rc;

	if (!r || !name || (len && !text))
		return -EINVAL;
	path = series_path(r, name, &rc);
	if (!path)
		return rc;
	rc = files_atomic_write(path, text, len);
	free(path);
	return rc;
}

/* The round (last field) of the CSV line [l, e); -1 when it has none (a header, a torn line). */
static long line_round(const char *l, const char *e)
{
	const char *c = e;
	char *end;
	long v;

	while (c > l && c[-1] != ',')
		c--;
	if (c == l || c == e || c[0] < '0' || c[0] > '9')
		return -1;
	v = strtol(c, &end, 10);
	return end == e ? v : -1;
}

/* Whether the file at fd ends with a complete data line of a round below `round` (the usual
 * case, and then the new rows are appended): reads only its last 4 KiB, since a long phase's
 * series grows to many MiB. */
static bool series_tail_before(int fd, unsigned round)
{
	char buf[4097], *e, *l;
	off_t size = lseek(fd, 0, SEEK_END), at;
	ssize_t got;

	if (size <= 0)
		return false;
	at = size > 4096 ? size - 4096 : 0;
	got = pread(fd, buf, (size_t)(size - at), at);
	if (got != size - at || buf[got - 1] != '\n')
		return false; /* a torn last line */
	buf[got] = 0;
	e = buf + got - 1;
	for (l = e; l > buf && l[-1] != '\n'; l--)
		;
	if (l == buf && at > 0)
		return false; /* a line longer than 4 KiB: not ours */
	return line_round(l, e) >= 0 && line_round(l, e) < (long)round;
}

int results_append_series(struct results *r, const char *name, unsigned round,
			  const struct series_row *rows, size_t n, uint64_t t_off_ns,
			  uint64_t bytes_off)
{
	struct sbuf sb = {0};
	char *path, *old = NULL;
	size_t oldlen = 0;
	int rc, fd = -1;

	if (!r || !name || (n && !rows))
		return -EINVAL;
	path = series_path(r, name, &rc);
	if (!path)
		return rc;
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd >= 0 && series_tail_before(fd, round)) {
		series_rows(&sb, rows, n, t_off_ns, bytes_off, round);
		rc = sb.err ? sb.err : files_write_all(fd, sb.b, sb.len);
		if (!rc && fsync(fd))
			rc = -errno;
		goto out;
	}
	/* New, or the rows of this round (or later) are there already: a resumed chunk that ran
	 * before the crash. Keep the header and the earlier rounds' complete lines, replace the
	 * rest, atomically. */
	series_header(&sb);
	rc = fd >= 0 ? fileio_read_file(path, 0, &old, &oldlen) : 0;
	for (const char *l = old ? strchr(old, '\n') : NULL; !rc && l && *++l;) {
		const char *e = strchr(l, '\n');
		long lr = e ? line_round(l, e) : -1;

		if (lr < 0 || lr >= (long)round)
			break;
		sb_printf(&sb, "%.*s\n", (int)(e - l), l);
		l = e;
	}
	series_rows(&sb, rows, n, t_off_ns, bytes_off, round);
	if (!rc)
		rc = sb.err ? sb.err : files_atomic_write(path, sb.b, sb.len);
out:
	if (fd >= 0)
		close(fd);
	free(old);
	free(path);
	free(sb.b);
	return rc;
}
