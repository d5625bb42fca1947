/* SPDX-License-Identifier: MIT */
/*
 * pass_surface: the analysis pass for summary.json's "surface" (the surface profiles,
 * docs/surface.md): per surface scan (reader_surface_scans), its chunk speeds' minimum, median
 * and maximum, the slow regions (runs of chunks below slow_below x the median,
 * analysis/surface.h) as byte ranges, the largest latency of any chunk and the LBAs that failed.
 * Absent when the run has no scan, so that other results' summaries stay as they were.
 */
#include "analysis/pass.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "analysis/reader.h"
#include "analysis/surface.h"
#include "base/jsonnum.h"

static struct json_object *scan_json(const struct reader_surface_scan *s,
				     const struct surface_stats *st, int *e)
{
	struct json_object *o = json_object_new_object(), *regions = json_object_new_array();
	struct json_object *lbas = json_object_new_array();
	double max_lat = 0;

	for (size_t i = 0; i < s->n; i++)
		max_lat = s->max_lat_ns[i] > max_lat ? s->max_lat_ns[i] : max_lat;
	for (size_t i = 0; regions && i < st->nregions && i < SURFACE_MAX_REGIONS; i++) {
		const struct surface_region *r = &st->regions[i];
		struct json_object *ro = json_object_new_object();
		uint64_t from = (uint64_t)r->first * s->chunk_bytes;
		uint64_t to = (uint64_t)(r->first + r->n) * s->chunk_bytes;

		if (to > s->capacity)
			to = s->capacity;
		jsonnum_build_add(ro, "from_bytes", json_object_new_uint64(from), e);
		jsonnum_build_add(ro, "to_bytes", json_object_new_uint64(to), e);
		jsonnum_build_num(ro, "from_pct", (double)from * 100 / (double)s->capacity, e);
		jsonnum_build_num(ro, "to_pct", (double)to * 100 / (double)s->capacity, e);
		jsonnum_build_add(ro, "chunks", json_object_new_uint64(r->n), e);
		jsonnum_build_num(ro, "mean_mbps", r->mean_mbps, e);
		jsonnum_build_push(regions, ro, e);
	}
	for (size_t i = 0; lbas && i < s->nerror_lbas; i++)
		jsonnum_build_push(lbas, jsonnum_new(s->error_lbas[i]), e);
	jsonnum_build_add(o, "phase", json_object_new_int64(s->phase), e);
	jsonnum_build_add(o, "repeat", json_object_new_int64(s->repeat), e);
	jsonnum_build_add(o, "rw", json_object_new_string(s->write ? "write" : "read"), e);
	jsonnum_build_add(o, "series", s->series ? json_object_new_string(s->series) : NULL, e);
	jsonnum_build_add(o, "chunk_bytes", json_object_new_uint64(s->chunk_bytes), e);
	jsonnum_build_add(o, "chunks", json_object_new_uint64(s->n), e);
	jsonnum_build_num(o, "min_mbps", st->min_mbps, e);
	jsonnum_build_num(
	    o, "min_at_pct",
	    ((double)st->min_chunk + 0.5) * (double)s->chunk_bytes * 100 / (double)s->capacity, e);
	jsonnum_build_num(o, "median_mbps", st->median_mbps, e);
	jsonnum_build_num(o, "max_mbps", st->max_mbps, e);
	jsonnum_build_num(o, "slow_below", s->slow_below, e);
	jsonnum_build_num(o, "slow_threshold_mbps", st->slow_threshold_mbps, e);
	jsonnum_build_add(o, "slow_chunks", json_object_new_uint64(st->slow_chunks), e);
	jsonnum_build_add(o, "slow_regions_total", json_object_new_uint64(st->nregions), e);
	jsonnum_build_add(o, "slow_regions", regions, e);
	jsonnum_build_num(o, "max_lat_ns", max_lat, e);
	jsonnum_build_add(o, "errors_total", json_object_new_uint64(s->errors_total), e);
	jsonnum_build_add(o, "error_lbas", lbas, e);
	return o;
}

int pass_surface(const struct analyze_input *in, struct json_object *summary, char *err,
		 size_t errlen)
{
	struct reader_surface_scan *v = NULL;
	struct json_object *arr = NULL;
	size_t n = 0;
	int rc, e = 0;

	rc = reader_surface_scans(&in->records, &v, &n);
	if (rc) {
		pass_err(err, errlen, "%s/records.jsonl: a surface record %s", in->dir,
			 rc == -EINVAL ? "lacks its figures" : "could not be read");
		return rc;
	}
	if (!n)
		goto out;
	arr = json_object_new_array();
	for (size_t i = 0; i < n && !e; i++) {
		struct surface_stats st;

		if (!v[i].n || !v[i].capacity)
			continue; /* a zero-capacity target: nothing was scanned */
		rc = surface_stats(v[i].mbps, v[i].n, v[i].slow_below, &st);
		if (rc) {
			pass_err(err, errlen, "%s/records.jsonl: surface scan of phase %lld: %s",
				 in->dir, (long long)v[i].phase, strerror(-rc));
			goto out;
		}
		jsonnum_build_push(arr, scan_json(&v[i], &st, &e), &e);
	}
	jsonnum_build_add(summary, "surface", arr, &e);
	arr = NULL;
	rc = e;
out:
	json_object_put(arr);
	reader_surface_free(v, n);
	return rc;
}
