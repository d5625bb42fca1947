/* SPDX-License-Identifier: MIT */
/*
 * headline_slc: the headline's lines about the SLC cache (headline.h), one per probe of
 * summary.json's slc_cache (analysis/pass_slc.c):
 *   SLC cache      fill 0% (phase 2): 478.7 MB [476.0, 480.6], 503.9 MB/s in it [503.1, 504.6],
 *                  85.2 MB/s after [85.0, 85.4]; levels 504, 85, 55 MB/s
 *   SLC cache      fill 85% (phase 10): no cache detected (one level: 300.0 MB/s)
 * Brackets are the bootstrap's 95 % bounds; sizes in MB of 10^6 bytes, like the speeds.
 */
#include "cli/headline.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "base/jsonget.h"

/* " [lo, hi]" of key_lo and key_hi scaled by s, or nothing when the bounds are null. */
static void bounds(FILE *f, struct json_object *e, const char *lo, const char *hi, double s)
{
	double a = jsonget_num(e, lo), b = jsonget_num(e, hi);

	if (isfinite(a) && isfinite(b))
		fprintf(f, " [%.1f, %.1f]", a * s, b * s);
}

void headline_print_slc(struct json_object *summary, FILE *f)
{
	struct json_object *arr, *lv;

	if (!json_object_object_get_ex(summary, "slc_cache", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *e = json_object_array_get_idx(arr, i), *d;
		int64_t phase = -1;
		size_t nl = 0;

		(void)jsonget_int(e, "phase", &phase);
		if (json_object_object_get_ex(e, "levels", &lv) &&
		    json_object_is_type(lv, json_type_array))
			nl = json_object_array_length(lv);
		fprintf(f, "SLC cache      fill %.0f%% (phase %" PRId64 "): ",
			100 * jsonget_num(e, "fill"), phase);
		if (!json_object_object_get_ex(e, "cache_detected", &d) ||
		    !json_object_get_boolean(d)) {
			fprintf(f, "no cache detected");
			if (nl == 1)
				fprintf(f, " (one level: %.1f MB/s)",
					jsonget_num(json_object_array_get_idx(lv, 0), "mbps"));
			else if (nl)
				fprintf(f, " (no drop of the size looked for)");
			else
				fprintf(f, " (too few samples to fit)");
			fputc('\n', f);
			continue;
		}
		fprintf(f, "%.1f MB", jsonget_num(e, "cache_bytes") * 1e-6);
		bounds(f, e, "cache_bytes_lo", "cache_bytes_hi", 1e-6);
		fprintf(f, ", %.1f MB/s in it", jsonget_num(e, "in_cache_mbps"));
		bounds(f, e, "in_cache_mbps_lo", "in_cache_mbps_hi", 1);
		fprintf(f, ", %.1f MB/s after", jsonget_num(e, "post_cache_mbps"));
		bounds(f, e, "post_cache_mbps_lo", "post_cache_mbps_hi", 1);
		if (nl > 2) {
			fprintf(f, "; levels");
			for (size_t j = 0; j < nl; j++)
				fprintf(f, "%s %.0f", j ? "," : "",
					jsonget_num(json_object_array_get_idx(lv, j), "mbps"));
			fprintf(f, " MB/s");
		}
		if (json_object_object_get_ex(e, "possible_throttling", &d) &&
		    json_object_get_boolean(d))
			fprintf(f, " (possible throttling, not a cache edge: %.1f C at the drop, "
				   "warning level %.1f C)",
				jsonget_num(e, "edge_temp_c"), jsonget_num(e, "warning_c"));
		fputc('\n', f);
	}
}

bool headline_slc_probe(struct json_object *summary, int64_t phase)
{
	struct json_object *arr;

	if (!json_object_object_get_ex(summary, "slc_cache", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return false;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		int64_t p = -1;

		if (!jsonget_int(json_object_array_get_idx(arr, i), "phase", &p) && p == phase)
			return true;
	}
	return false;
}
