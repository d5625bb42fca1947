/* SPDX-License-Identifier: MIT */
/*
 * headline_slc: the headline's lines about the SLC cache (headline.h), one per probe of
 * summary.json's slc_cache (analysis/pass_slc.c):
 *   SLC cache      fill 0% (phase 2): 478.7 MB [476.0, 480.6], 503.9 MB/s in it [503.1, 504.6],
 *                  85.2 MB/s after [85.0, 85.4]; levels 504, 85, 55 MB/s
 *   SLC cache      fill 85% (phase 10): no cache detected (one level: 300.0 MB/s)
 *   SLC recovery   phase 4 after 10s idle (357.91 ms on the target): 29.2 MB came back [...]
 * Brackets are the bootstrap's 95 % bounds; sizes in MB of 10^6 bytes, like the speeds.
 */
#include "cli/headline.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/units.h"

/* " [lo, hi]" of key_lo and key_hi scaled by s, or nothing when the bounds are null. */
static void bounds(FILE *f, struct json_object *e, const char *lo, const char *hi, double s)
{
	double a = jsonget_num(e, lo), b = jsonget_num(e, hi);

	if (isfinite(a) && isfinite(b))
		fprintf(f, " [%.1f, %.1f]", a * s, b * s);
}

/*
 * The rest line of a probe that followed a probe and an idle (pass_slc.c, rest_json):
 *   SLC recovery   phase 4 after 10s idle (357.91 ms on the target): 29.2 MB came back
 *                  [29.2, 30.5], 81.6 MB/s of idle [81.6, 85.2]
 * MB/s per second of the drive's own (target) time.
 */
static void print_rest(struct json_object *e, int64_t phase, FILE *f)
{
	struct json_object *r, *d;
	double ps, ts;
	char a[32], b[32];

	if (!json_object_object_get_ex(e, "rest", &r) || !json_object_is_type(r, json_type_object))
		return;
	ps = jsonget_num(r, "rest_profile_s");
	ts = jsonget_num(r, "rest_s");
	units_fmt_duration(isfinite(ps) && ps > 0 ? (uint64_t)llround(ps * 1e9) : 0, a, sizeof(a));
	units_fmt_duration(isfinite(ts) && ts > 0 ? (uint64_t)llround(ts * 1e9) : 0, b, sizeof(b));
	fprintf(f, "SLC recovery   phase %" PRId64 " after %s idle (%s on the target): ", phase, a,
		b);
	if (!(jsonget_num(r, "recovered_bytes") > 0)) {
		fprintf(f, "no cache came back (less than the probe resolves)\n");
		return;
	}
	fprintf(f, "%.1f MB came back", jsonget_num(r, "recovered_bytes") * 1e-6);
	bounds(f, r, "recovered_bytes_lo", "recovered_bytes_hi", 1e-6);
	fprintf(f, ", %.1f MB/s of idle", jsonget_num(r, "recovered_per_s") * 1e-6);
	bounds(f, r, "recovered_per_s_lo", "recovered_per_s_hi", 1e-6);
	if (json_object_object_get_ex(r, "saturated", &d) && json_object_get_boolean(d))
		fprintf(f, " (the whole cache: the rate is a lower bound)");
	fputc('\n', f);
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
			print_rest(e, phase, f);
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
		print_rest(e, phase, f);
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
