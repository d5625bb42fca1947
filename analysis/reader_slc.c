/* SPDX-License-Identifier: MIT */
/*
 * reader_slc: the reader's part for the SLC-cache pass (reader.h): a write_until's series file
 * (docs/results-format.md, series/<name>.csv) as time, cumulative bytes and temperature.
 */
#include "analysis/reader.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"

/* Field col of the row [l, e) into [*fs, *fe); false when the row has fewer fields. */
static bool field(const char *l, const char *e, int col, const char **fs, const char **fe)
{
	const char *c = l;

	for (int k = 0; k < col; k++) {
		c = memchr(c, ',', (size_t)(e - c));
		if (!c)
			return false;
		c++;
	}
	*fs = c;
	*fe = memchr(c, ',', (size_t)(e - c));
	if (!*fe)
		*fe = e;
	return true;
}

static bool parse_u64(const char *s, const char *e, uint64_t *v)
{
	char buf[32], *end;

	if (e <= s || (size_t)(e - s) >= sizeof(buf))
		return false;
	memcpy(buf, s, (size_t)(e - s));
	buf[e - s] = 0;
	*v = strtoull(buf, &end, 10);
	return *end == 0 && buf[0] >= '0' && buf[0] <= '9';
}

static double parse_num(const char *s, const char *e)
{
	char buf[48], *end;
	double v;

	if (e <= s || (size_t)(e - s) >= sizeof(buf))
		return NAN;
	memcpy(buf, s, (size_t)(e - s));
	buf[e - s] = 0;
	v = strtod(buf, &end);
	return *end ? NAN : v;
}

int reader_slc_series(const char *dir, int64_t phase, int64_t repeat,
		      struct reader_slc_series *out)
{
	struct reader_slc_series r = {0};
	char path[4400], *text = NULL;
	const char *l, *e;
	size_t len = 0, rows = 0;
	int ct, cb, cc, ret;

	/* results/runner.c's series_name(): phase-PP-rep-RR-KIND.csv */
	snprintf(path, sizeof(path), "%s/series/phase-%02" PRId64 "-rep-%02" PRId64
		 "-write_until.csv", dir, phase, repeat);
	ret = fileio_read_file(path, 0, &text, &len);
	if (ret)
		return ret;
	ret = -EBADMSG;
	e = text ? strchr(text, '\n') : NULL;
	if (!e)
		goto out;
	ct = reader_csv_column(text, e, "t_ns");
	cb = reader_csv_column(text, e, "total_bytes_written");
	cc = reader_csv_column(text, e, "temperature_c"); /* older files lack it */
	if (ct < 0 || cb < 0)
		goto out;
	for (const char *c = e + 1; *c; c++)
		rows += *c == '\n';
	ret = -ENOMEM;
	r.t_ns = malloc((rows + 1) * sizeof(*r.t_ns));
	r.bytes = malloc((rows + 1) * sizeof(*r.bytes));
	r.temp_c = malloc((rows + 1) * sizeof(*r.temp_c));
	if (!r.t_ns || !r.bytes || !r.temp_c)
		goto out;
	ret = -EBADMSG;
	for (l = e + 1; *l; l = *e ? e + 1 : e) {
		const char *fs, *fe;
		uint64_t t, b;

		e = strchr(l, '\n');
		if (!e)
			e = l + strlen(l);
		if (e == l)
			continue;
		if (!field(l, e, ct, &fs, &fe) || !parse_u64(fs, fe, &t) ||
		    !field(l, e, cb, &fs, &fe) || !parse_u64(fs, fe, &b))
			goto out;
		if (r.n && t <= r.t_ns[r.n - 1])
			continue; /* a row that does not move time on (see reader.h) */
		r.t_ns[r.n] = t;
		r.bytes[r.n] = b;
		r.temp_c[r.n] = cc >= 0 && field(l, e, cc, &fs, &fe) ? parse_num(fs, fe) : NAN;
		r.n++;
	}
	*out = r;
	memset(&r, 0, sizeof(r));
	ret = 0;
out:
	reader_slc_series_release(&r);
	free(text);
	return ret;
}

void reader_slc_series_release(struct reader_slc_series *s)
{
	if (!s)
		return;
	free(s->t_ns);
	free(s->bytes);
	free(s->temp_c);
	memset(s, 0, sizeof(*s));
}
