/* SPDX-License-Identifier: MIT */
/*
 * reader_thermal: the reader's part for the thermal pass (reader.h): heat and wear values of a
 * snapshot, the hottest row of a phase's series file, and the cool-down records.
 *
 * A snapshot's source decides where a value sits: counters first (the contract names of
 * docs/results-format.md), then its raw part under the names ssdlab's NVMe and ATA readers
 * write (`thermal_transitions_1`/`_2`, `warning_temp_minutes`) or the neutral source keys of
 * host/devcounters.h (`nvme:smart.thm1_transitions`, ...), at the top level of raw or in its
 * `counters` object. WCTEMP (NVMe Identify Controller bytes 267:266) is in Kelvin; 0 means
 * the controller reports none.
 */
#include "analysis/reader.h"
#include "base/units.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/fileio.h"
#include "base/jsonget.h"


/* A number under any of names in raw or raw.counters; NaN when none has one. */
static double raw_num(struct json_object *raw, const char *const *names)
{
	struct json_object *sub = NULL;

	if (!raw || !json_object_is_type(raw, json_type_object))
		return NAN;
	if (!json_object_object_get_ex(raw, "counters", &sub) ||
	    !json_object_is_type(sub, json_type_object))
		sub = NULL;
	for (; *names; names++) {
		double v = jsonget_num(raw, *names);

		if (isnan(v) && sub)
			v = jsonget_num(sub, *names);
		if (!isnan(v))
			return v;
	}
	return NAN;
}

static double counter_or_nan(const struct snapshot *s, const char *name)
{
	const struct counter *c = snapshot_get(s, name);

	return c ? c->value : NAN;
}

void reader_thermal_snap(const struct reader_snaps *s, size_t i, struct thermal_snap *out)
{
	static const char *const t1[] = {"thermal_transitions_1", "nvme:smart.thm1_transitions",
					 NULL};
	static const char *const t2[] = {"thermal_transitions_2", "nvme:smart.thm2_transitions",
					 NULL};
	static const char *const wm[] = {"warning_temp_minutes", "nvme:smart.warning_temp_minutes",
					 NULL};
	static const char *const wc[] = {"wctemp_c", NULL};
	static const char *const wk[] = {"wctemp", "wctemp_k", "nvme:identify.wctemp", NULL};
	struct thermal_snap t;
	const struct snapshot *sn;
	double v, v2;

	memset(&t, 0, sizeof(t));
	if (i >= s->n || !s->parsed[i]) {
		*out = t;
		return;
	}
	sn = &s->s[i];
	v = counter_or_nan(sn, "thermal_transitions");
	if (isnan(v)) {
		v = raw_num(sn->raw, t1);
		v2 = raw_num(sn->raw, t2);
		v = isnan(v) ? v2 : isnan(v2) ? v : v + v2;
	}
	if ((t.has_transitions = !isnan(v) && v >= 0))
		t.transitions = (uint64_t)v;
	v = counter_or_nan(sn, "warning_temp_minutes");
	if (isnan(v))
		v = raw_num(sn->raw, wm);
	if ((t.has_warn_minutes = !isnan(v) && v >= 0))
		t.warn_minutes = (uint64_t)v;
	v = counter_or_nan(sn, "warning_temp_c");
	if (isnan(v))
		v = raw_num(sn->raw, wc);
	if (isnan(v) && (v = raw_num(sn->raw, wk), !isnan(v)))
		v = v > 0 ? units_kelvin_to_celsius(v) : NAN;
	if ((t.has_warning_c = !isnan(v)))
		t.warning_c = v;
	v = counter_or_nan(sn, "temperature_c");
	if ((t.has_temp = !isnan(v)))
		t.temp_c = v;
	v = counter_or_nan(sn, "percentage_used");
	if ((t.has_used = !isnan(v)))
		t.used_pct = v;
	v = counter_or_nan(sn, "available_spare");
	if ((t.has_spare = !isnan(v)))
		t.spare_pct = v;
	*out = t;
}

int reader_csv_column(const char *l, const char *e, const char *name)
{
	size_t len = strlen(name);
	int col = 0;

	for (const char *c = l; c < e; col++) {
		const char *f = memchr(c, ',', (size_t)(e - c));

		if (!f)
			f = e;
		if ((size_t)(f - c) == len && !memcmp(c, name, len))
			return col;
		c = f + 1;
	}
	return -1;
}

/* The hottest temperature_c in one series file; NaN when none (or the file is unreadable). */
static double file_max_temp(const char *path)
{
	char *text = NULL;
	size_t len = 0;
	double max = NAN;
	const char *l, *e;
	int col;

	if (fileio_read_file(path, 0, &text, &len) || !text)
		return NAN;
	e = strchr(text, '\n');
	col = e ? reader_csv_column(text, e, "temperature_c") : -1;
	for (l = e ? e + 1 : NULL; col >= 0 && l && *l; l = e ? e + 1 : NULL) {
		const char *c = l;
		char *end;
		double v;

		e = strchr(l, '\n');
		for (int k = 0; k < col && c; k++) {
			c = strchr(c, ',');
			c = c && (!e || c < e) ? c + 1 : NULL;
		}
		if (!c || *c == ',' || *c == '\n' || !*c)
			continue; /* no temperature in this row */
		v = strtod(c, &end);
		if (end != c && (*end == ',' || *end == '\n' || !*end) && (isnan(max) || v > max))
			max = v;
	}
	free(text);
	return max;
}

double reader_series_max_temp(const char *dir, int64_t phase, int64_t repeat)
{
	char sdir[4096], prefix[64], path[4400];
	struct dirent *de;
	double max = NAN;
	DIR *d;

	snprintf(sdir, sizeof(sdir), "%s/series", dir);
	/* results/runner.c's series_name(): phase-PP-rep-RR-KIND.csv */
	snprintf(prefix, sizeof(prefix), "phase-%02" PRId64 "-rep-%02" PRId64 "-", phase, repeat);
	d = opendir(sdir);
	if (!d)
		return NAN;
	while ((de = readdir(d))) {
		double v;

		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", sdir, de->d_name);
		v = file_max_temp(path);
		if (!isnan(v) && (isnan(max) || v > max))
			max = v;
	}
	closedir(d);
	return max;
}

double reader_records_max_temp(const struct results_records *rr, int64_t phase, int64_t repeat)
{
	double max = NAN;

	for (size_t i = 0; i < rr->n; i++) {
		struct reader_key k;
		double v;

		if (reader_key(rr->rec[i], &k) || k.phase != phase || k.repeat != repeat)
			continue;
		v = jsonget_num(rr->rec[i], "temperature_c");
		if (isfinite(v) && (isnan(max) || v > max))
			max = v;
	}
	return max;
}

int reader_cooldowns(const struct results_records *rr, struct reader_cooldown **out, size_t *n)
{
	struct reader_cooldown *r = calloc(rr->n + 1, sizeof(*r));
	size_t m = 0;

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < rr->n; i++) {
		struct json_object *rec = rr->rec[i], *v;
		struct reader_cooldown *x = &r[m];
		struct reader_key k;
		int64_t w = 0;

		if (reader_key(rec, &k) || strcmp(k.kind, "cooldown"))
			continue;
		x->phase = k.phase;
		x->repeat = k.repeat;
		(void)jsonget_int(rec, "waited_ns", &w);
		x->waited_ns = w > 0 ? (uint64_t)w : 0;
		x->start_c = jsonget_num(rec, "start_c");
		x->end_c = jsonget_num(rec, "end_c");
		x->below_c = jsonget_num(rec, "below_c");
		x->reached = json_object_object_get_ex(rec, "reached", &v) &&
			     json_object_get_boolean(v);
		m++;
	}
	*out = r;
	*n = m;
	return 0;
}
