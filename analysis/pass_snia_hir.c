/* SPDX-License-Identifier: MIT */
/*
 * pass_snia_hir: the host idle recovery block of summary.json's "snia" (issue 16 point 1), for
 * a run whose manifest says pts.test "hir" (or a snia-hir* profile): the steady-state IOPS of
 * the preconditioning (the steady_state entry of the last rounds phase before the first burst),
 * per wait state the mean IOPS of its bursts with the per-burst series, the wait as written and
 * as applied, and IOPS against time over every burst and every chunk of the returns to the
 * baseline. pass_snia.c leaves the test to this pass (its own tests do not include hir); the
 * block is appended to the "snia" array pass_snia made. Numbers: reader_hir_points (reader.h)
 * and the pure hir_states (hir.h).
 */
#include "analysis/pass.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/jsonnum.h"
#include "analysis/hir.h"
#include "analysis/reader.h"

#define RULE                                                                                       \
	"steady_iops: the average of the steady-state window of the last rounds phase before the " \
	"first burst (not_reached: its last window, as the PTS allows); a wait state: the bursts " \
	"of one bursts phase, its mean_iops the mean of its bursts' IOPS (I/Os over the measured " \
	"time of each burst); of_steady: mean_iops / steady_iops"

/* Whether the run is a HIR test: manifest pts.test "hir", else a profile named snia-hir*. */
static bool is_hir(struct json_object *m)
{
	struct json_object *o;
	const char *s = NULL;

	if (json_object_object_get_ex(m, "pts", &o) && json_object_is_type(o, json_type_object))
		return (s = jsonget_str(o, "test")) && !strcmp(s, "hir");
	if (json_object_object_get_ex(m, "profile", &o))
		s = jsonget_str(o, "name");
	return s && !strncmp(s, "snia-hir", 8);
}

/* Member key of src copied into dst (JSON null when absent). */
static void copy_key(struct json_object *dst, struct json_object *src, const char *key,
		     const char *as, int *e)
{
	struct json_object *v = NULL;

	if (src && json_object_object_get_ex(src, key, &v) && v)
		jsonnum_build_add(dst, as, json_object_get(v), e);
	else
		jsonnum_build_num(dst, as, NAN, e);
}

/* The test header: the profile, the pts settings as applied, the power states in force. */
static struct json_object *header(struct json_object *m, int *e)
{
	struct json_object *h = json_object_new_object(), *pts = NULL, *prof = NULL, *ds = NULL;
	static const char *const keys[] = {"spec", "variant", "write_cache", "toio",
					   "data_pattern"};

	(void)json_object_object_get_ex(m, "pts", &pts);
	(void)json_object_object_get_ex(m, "profile", &prof);
	(void)json_object_object_get_ex(m, "drive_settings", &ds);
	copy_key(h, prof, "name", "profile", e);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		copy_key(h, pts, keys[i], keys[i], e);
	/* {profile, as_found, readback[, note]} as the runner recorded them (manifest) */
	copy_key(h, ds, "power_states", "power_states", e);
	return h;
}

/* The steady-state entry of the last rounds phase before `phase`, or NULL. */
static struct json_object *ss_before(struct json_object *summary, int64_t phase)
{
	struct json_object *arr, *best = NULL;
	int64_t bp = -1;

	if (!json_object_object_get_ex(summary, "steady_state", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *s = json_object_array_get_idx(arr, i);
		int64_t p;

		if (!jsonget_int(s, "phase", &p) && p < phase && p > bp) {
			bp = p;
			best = s;
		}
	}
	return best;
}

static struct json_object *state_json(const struct hir_state *s, const struct hir_point *p, int *e)
{
	struct json_object *o = json_object_new_object(), *ser = json_object_new_object();
	struct json_object *rnd = json_object_new_array(), *iops = json_object_new_array();
	struct json_object *wait = json_object_new_array();

	jsonnum_build_add(o, "phase", json_object_new_int64(s->phase), e);
	jsonnum_build_add(o, "repeat", json_object_new_int64(s->repeat), e);
	jsonnum_build_add(o, "wait_profile_ns", json_object_new_uint64(s->wait_profile_ns), e);
	jsonnum_build_add(o, "wait_ns", json_object_new_uint64(s->wait_ns), e);
	jsonnum_build_add(o, "wait_floored", json_object_new_boolean(s->floored), e);
	jsonnum_build_add(o, "bursts", json_object_new_uint64(s->n), e);
	jsonnum_build_num(o, "mean_iops", s->mean_iops, e);
	jsonnum_build_num(o, "of_steady", s->of_steady, e);
	for (size_t i = s->first; i < s->first + s->n; i++) {
		jsonnum_build_push(rnd, json_object_new_int64(p[i].round), e);
		jsonnum_build_push(iops, jsonnum_new(p[i].iops), e);
		jsonnum_build_push(wait, json_object_new_uint64(p[i].wait_ns), e);
	}
	jsonnum_build_add(ser, "burst", rnd, e);
	jsonnum_build_add(ser, "iops", iops, e);
	jsonnum_build_add(ser, "wait_ns", wait, e);
	jsonnum_build_add(o, "series", ser, e);
	return o;
}

/* IOPS against time over every point: t_ns from the first burst's start to a record's end. */
static struct json_object *time_json(const struct hir_point *p, size_t n, int *e)
{
	struct json_object *o = json_object_new_object();
	static const char *const cols[5] = {"t_ns", "t_profile_ns", "iops", "phase", "kind"};
	struct json_object *c[5];
	uint64_t t0 = n ? p[0].start_ns : 0;

	for (int i = 0; i < 5; i++)
		c[i] = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		uint64_t t = p[i].end_ns > t0 ? p[i].end_ns - t0 : 0;

		jsonnum_build_push(c[0], json_object_new_uint64(t), e);
		jsonnum_build_push(c[1], jsonnum_new((double)t / p[0].time_scale), e);
		jsonnum_build_push(c[2], jsonnum_new(p[i].iops), e);
		jsonnum_build_push(c[3], json_object_new_int64(p[i].phase), e);
		jsonnum_build_push(c[4],
				   json_object_new_string(p[i].burst ? "burst" : "write_until"), e);
	}
	for (int i = 0; i < 5; i++)
		jsonnum_build_add(o, cols[i], c[i], e);
	return o;
}

int pass_snia_hir(const struct analyze_input *in, struct json_object *summary, char *err,
		  size_t errlen)
{
	struct json_object *arr, *b, *ss, *states;
	struct hir_point *p = NULL;
	struct hir_state *st = NULL;
	size_t n = 0, ns = 0;
	double steady = NAN;
	int64_t first = -1;
	int e = 0, rc;

	(void)err;
	(void)errlen;
	if (!is_hir(in->manifest) || !json_object_object_get_ex(summary, "snia", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return 0;
	rc = reader_hir_points(&in->records, &p, &n);
	if (rc)
		return rc;
	st = calloc(n + 1, sizeof(*st));
	if (!st) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n && first < 0; i++)
		if (p[i].burst)
			first = p[i].phase;
	ss = first >= 0 ? ss_before(summary, first) : NULL;
	if (ss)
		steady = jsonget_num(ss, "average");
	rc = hir_states(p, n, steady, st, &ns);
	if (rc)
		goto out;
	b = json_object_new_object();
	if (json_object_array_add(arr, b) || !b) {
		json_object_put(b);
		rc = -ENOMEM;
		goto out;
	}
	jsonnum_build_add(b, "test", json_object_new_string("hir"), &e);
	if (ss) {
		copy_key(b, ss, "phase", "phase", &e);
		copy_key(b, ss, "repeat", "repeat", &e);
	} else {
		jsonnum_build_num(b, "phase", NAN, &e);
		jsonnum_build_num(b, "repeat", NAN, &e);
	}
	jsonnum_build_add(b, "header", header(in->manifest, &e), &e);
	jsonnum_build_add(b, "steady_state", ss ? json_object_get(ss) : NULL, &e);
	jsonnum_build_num(b, "steady_iops", steady, &e);
	states = json_object_new_array();
	for (size_t i = 0; i < ns; i++)
		jsonnum_build_push(states, state_json(&st[i], p, &e), &e);
	jsonnum_build_add(b, "wait_states", states, &e);
	jsonnum_build_add(b, "iops_vs_time", time_json(p, n, &e), &e);
	jsonnum_build_add(b, "rule", json_object_new_string(RULE), &e);
	rc = e;
out:
	free(st);
	free(p);
	return rc;
}
