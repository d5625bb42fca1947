/* SPDX-License-Identifier: MIT */
/*
 * reader_surface: the reader's part for the surface pass (reader.h): each surface scan's record
 * (run/surface_step.h writes its `surface` object) as typed arrays.
 */
#include "analysis/reader.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/jsonnum.h"

/* Array member key of o as n doubles (malloc'ed into *v, n may be 0); -EINVAL when a value is
 * not a number. */
static int num_array(struct json_object *o, const char *key, double **v, size_t *n)
{
	struct json_object *a;
	size_t len;

	*v = NULL;
	*n = 0;
	if (!json_object_object_get_ex(o, key, &a) || !json_object_is_type(a, json_type_array))
		return -EINVAL;
	len = json_object_array_length(a);
	*v = calloc(len ? len : 1, sizeof(**v));
	if (!*v)
		return -ENOMEM;
	for (size_t i = 0; i < len; i++) {
		struct json_object *x = json_object_array_get_idx(a, i);

		if (!json_object_is_type(x, json_type_int) &&
		    !json_object_is_type(x, json_type_double)) {
			free(*v);
			*v = NULL;
			return -EINVAL;
		}
		(*v)[i] = json_object_get_double(x);
	}
	*n = len;
	return 0;
}

static void scan_release(struct reader_surface_scan *s)
{
	free(s->mbps);
	free(s->max_lat_ns);
	free(s->error_lbas);
}

void reader_surface_free(struct reader_surface_scan *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		scan_release(&v[i]);
	free(v);
}

static int scan_read(struct json_object *rec, const struct reader_key *k,
		     struct reader_surface_scan *s)
{
	struct json_object *o;
	const char *rw;
	size_t nl;
	int rc;

	*s = (struct reader_surface_scan){.phase = k->phase, .repeat = k->repeat};
	if (!json_object_object_get_ex(rec, "surface", &o) || !o)
		return -EINVAL;
	rw = jsonget_str(o, "rw");
	s->write = rw && !strcmp(rw, "write");
	s->series = jsonget_str(o, "series");
	if (jsonnum_get_u64(o, "chunk_bytes", &s->chunk_bytes) ||
	    jsonnum_get_u64(o, "capacity", &s->capacity) || jsonnum_get_u64(o, "lbs", &s->lbs) ||
	    jsonnum_get_u64(o, "errors_total", &s->errors_total) ||
	    jsonnum_get(o, "slow_below", &s->slow_below))
		return -EINVAL;
	rc = num_array(o, "chunk_mbps", &s->mbps, &s->n);
	if (!rc)
		rc = num_array(o, "chunk_max_lat_ns", &s->max_lat_ns, &nl);
	if (!rc && nl != s->n)
		rc = -EINVAL;
	if (!rc)
		rc = num_array(o, "error_lbas", &s->error_lbas, &s->nerror_lbas);
	if (rc)
		scan_release(s);
	return rc;
}

int reader_surface_scans(const struct results_records *rr, struct reader_surface_scan **out,
			 size_t *n)
{
	struct reader_surface_scan *v = NULL;
	size_t cnt = 0, cap = 0;
	int rc;

	for (size_t i = 0; i < rr->n; i++) {
		struct reader_key k;

		if (reader_key(rr->rec[i], &k) || strcmp(k.kind, "surface"))
			continue;
		if (cnt == cap) {
			size_t nc = cap ? 2 * cap : 4;
			struct reader_surface_scan *t = realloc(v, nc * sizeof(*v));

			if (!t) {
				rc = -ENOMEM;
				goto fail;
			}
			v = t;
			cap = nc;
		}
		rc = scan_read(rr->rec[i], &k, &v[cnt]);
		if (rc)
			goto fail;
		cnt++;
	}
	*out = v;
	*n = cnt;
	return 0;
fail:
	reader_surface_free(v, cnt);
	return rc;
}
