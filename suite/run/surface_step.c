/* SPDX-License-Identifier: MIT */
/*
 * surface_step: the surface phase's scan, series and record (surface_step.h).
 */
#include "run/surface_step.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonnum.h"
#include "engine/surface.h"

/* The record's `surface` object for scan s (owned by the caller), or NULL on -ENOMEM. */
static struct json_object *surface_json(const struct phase_surface *p,
					const struct surface_result *s, const char *series)
{
	struct json_object *o = json_object_new_object();
	struct json_object *lbas = json_object_new_array(), *mbps = json_object_new_array();
	struct json_object *lat = json_object_new_array(), *un = NULL;
	int e = 0;

	if (!o || !lbas || !mbps || !lat) {
		json_object_put(o);
		json_object_put(lbas);
		json_object_put(mbps);
		json_object_put(lat);
		return NULL;
	}
	for (size_t i = 0; i < s->nerror_lbas; i++)
		jsonnum_build_push(lbas, json_object_new_uint64(s->error_lbas[i]), &e);
	for (size_t i = 0; i < s->n; i++) {
		jsonnum_build_push(mbps, jsonnum_new(surface_chunk_mbps(&s->chunks[i])), &e);
		jsonnum_build_push(lat, json_object_new_uint64(s->chunks[i].max_lat_ns), &e);
	}
	jsonnum_build_add(o, "rw", json_object_new_string(p->write ? "write" : "read"), &e);
	jsonnum_build_add(o, "chunk_bytes", json_object_new_uint64(p->chunk), &e);
	jsonnum_build_add(o, "bs", json_object_new_uint64(p->bs), &e);
	jsonnum_build_add(o, "qd", json_object_new_uint64(p->qd), &e);
	jsonnum_build_add(o, "capacity", json_object_new_uint64(s->capacity), &e);
	jsonnum_build_add(o, "lbs", json_object_new_uint64(s->lbs), &e);
	jsonnum_build_num(o, "slow_below", p->slow_below, &e);
	jsonnum_build_add(o, "series", json_object_new_string(series), &e);
	jsonnum_build_add(o, "chunks", json_object_new_uint64(s->n), &e);
	jsonnum_build_add(o, "errors_total", json_object_new_uint64(s->errors_total), &e);
	jsonnum_build_add(o, "error_lbas", lbas, &e);
	jsonnum_build_add(o, "chunk_mbps", mbps, &e);
	jsonnum_build_add(o, "chunk_max_lat_ns", lat, &e);
	if (s->has_unmapped) {
		/* the virtual SSD's own count of reads from no flash (target_read_unmapped) */
		un = json_object_new_array();
		for (size_t i = 0; un && i < s->n; i++)
			jsonnum_build_push(un, json_object_new_uint64(s->chunks[i].unmapped_bytes),
					   &e);
		jsonnum_build_add(o, "chunk_unmapped_bytes", un, &e);
	}
	if (e) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

int surface_step_run(struct target *t, const struct phase_surface *p, struct results *res,
		     const char *series, struct json_object *rec, volatile sig_atomic_t *stop,
		     void (*on_chunk)(size_t done, size_t n, void *arg), void *arg, char *err,
		     size_t errlen)
{
	struct surface_opts o = {.dir = p->write ? IO_WRITE : IO_READ,
				 .chunk = p->chunk,
				 .bs = p->bs,
				 .qd = p->qd,
				 .max_error_lbas = p->max_error_lbas,
				 .stop = stop,
				 .on_chunk = on_chunk,
				 .arg = arg};
	struct surface_result s = {0};
	struct json_object *j = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *f = NULL;
	int rc;

	rc = surface_scan(t, &o, &s, err, errlen);
	if (rc)
		return rc;
	if (!rec)
		goto out;
	f = open_memstream(&text, &len);
	if (!f) {
		rc = -ENOMEM;
		snprintf(err, errlen, "surface: out of memory");
		goto out;
	}
	rc = surface_write_csv(&s, f);
	if (fclose(f) && !rc)
		rc = -ENOMEM;
	if (!rc)
		rc = results_write_series_text(res, series, text, len);
	if (rc) {
		snprintf(err, errlen, "surface: cannot write series %s: %s", series, strerror(-rc));
		goto out;
	}
	j = surface_json(p, &s, series);
	if (!j || json_object_object_add(rec, "surface", j)) {
		json_object_put(j);
		rc = -ENOMEM;
		snprintf(err, errlen, "surface: out of memory");
	}
out:
	free(text);
	surface_result_release(&s);
	return rc;
}
