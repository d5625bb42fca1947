/* SPDX-License-Identifier: MIT */
/*
 * headline_gcpasses: the headline's lines about the gc-passes experiment (headline.h), from
 * summary.json's gc_passes (analysis/pass_gcpasses.c), one per pass:
 *   GC pass 2      after a 2m00s rest: fast region 68.2 MB [59.6, 77.1] at 624 MB/s, then 69.8 MB/s
 *   GC pass 1      after no rest: no drop, 69.0 MB/s throughout
 * The rest is the profile's (on the virtual SSD the target rested that x its time scale, said on
 * a last line, as for the GC recovery rate); bytes and speeds are the target's.
 */
#include "cli/headline.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/units.h"

static const char *num(double v, int decimals, char *buf, size_t len)
{
	return isfinite(v) ? units_fmt_double(v, decimals, buf, len) : "?";
}

void headline_print_gcpasses(struct json_object *summary, FILE *f)
{
	struct json_object *g, *arr, *x;
	char a[48], b[48], c[48], d[48], e[48];
	double scale;

	if (!json_object_object_get_ex(summary, "gc_passes", &g) || !g ||
	    !json_object_object_get_ex(g, "passes", &arr) || !arr)
		return;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *p = json_object_array_get_idx(arr, i);
		double rest = jsonget_num(p, "rest_profile_ns");

		fprintf(f, "GC pass %-6zu ", i + 1);
		if (isfinite(rest) && rest > 0)
			fprintf(f, "after a %s rest: ",
				units_fmt_duration((uint64_t)rest, a, sizeof(a)));
		else
			fprintf(f, "after no rest: ");
		if (json_object_object_get_ex(p, "drop", &x) && json_object_get_boolean(x))
			fprintf(f, "fast region %s MB [%s, %s] at %s MB/s, then %s MB/s\n",
				num(jsonget_num(p, "fast_bytes") / 1e6, 1, a, sizeof(a)),
				num(jsonget_num(p, "fast_bytes_lo") / 1e6, 1, b, sizeof(b)),
				num(jsonget_num(p, "fast_bytes_hi") / 1e6, 1, c, sizeof(c)),
				num(jsonget_num(p, "fast_mbps"), 0, d, sizeof(d)),
				num(jsonget_num(p, "slow_mbps"), 1, e, sizeof(e)));
		else
			fprintf(f, "no drop, %s MB/s throughout\n",
				num(jsonget_num(p, "mbps"), 1, a, sizeof(a)));
	}
	scale = jsonget_num(g, "time_scale");
	if (isfinite(scale) && fabs(scale - 1) > 1e-9)
		fprintf(
		    f, "  (bytes and speeds are the target's: its rests were the profile's x %s)\n",
		    num(scale, 4, a, sizeof(a)));
}
