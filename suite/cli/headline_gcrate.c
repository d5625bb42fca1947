/* SPDX-License-Identifier: MIT */
/*
 * headline_gcrate: the headline's line about the GC recovery rate (headline.h), from
 * summary.json's gc_recovery (analysis/pass_gcrate.c): the chosen model's rate with its standard
 * error, Rmax, the onset delay t0, and what they stand on:
 *   GC recovery rate: 56.9 +- 0.9 MB/s of idle (Rmax 0.297 GB, t0 -0.11 s; linear_capped by BIC, 16 idles)
 * or that there is none, or none beyond a refilled cache (analysis/gcrate.h, gcrate_burst_only).
 * Times are the target's (on the virtual SSD its own clock: the profile's idles times its time
 * scale, said on a second line).
 */
#include "cli/headline.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/units.h"

static const char *num(double v, int decimals, char *buf, size_t len)
{
	return isfinite(v) ? units_fmt_double(v, decimals, buf, len) : "?";
}

void headline_print_gcrate(struct json_object *summary, FILE *f)
{
	struct json_object *g, *pts = NULL, *er = NULL, *x;
	const char *model, *src;
	char a[48], b[48], c[48], d[48];
	double scale;
	size_t n;

	if (!json_object_object_get_ex(summary, "gc_recovery", &g) || !g)
		return;
	model = jsonget_str(g, "model");
	(void)json_object_object_get_ex(g, "points", &pts);
	(void)json_object_object_get_ex(g, "errors", &er);
	n = pts ? json_object_array_length(pts) : 0;
	src = jsonget_str(g, "source");
	if (!model || !strcmp(model, "none")) {
		fprintf(f, "GC recovery rate: none detected (%zu idles; BIC prefers no recovery)\n",
			n);
	} else if (src && !strcmp(src, "cache_refill")) {
		fprintf(f,
			"GC recovery rate: none beyond a cache refill of %s MB (a burst in the first "
			"measurement after every idle; %zu idles)\n",
			num(jsonget_num(g, "cache_refill_bytes") / 1e6, 1, a, sizeof(a)), n);
	} else {
		fprintf(f, "GC recovery rate: %s +- %s MB/s of idle (Rmax ",
			num(jsonget_num(g, "r") / 1e6, 1, a, sizeof(a)),
			num(er ? jsonget_num(er, "r") / 1e6 : NAN, 1, b, sizeof(b)));
		if (json_object_object_get_ex(g, "rmax_reached", &x) && json_object_get_boolean(x))
			fprintf(f, "%s GB", num(jsonget_num(g, "rmax") / 1e9, 3, c, sizeof(c)));
		else
			fprintf(f, "not reached");
		if (!strcmp(model, "exponential"))
			fprintf(f, ", tau %s s", num(jsonget_num(g, "tau"), 2, d, sizeof(d)));
		fprintf(f, ", t0 %s s; %s by BIC, %zu idles)\n",
			num(jsonget_num(g, "t0"), 2, c, sizeof(c)), model, n);
	}
	scale = jsonget_num(g, "time_scale");
	if (isfinite(scale) && fabs(scale - 1) > 1e-9)
		fprintf(f, "  (times and bytes are the target's: its idles were the profile's x %s)\n",
			num(scale, 4, a, sizeof(a)));
}
