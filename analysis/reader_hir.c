/* SPDX-License-Identifier: MIT */
/*
 * reader_hir: the reader's part for the SNIA host idle recovery block (reader.h): the burst
 * records and the write_until records after the first burst, in file order, as hir.h's points.
 */
#include "analysis/reader.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/jsonnum.h"

static uint64_t get_u64(struct json_object *o, const char *key)
{
	uint64_t v = 0;

	(void)jsonnum_get_u64(o, key, &v);
	return v;
}

int reader_hir_points(const struct results_records *rr, struct hir_point **out, size_t *n)
{
	struct hir_point *v = calloc(rr->n + 1, sizeof(*v));
	size_t cnt = 0;
	bool seen_burst = false;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < rr->n; i++) {
		struct json_object *rec = rr->rec[i], *tot = NULL, *fr = NULL;
		struct hir_point *p = &v[cnt];
		struct reader_key k;
		bool burst;
		double ts;

		if (reader_key(rec, &k) || !k.kind)
			continue;
		burst = !strcmp(k.kind, "burst");
		seen_burst |= burst;
		/* the continuous writes count from the first burst on: before it they are not
		 * part of the wait states (a write_until of the profile's own preconditioning) */
		if (!burst && (strcmp(k.kind, "write_until") || !seen_burst))
			continue;
		if (!json_object_object_get_ex(rec, "total", &tot) ||
		    !json_object_object_get_ex(rec, "elapsed_ns", NULL))
			continue;
		p->phase = k.phase;
		p->repeat = k.repeat;
		p->round = k.round;
		p->burst = burst;
		p->start_ns = get_u64(rec, "start_ns");
		p->end_ns = get_u64(rec, "end_ns");
		p->elapsed_ns = get_u64(rec, "elapsed_ns");
		p->ios = get_u64(tot, "ios");
		p->iops = p->elapsed_ns ? (double)p->ios * 1e9 / (double)p->elapsed_ns : NAN;
		ts = jsonget_num(rec, "time_scale");
		p->time_scale = isfinite(ts) && ts > 0 ? ts : 1;
		if (burst) {
			p->wait_profile_ns = get_u64(rec, "wait_profile_ns");
			p->wait_scaled_ns = get_u64(rec, "wait_scaled_ns");
			p->wait_ns = get_u64(rec, "wait_ns");
			p->floored = json_object_object_get_ex(rec, "wait_floor_reason", &fr) &&
				     fr && json_object_is_type(fr, json_type_string);
		}
		cnt++;
	}
	*out = v;
	*n = cnt;
	return 0;
}
