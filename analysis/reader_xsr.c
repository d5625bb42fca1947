/* SPDX-License-Identifier: MIT */
/*
 * reader_xsr: the reader's part for the SNIA XSR block (reader.h): an access group's
 * write_until records as samples (analysis/snia_xsr.h), with their maximum response time, which
 * the WSAT chunks (reader_write_until) do not carry.
 */
#include "analysis/reader.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonnum.h"

int reader_xsr_samples(const struct results_records *rr, int64_t phase, int64_t repeat,
		       struct snia_xsr_sample **out, size_t *n, double *first_scale)
{
	struct snia_xsr_sample *s = calloc(rr->n + 1, sizeof(*s));
	double scale = NAN;
	size_t m = 0;

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < rr->n; i++) {
		struct json_object *rec = rr->rec[i], *tot;
		struct snia_xsr_sample x = {0};
		struct reader_key k;

		if (reader_key(rec, &k) || strcmp(k.kind, "write_until") || k.phase != phase ||
		    k.repeat != repeat || jsonnum_get_u64(rec, "elapsed_ns", &x.elapsed_ns) ||
		    jsonnum_get_u64(rec, "bytes_written_total", &x.bytes_total) ||
		    !json_object_object_get_ex(rec, "total", &tot) ||
		    jsonnum_get_u64(tot, "ios", &x.ios) || jsonnum_get_u64(tot, "bytes", &x.bytes))
			continue;
		if (jsonnum_get_u64(rec, "ramp_ns", &x.ramp_ns))
			x.ramp_ns = 0;
		if (results_record_metric(rec, "lat_mean", &x.lat_mean_ns))
			x.lat_mean_ns = NAN;
		if (results_record_metric(rec, "lat_max", &x.lat_max_ns))
			x.lat_max_ns = NAN;
		if (!m && jsonnum_get(rec, "time_scale", &scale))
			scale = NAN;
		s[m++] = x;
	}
	*out = s;
	*n = m;
	*first_scale = scale;
	return 0;
}
