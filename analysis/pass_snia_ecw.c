/* SPDX-License-Identifier: MIT */
/*
 * pass_snia_ecw: the SNIA ECW block of summary.json's "snia" (issue 16 point 4), for a run whose
 * manifest says pts.test "ecw" (pass_snia.c leaves those to this pass). One block per rounds
 * phase: the preconditioning phase (cells without TC x QD coordinates: its IOPS and mean
 * response time per round) and the TOIO phase (per TC x QD point in run order: IOPS averaged
 * over the rounds, response times from the histograms merged over the rounds, the merged
 * histogram itself; the same per TC against TOIO; the highest IOPS and TC1/QD1). The header
 * copies the manifest's pts settings and the sizes a 4Kn device could not run
 * (pts.bs_not_applicable). Figures come from the reader's typed arrays and snia_ecw.h.
 */
#include "analysis/pass.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/hist.h"
#include "base/jsonget.h"
#include "base/jsonnum.h"
#include "analysis/reader.h"
#include "analysis/snia.h"
#include "analysis/snia_ecw.h"

/* The manifest's "pts" keys copied into the header, in the manifest's order. */
static const char *const pts_keys[] = {"spec", "variant", "active_range", "write_cache",
				       "data_pattern", "bs_not_applicable"};

/* jsonnum_build_add(), with v NULL meaning a JSON null (a figure that does not exist). */
static void add_or_null(struct json_object *o, const char *key, struct json_object *v, int *e)
{
	if (v)
		jsonnum_build_add(o, key, v, e);
	else if (!*e && jsonnum_add(o, key, NULL))
		*e = -ENOMEM;
}

/* The same for an array. */
static void push_or_null(struct json_object *a, struct json_object *v, int *e)
{
	if (v)
		jsonnum_build_push(a, v, e);
	else if (!*e && jsonnum_push(a, NULL))
		*e = -ENOMEM;
}

static struct json_object *header_json(const struct analyze_input *in, struct json_object *pts)
{
	struct json_object *h = json_object_new_object(), *o, *tgt = NULL;
	const char *name = NULL;
	int e = 0;

	if (json_object_object_get_ex(in->manifest, "profile", &o))
		name = jsonget_str(o, "name");
	add_or_null(h, "profile", name ? json_object_new_string(name) : NULL, &e);
	for (size_t i = 0; i < sizeof(pts_keys) / sizeof(*pts_keys); i++) {
		o = NULL;
		(void)json_object_object_get_ex(pts, pts_keys[i], &o);
		add_or_null(h, pts_keys[i], json_object_get(o), &e);
	}
	(void)json_object_object_get_ex(in->manifest, "target", &tgt);
	o = NULL;
	if (tgt)
		(void)json_object_object_get_ex(tgt, "logical_block_size", &o);
	add_or_null(h, "logical_block_size", json_object_get(o), &e);
	if (e) {
		json_object_put(h);
		return NULL;
	}
	return h;
}

/* The response times of h into o (snia_latency(): samples, mean, max, the tail percentiles). */
static void lat_json(struct json_object *o, const struct hist *h, int *e)
{
	struct snia_lat l;

	snia_latency(h, &l);
	jsonnum_build_add(o, "samples", json_object_new_uint64(l.samples), e);
	jsonnum_build_num(o, "lat_mean_ns", l.mean_ns, e);
	add_or_null(o, "lat_max_ns", l.samples ? json_object_new_uint64(l.max_ns) : NULL, e);
	for (int i = 0; i < SNIA_NPCT; i++) {
		char key[32];

		snprintf(key, sizeof(key), "lat_%s_ns", l.pct[i].key);
		add_or_null(o, key, l.samples ? json_object_new_uint64(l.pct[i].ns) : NULL, e);
	}
}

/* The preconditioning block: IOPS and mean response time of each round's one cell. */
static int precondition_block(const struct analyze_input *in, const struct reader_measurement *ms,
			      const size_t *idx, size_t n, struct json_object *b)
{
	struct json_object *a = json_object_new_array();
	struct hist *h = calloc(2, sizeof(*h));
	int e = 0, rc = 0;

	if (!h) {
		json_object_put(a);
		return -ENOMEM;
	}
	jsonnum_build_add(b, "stage", json_object_new_string("precondition"), &e);
	for (size_t i = 0; i < n && !rc; i++) {
		const struct reader_measurement *m = &ms[idx[i]];
		struct json_object *r = json_object_new_object();
		struct cells_figures f;

		rc = reader_figures_at(&in->records, m->index, &h[0], &h[1], &f);
		hist_merge(&h[0], &h[1]);
		jsonnum_build_add(r, "round", json_object_new_int64(m->k.round), &e);
		jsonnum_build_add(r, "cell", json_object_new_string(m->k.cell), &e);
		jsonnum_build_num(r, "iops", m->metric[RESULTS_METRIC_IOPS], &e);
		jsonnum_build_num(r, "lat_mean_ns", h[0].count ? h[0].sum / (double)h[0].count : NAN,
				  &e);
		jsonnum_build_push(a, r, &e);
	}
	jsonnum_build_add(b, "rounds", a, &e);
	free(h);
	return rc ? rc : e;
}

/* One TOIO point's row: IOPS over the rounds, the merged histogram's figures and bins. */
static int point_row(const struct analyze_input *in, const struct reader_measurement *ms,
		     const size_t *idx, size_t n, const struct ecw_point *p, struct hist *h,
		     struct json_object **out)
{
	struct json_object *r = json_object_new_object();
	int e = 0, rc = 0;

	/* h[0], h[1]: one record's; h[2] reads, h[3] writes, h[4] both, over the rounds */
	for (int i = 2; i < 5; i++)
		hist_init(&h[i]);
	for (size_t i = 0; i < n && !rc; i++) {
		const struct reader_measurement *m = &ms[idx[i]];
		struct cells_figures f;
		unsigned t, q;

		if (ecw_cell_toio(m->k.cell, &t, &q) || t != p->threads || q != p->qd ||
		    m->not_applicable)
			continue;
		rc = reader_figures_at(&in->records, m->index, &h[0], &h[1], &f);
		hist_merge(&h[2], &h[0]);
		hist_merge(&h[3], &h[1]);
	}
	hist_merge(&h[4], &h[2]);
	hist_merge(&h[4], &h[3]);
	jsonnum_build_add(r, "threads", json_object_new_int64(p->threads), &e);
	jsonnum_build_add(r, "qd", json_object_new_int64(p->qd), &e);
	jsonnum_build_add(r, "toio", json_object_new_int64((int64_t)p->threads * p->qd), &e);
	jsonnum_build_add(r, "rounds", json_object_new_uint64(p->rounds), &e);
	jsonnum_build_num(r, "iops", p->iops, &e);
	lat_json(r, &h[4], &e);
	jsonnum_build_num(r, "read_lat_mean_ns", h[2].count ? h[2].sum / (double)h[2].count : NAN,
			  &e);
	jsonnum_build_num(r, "write_lat_mean_ns",
			  h[3].count ? h[3].sum / (double)h[3].count : NAN, &e);
	jsonnum_build_add(r, "hist", hist_to_json(&h[4]), &e);
	if (rc || e) {
		json_object_put(r);
		return rc ? rc : e;
	}
	*out = r;
	return 0;
}

/* Per TC, its points against TOIO (QD ascending): the Demand Variation / Intensity curves. */
static struct json_object *by_tc_json(const struct ecw_point *p, struct json_object **rows,
				      size_t np, int *e)
{
	struct json_object *a = json_object_new_array();

	for (int l = 0; l < ECW_NLEVELS; l++) {
		unsigned tc = ecw_levels[l];
		struct json_object *s = NULL, *toio = NULL, *iops = NULL, *lat = NULL;

		for (size_t i = np; i-- > 0;) { /* run order is QD high to low: walk it back */
			if (p[i].threads != tc)
				continue;
			if (!s) {
				s = json_object_new_object();
				toio = json_object_new_array();
				iops = json_object_new_array();
				lat = json_object_new_array();
			}
			jsonnum_build_push(toio, json_object_new_int64((int64_t)tc * p[i].qd), e);
			push_or_null(iops, jsonnum_new(p[i].iops), e);
			push_or_null(lat, json_object_get(json_object_object_get(rows[i], "lat_mean_ns")),
				     e);
		}
		if (!s)
			continue;
		jsonnum_build_add(s, "threads", json_object_new_int64(tc), e);
		jsonnum_build_add(s, "toio", toio, e);
		jsonnum_build_add(s, "iops", iops, e);
		jsonnum_build_add(s, "lat_mean_ns", lat, e);
		jsonnum_build_push(a, s, e);
	}
	return a;
}

static struct json_object *point_ref(const struct ecw_point *p, struct json_object *row, int *e)
{
	struct json_object *o = json_object_new_object();

	jsonnum_build_add(o, "threads", json_object_new_int64(p->threads), e);
	jsonnum_build_add(o, "qd", json_object_new_int64(p->qd), e);
	jsonnum_build_add(o, "toio", json_object_new_int64((int64_t)p->threads * p->qd), e);
	jsonnum_build_num(o, "iops", p->iops, e);
	add_or_null(o, "lat_mean_ns", json_object_get(json_object_object_get(row, "lat_mean_ns")),
		    e);
	return o;
}

/* The TOIO block: the points (n measurements of the phase, idx into ms). */
static int toio_block(const struct analyze_input *in, const struct reader_measurement *ms,
		      const size_t *idx, size_t n, struct json_object *b)
{
	struct ecw_cell *c = calloc(n ? n : 1, sizeof(*c));
	struct ecw_point *p = calloc(n ? n : 1, sizeof(*p));
	struct json_object **rows = calloc(n ? n : 1, sizeof(*rows)), *pts = NULL;
	struct hist *h = calloc(5, sizeof(*h));
	size_t nc = 0, np = 0;
	int64_t rounds = 0;
	long best;
	int e = 0, rc = -ENOMEM;

	if (!c || !p || !rows || !h)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const struct reader_measurement *m = &ms[idx[i]];
		unsigned t, q;

		if (ecw_cell_toio(m->k.cell, &t, &q))
			continue;
		c[nc++] = (struct ecw_cell){t, q, m->k.round,
					    m->not_applicable ? NAN : m->metric[RESULTS_METRIC_IOPS]};
		if (m->k.round > rounds)
			rounds = m->k.round;
	}
	rc = ecw_points(c, nc, p, &np);
	if (rc)
		goto out;
	pts = json_object_new_array();
	for (size_t i = 0; i < np; i++) {
		rc = point_row(in, ms, idx, n, &p[i], h, &rows[i]);
		if (rc)
			goto out;
		jsonnum_build_push(pts, json_object_get(rows[i]), &e);
	}
	jsonnum_build_add(b, "stage", json_object_new_string("toio"), &e);
	jsonnum_build_add(b, "rounds", json_object_new_int64(rounds), &e);
	jsonnum_build_add(b, "points", pts, &e);
	pts = NULL;
	jsonnum_build_add(b, "by_tc", by_tc_json(p, rows, np, &e), &e);
	best = ecw_max_point(p, np);
	add_or_null(b, "max_iops", best < 0 ? NULL : point_ref(&p[best], rows[best], &e), &e);
	{
		long one = -1;

		for (size_t i = 0; i < np; i++)
			if (p[i].threads == 1 && p[i].qd == 1)
				one = (long)i;
		add_or_null(b, "tc1_qd1", one < 0 ? NULL : point_ref(&p[one], rows[one], &e), &e);
	}
	rc = e;
out:
	json_object_put(pts);
	for (size_t i = 0; rows && i < np; i++)
		json_object_put(rows[i]);
	free(rows);
	free(h);
	free(p);
	free(c);
	return rc;
}

int pass_snia_ecw(const struct analyze_input *in, struct json_object *summary, char *err,
		  size_t errlen)
{
	struct json_object *arr, *pts = NULL;
	struct reader_measurement *ms = NULL;
	size_t nms = 0, *idx = NULL;
	int rc = -ENOMEM;

	(void)err;
	(void)errlen;
	if (!json_object_object_get_ex(in->manifest, "pts", &pts) ||
	    !json_object_is_type(pts, json_type_object) ||
	    strcmp(jsonget_str(pts, "test") ? jsonget_str(pts, "test") : "", "ecw"))
		return 0;
	if (!json_object_object_get_ex(summary, "snia", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return 0; /* pass_snia adds the array; without it there is no place for a block */
	if (reader_measurements(&in->records, &ms, &nms))
		return -ENOMEM;
	idx = calloc(nms + 1, sizeof(*idx));
	if (!idx)
		goto out;
	/* One block per rounds phase (phase, repeat), in the order the records have them. */
	for (size_t i = 0; i < nms; i++) {
		const struct reader_key *k = &ms[i].k;
		struct json_object *b;
		size_t n = 0;
		bool seen = false, toio = false;
		unsigned t, q;
		int e = 0;

		if (strcmp(k->kind, "cell"))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(ms[j].k.kind, "cell") && ms[j].k.phase == k->phase &&
			       ms[j].k.repeat == k->repeat;
		if (seen)
			continue;
		for (size_t j = i; j < nms; j++)
			if (!strcmp(ms[j].k.kind, "cell") && ms[j].k.phase == k->phase &&
			    ms[j].k.repeat == k->repeat) {
				idx[n++] = j;
				toio |= !ecw_cell_toio(ms[j].k.cell, &t, &q);
			}
		b = json_object_new_object();
		if (json_object_array_add(arr, b) || !b) {
			json_object_put(b);
			goto out;
		}
		jsonnum_build_add(b, "test", json_object_new_string("ecw"), &e);
		jsonnum_build_add(b, "phase", json_object_new_int64(k->phase), &e);
		jsonnum_build_add(b, "repeat", json_object_new_int64(k->repeat), &e);
		jsonnum_build_add(b, "header", header_json(in, pts), &e);
		if (e)
			goto out;
		rc = toio ? toio_block(in, ms, idx, n, b) : precondition_block(in, ms, idx, n, b);
		if (rc)
			goto out;
		rc = -ENOMEM;
	}
	rc = 0;
out:
	free(idx);
	free(ms);
	return rc;
}
