/* SPDX-License-Identifier: MIT */
/* reader: see reader.h. */
#include "analysis/reader.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/jsonnum.h"

int reader_key(struct json_object *rec, struct reader_key *k)
{
	if (jsonget_int(rec, "phase", &k->phase) || jsonget_int(rec, "repeat", &k->repeat) ||
	    jsonget_int(rec, "round", &k->round) || !(k->kind = jsonget_str(rec, "kind")) ||
	    !(k->cell = jsonget_str(rec, "cell")))
		return -EBADMSG;
	k->phase_kind = jsonget_str(rec, "phase_kind");
	if (!k->phase_kind)
		k->phase_kind = "";
	return 0;
}

bool reader_has_flag(struct json_object *rec, const char *flag)
{
	struct json_object *f;

	if (!json_object_object_get_ex(rec, "flags", &f) ||
	    !json_object_is_type(f, json_type_array))
		return false;
	for (size_t i = 0; i < json_object_array_length(f); i++) {
		const char *s = json_object_get_string(json_object_array_get_idx(f, i));

		if (s && !strcmp(s, flag))
			return true;
	}
	return false;
}

long reader_round_record(const struct results_records *rr, int64_t phase, int64_t repeat,
			 int64_t round, bool last)
{
	long found = -1;

	for (size_t i = 0; i < rr->n; i++) {
		struct reader_key k;

		if (reader_key(rr->rec[i], &k) || k.phase != phase || k.repeat != repeat ||
		    k.round != round || !strcmp(k.kind, "resume"))
			continue;
		found = (long)i;
		if (!last)
			break;
	}
	return found;
}

int reader_figures(struct json_object *rec, struct hist *h0, struct hist *h1,
		   struct cells_figures *f)
{
	static const char *const dirkey[2] = {"read", "write"};
	struct cells_figures r = {.h = {h0, h1}};
	struct hist *h[2] = {h0, h1};

	if (jsonnum_get_u64(rec, "elapsed_ns", &r.elapsed_ns) ||
	    jsonget_int(rec, "round", &r.round))
		return -EBADMSG;
	for (int d = 0; d < 2; d++) {
		struct json_object *o, *hj;

		if (!json_object_object_get_ex(rec, dirkey[d], &o) ||
		    jsonnum_get_u64(o, "ios", &r.ios[d]) ||
		    jsonnum_get_u64(o, "bytes", &r.bytes[d]) ||
		    !json_object_object_get_ex(o, "hist", &hj) || hist_from_json(hj, h[d]))
			return -EBADMSG;
	}
	(void)jsonnum_get(rec, "cpu_user_s", &r.cpu_user_s);
	(void)jsonnum_get(rec, "cpu_sys_s", &r.cpu_sys_s);
	r.host_limited = reader_has_flag(rec, "host_limited");
	r.io_error = json_object_object_get_ex(rec, "error", NULL);
	*f = r;
	return 0;
}

/* A raw counter value: a number, or a decimal string (64-bit values past a double's exact range
 * are written as strings); NaN otherwise. */
static double raw_number(struct json_object *v)
{
	const char *str;
	char *end;
	double d;

	if (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double))
		return json_object_get_double(v);
	if (!json_object_is_type(v, json_type_string))
		return NAN;
	str = json_object_get_string(v);
	d = strtod(str, &end);
	return end != str && !*end ? d : NAN;
}

/* The drive part of a snapshot's raw (struct reader_drive); 0 or -ENOMEM. */
static int drive_of(struct json_object *raw, struct reader_drive *d)
{
	struct json_object *db, *x, *cand;

	if (!raw || !json_object_is_type(raw, json_type_object))
		return 0;
	if (json_object_object_get_ex(raw, "drivedb", &db) &&
	    json_object_is_type(db, json_type_object)) {
		d->has_drivedb = true;
		d->drivedb_name = jsonget_str(db, "name");
		d->compresses = json_object_object_get_ex(db, "compresses", &x) &&
				json_object_get_boolean(x);
		if (json_object_object_get_ex(db, "unverified", &x) &&
		    json_object_is_type(x, json_type_array))
			d->unverified = json_object_array_length(x);
	}
	d->no_nand_reason = jsonget_str(raw, "no_nand_reason");
	if (!json_object_object_get_ex(raw, "host_write_candidates", &cand) ||
	    !json_object_is_type(cand, json_type_object) || !json_object_object_length(cand))
		return 0;
	d->cand = calloc((size_t)json_object_object_length(cand), sizeof(*d->cand));
	if (!d->cand)
		return -ENOMEM;
	json_object_object_foreach(cand, key, val)
	{
		double v = raw_number(val);

		if (isfinite(v))
			d->cand[d->ncand++] = (struct reader_candidate){.counter = key, .raw = v};
	}
	return 0;
}

void reader_snaps_release(struct reader_snaps *s)
{
	if (!s)
		return;
	for (size_t i = 0; s->s && i < s->n; i++)
		if (s->parsed[i])
			snapshot_release(&s->s[i]);
	free(s->at);
	free(s->t);
	free(s->has_t);
	free(s->seq);
	free(s->parsed);
	free(s->s);
	for (size_t i = 0; s->drive && i < s->n; i++)
		free(s->drive[i].cand);
	free(s->drive);
	memset(s, 0, sizeof(*s));
}

int reader_snaps_load(const struct results_snapshots *in, struct reader_snaps *out)
{
	struct reader_snaps r = {.n = in->n};
	size_t n = in->n ? in->n : 1;

	r.at = calloc(n, sizeof(*r.at));
	r.t = calloc(n, sizeof(*r.t));
	r.has_t = calloc(n, sizeof(*r.has_t));
	r.seq = calloc(n, sizeof(*r.seq));
	r.parsed = calloc(n, sizeof(*r.parsed));
	r.s = calloc(n, sizeof(*r.s));
	r.drive = calloc(n, sizeof(*r.drive));
	if (!r.at || !r.t || !r.has_t || !r.seq || !r.parsed || !r.s || !r.drive) {
		reader_snaps_release(&r);
		return -ENOMEM;
	}
	for (size_t i = 0; i < in->n; i++) {
		struct json_object *o = in->snap[i];
		const char *l = jsonget_str(o, "label");
		size_t len = l ? strlen(l) : 0;

		if (jsonget_int(o, "phase", &r.at[i].phase) || r.at[i].phase < 0)
			r.at[i].phase = -1;
		r.at[i].has_repeat = !jsonget_int(o, "repeat", &r.at[i].repeat);
		r.at[i].ramp_end = len >= 8 && !strcmp(l + len - 8, "ramp-end");
		r.at[i].start = len >= 6 && !strcmp(l + len - 6, "-start");
		r.has_t[i] = !jsonnum_get_u64(o, "target_ns", &r.t[i]);
		if (jsonget_int(o, "seq", &r.seq[i]))
			r.seq[i] = -1;
		r.parsed[i] = !snapshot_from_json(o, &r.s[i]);
		if (r.parsed[i] && drive_of(r.s[i].raw, &r.drive[i])) {
			reader_snaps_release(&r);
			return -ENOMEM;
		}
	}
	*out = r;
	return 0;
}

void reader_series_release(struct reader_series *s)
{
	if (!s)
		return;
	free(s->y);
	free(s->round);
	memset(s, 0, sizeof(*s));
}

int reader_series(const struct results_records *rr, int64_t phase, int64_t repeat, const char *cell,
		  const char *metric, struct reader_series *out)
{
	struct reader_series r = {0};
	int rc;

	r.y = calloc(rr->n + 1, sizeof(*r.y));
	r.round = calloc(rr->n + 1, sizeof(*r.round));
	if (!r.y || !r.round) {
		reader_series_release(&r);
		return -ENOMEM;
	}
	for (size_t i = 0; i < rr->n; i++) {
		struct json_object *rec = rr->rec[i];
		struct reader_key k;
		double v;

		if (reader_key(rec, &k) || strcmp(k.kind, "cell") || k.phase != phase ||
		    k.repeat != repeat || strcmp(k.cell, cell))
			continue;
		rc = results_record_metric(rec, metric, &v);
		if (rc == -EINVAL) {
			reader_series_release(&r);
			return rc;
		}
		r.y[r.n] = rc ? NAN : v;
		r.round[r.n++] = k.round;
	}
	*out = r;
	return 0;
}

size_t reader_guard_wa(const struct results_records *rr, int64_t phase, int64_t repeat,
		       const char *cell, double *wa, size_t n)
{
	size_t j = 0, with = 0;

	for (size_t i = 0; i < rr->n && j < n; i++) {
		struct json_object *rec = rr->rec[i], *o, *h, *b;
		struct reader_key k;

		if (reader_key(rec, &k) || strcmp(k.kind, "cell") || k.phase != phase ||
		    k.repeat != repeat || strcmp(k.cell, cell))
			continue;
		wa[j] = NAN;
		if (json_object_object_get_ex(rec, "wa_guard_counters", &o) && o) {
			with++;
			if (json_object_object_get_ex(o, "host_bytes", &h) && h &&
			    json_object_object_get_ex(o, "nand_bytes", &b) && b &&
			    json_object_get_double(h) > 0)
				wa[j] = json_object_get_double(b) / json_object_get_double(h);
		}
		j++;
	}
	return with;
}

int reader_write_until(const struct results_records *rr, int64_t phase, int64_t repeat,
		       struct reader_chunks *out)
{
	struct reader_chunks r = {.first_scale = NAN};

	r.c = calloc(rr->n + 1, sizeof(*r.c));
	if (!r.c)
		return -ENOMEM;
	for (size_t i = 0; i < rr->n; i++) {
		struct json_object *rec = rr->rec[i], *tot;
		struct reader_key k;
		struct wsat_chunk x;

		if (reader_key(rec, &k) || strcmp(k.kind, "write_until") || k.phase != phase ||
		    k.repeat != repeat || jsonnum_get_u64(rec, "bytes_written_total", &x.bytes) ||
		    jsonnum_get_u64(rec, "elapsed_ns", &x.elapsed_ns) ||
		    !json_object_object_get_ex(rec, "total", &tot) ||
		    jsonnum_get_u64(tot, "ios", &x.ios))
			continue;
		if (!r.n && jsonnum_get(rec, "time_scale", &r.first_scale))
			r.first_scale = NAN;
		if (results_record_metric(rec, "lat_mean", &x.lat_mean_ns))
			x.lat_mean_ns = NAN;
		r.c[r.n++] = x;
	}
	*out = r;
	return 0;
}

int reader_recovery(const struct results_records *rr, size_t idle, const char *cell,
		    const char *metric, struct reader_recovery *out)
{
	struct reader_recovery r = {.first_phase = -1, .first_scale = NAN};
	size_t cap = 0;

	for (size_t i = idle + 1; i < rr->n; i++) {
		struct json_object *rec = rr->rec[i];
		struct reader_key k;
		struct recovery_point *pt;
		double v;

		if (reader_key(rec, &k))
			continue;
		if (!strcmp(k.kind, "idle"))
			break;
		if ((strcmp(k.kind, "cell") || strcmp(k.cell, cell)) &&
		    strcmp(k.kind, "write_until"))
			continue;
		if (results_record_metric(rec, metric, &v))
			continue;
		if (r.n == cap) {
			size_t nc = cap ? 2 * cap : 16;
			struct recovery_point *np = realloc(r.p, nc * sizeof(*np));

			if (!np) {
				free(r.p);
				return -ENOMEM;
			}
			r.p = np;
			cap = nc;
		}
		if (!r.n) {
			r.first_phase = k.phase;
			if (jsonnum_get(rec, "time_scale", &r.first_scale))
				r.first_scale = NAN;
		}
		pt = &r.p[r.n++];
		*pt = (struct recovery_point){.value = v, .round = k.round};
		(void)jsonnum_get_u64(rec, "elapsed_ns", &pt->write_ns);
		{
			uint64_t ramp = 0;

			(void)jsonnum_get_u64(rec, "ramp_ns", &ramp);
			pt->write_ns += ramp;
		}
		(void)jsonnum_get_u64(rec, "bytes_written_total", &pt->write_bytes);
	}
	*out = r;
	return 0;
}

/* Whether rec has a key (into *k) and is of kind `kind`: the filter of the walks below. */
static bool kind_record(struct json_object *rec, const char *kind, struct reader_key *k)
{
	return !reader_key(rec, k) && !strcmp(k->kind, kind);
}

int reader_notes(const struct results_records *rr, struct reader_note **out, size_t *n)
{
	struct reader_note *r = calloc(rr->n + 1, sizeof(*r));
	size_t m = 0;

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < rr->n; i++) {
		struct json_object *rec = rr->rec[i];
		struct reader_note *x = &r[m];

		if (reader_key(rec, &x->k))
			continue;
		x->error = json_object_object_get_ex(rec, "error", NULL);
		x->no_io = reader_has_flag(rec, "no_io");
		x->no_io_reason = jsonget_str(rec, "no_io_reason");
		x->host_limited = reader_has_flag(rec, "host_limited");
		m++;
	}
	*out = r;
	*n = m;
	return 0;
}

int reader_resumes(const struct results_records *rr, struct reader_resume **out, size_t *n)
{
	struct reader_resume *r = calloc(rr->n + 1, sizeof(*r));
	size_t m = 0;

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < rr->n; i++) {
		struct json_object *rec = rr->rec[i], *v;
		struct reader_resume *x = &r[m];
		struct reader_key k;

		if (!kind_record(rec, "resume", &k))
			continue;
		x->phase = k.phase;
		x->repeat = k.repeat;
		x->round = k.round;
		x->has_gap_wall = !jsonnum_get_u64(rec, "gap_wall_ns", &x->gap_wall_ns);
		x->has_gap_target = !jsonnum_get_u64(rec, "gap_target_ns", &x->gap_target_ns);
		x->has_steps_replayed = !jsonnum_get_u64(rec, "steps_replayed", &x->steps_replayed);
		x->has_sim_replayed = json_object_object_get_ex(rec, "sim_replayed", &v) &&
				      json_object_is_type(v, json_type_boolean);
		x->sim_replayed = x->has_sim_replayed && json_object_get_boolean(v);
		m++;
	}
	*out = r;
	*n = m;
	return 0;
}

int reader_purges(const struct results_records *rr, struct reader_purge **out, size_t *n)
{
	struct reader_purge *r = calloc(rr->n + 1, sizeof(*r));
	size_t m = 0;

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < rr->n; i++) {
		struct json_object *rec = rr->rec[i], *v;
		struct reader_purge *x = &r[m];
		struct reader_key k;

		if (!kind_record(rec, "purge", &k))
			continue;
		x->phase = k.phase;
		x->repeat = k.repeat;
		x->method = jsonget_str(rec, "method");
		x->pts_purge = json_object_object_get_ex(rec, "pts_purge", &v)
				   ? json_object_get_boolean(v) != 0
				   : -1;
		(void)jsonget_int(rec, "settle_ns", &x->settle_ns);
		m++;
	}
	*out = r;
	*n = m;
	return 0;
}

void reader_reads_unmapped(const struct results_records *rr, struct reader_unmapped *out)
{
	struct reader_unmapped r = {0};

	for (size_t i = 0; i < rr->n; i++) {
		struct json_object *x;
		uint64_t b, ob;

		if (!json_object_object_get_ex(rr->rec[i], "reads_unmapped", &x) ||
		    jsonnum_get_u64(x, "bytes", &b) || jsonnum_get_u64(x, "of_bytes", &ob))
			continue;
		r.records++;
		r.records_with_unmapped += b > 0;
		r.bytes += b;
		r.of_bytes += ob;
	}
	*out = r;
}

int reader_round_span(const struct results_records *rr, int64_t phase, int64_t repeat, int64_t lo,
		      int64_t hi, uint64_t *t0, uint64_t *t1)
{
	long ra = reader_round_record(rr, phase, repeat, lo, false),
	     rb = reader_round_record(rr, phase, repeat, hi, true);
	uint64_t a, b;

	if (ra < 0 || rb < 0 || jsonnum_get_u64(rr->rec[ra], "start_ns", &a) ||
	    jsonnum_get_u64(rr->rec[rb], "end_ns", &b))
		return -ENOENT;
	*t0 = a;
	*t1 = b;
	return 0;
}

int reader_idles(const struct results_records *rr, struct reader_idle **out, size_t *n)
{
	struct reader_idle *r = calloc(rr->n + 1, sizeof(*r));
	size_t m = 0;

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < rr->n; i++) {
		struct json_object *rec = rr->rec[i];
		struct reader_idle *x = &r[m];
		struct reader_key k;

		if (!kind_record(rec, "idle", &k))
			continue;
		*x = (struct reader_idle){.index = i, .phase = k.phase, .repeat = k.repeat,
					  .time_scale = 1};
		(void)jsonnum_get_u64(rec, "idle_ns", &x->idle_ns);
		(void)jsonnum_get(rec, "time_scale", &x->time_scale);
		m++;
	}
	*out = r;
	*n = m;
	return 0;
}

int reader_write_until_phases(const struct results_records *rr, struct reader_phase **out,
			      size_t *n)
{
	struct reader_phase *r = calloc(rr->n + 1, sizeof(*r));
	size_t m = 0;

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < rr->n; i++) {
		struct reader_key k;
		size_t j;

		if (!kind_record(rr->rec[i], "write_until", &k))
			continue;
		for (j = 0; j < m && (r[j].phase != k.phase || r[j].repeat != k.repeat); j++)
			;
		if (j == m)
			r[m++] = (struct reader_phase){k.phase, k.repeat};
	}
	*out = r;
	*n = m;
	return 0;
}

int reader_measurements(const struct results_records *rr, struct reader_measurement **out,
			size_t *n)
{
	struct reader_measurement *r = calloc(rr->n + 1, sizeof(*r));
	size_t m = 0;

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < rr->n; i++) {
		struct json_object *rec = rr->rec[i];
		struct reader_measurement *x = &r[m];

		if (reader_key(rec, &x->k) || !json_object_object_get_ex(rec, "elapsed_ns", NULL))
			continue;
		x->index = i;
		x->not_applicable = jsonget_str(rec, "not_applicable");
		for (unsigned j = 0; j < RESULTS_NMETRICS; j++)
			if (results_record_metric(rec, results_metric_def((enum results_metric)j)->name,
						  &x->metric[j]))
				x->metric[j] = NAN;
		m++;
	}
	*out = r;
	*n = m;
	return 0;
}

int reader_figures_at(const struct results_records *rr, size_t index, struct hist *h0,
		      struct hist *h1, struct cells_figures *f)
{
	if (index >= rr->n)
		return -EBADMSG;
	return reader_figures(rr->rec[index], h0, h1, f);
}

int reader_bytes_written(const struct results_records *rr, int64_t phase, int64_t repeat, bool all,
			 bool has_from_t, uint64_t from_t, double *bytes, size_t *records)
{
	double sum = 0;
	size_t n = 0;

	for (size_t i = 0; i < rr->n; i++) {
		struct json_object *rec = rr->rec[i], *w;
		struct reader_key k;
		uint64_t total, start, measured;

		if (reader_key(rec, &k) || jsonnum_get_u64(rec, "bytes_written_total", &total))
			continue;
		if (!all && (k.phase != phase || k.repeat != repeat))
			continue;
		/* Its ramp ran before the span's first snapshot: only the measured part is inside. */
		if (has_from_t && !jsonnum_get_u64(rec, "start_ns", &start) && start < from_t) {
			if (!json_object_object_get_ex(rec, "write", &w) ||
			    jsonnum_get_u64(w, "bytes", &measured))
				continue;
			total = measured;
		}
		sum += (double)total;
		/* the pre-writes before it, which have no record of their own (runner.c) */
		if (!jsonnum_get_u64(rec, "pre_write_bytes", &total))
			sum += (double)total;
		n++;
	}
	if (!n)
		return -ENODATA;
	*bytes = sum;
	*records = n;
	return 0;
}

int reader_written_since_purge(const struct results_records *rr, int64_t phase, int64_t repeat,
			       int64_t round, double *bytes, bool *purged)
{
	double sum = 0;
	bool seen = false;
	long end = -1;

	for (size_t i = 0; i < rr->n; i++) {
		struct reader_key k;

		if (!reader_key(rr->rec[i], &k) && k.phase == phase && k.repeat == repeat &&
		    k.round == round)
			end = (long)i;
	}
	if (end < 0)
		return -ENODATA;
	for (long i = 0; i <= end; i++) {
		struct json_object *rec = rr->rec[i], *kind;
		uint64_t v;

		if (json_object_object_get_ex(rec, "kind", &kind) && kind &&
		    !strcmp(json_object_get_string(kind), "purge")) {
			sum = 0;
			seen = true;
			continue;
		}
		if (!jsonnum_get_u64(rec, "bytes_written_total", &v))
			sum += (double)v;
		if (!jsonnum_get_u64(rec, "pre_write_bytes", &v))
			sum += (double)v;
	}
	*bytes = sum;
	*purged = seen;
	return 0;
}
