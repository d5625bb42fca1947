/* SPDX-License-Identifier: MIT */
/*
 * headline_sweep: the headline's lines for a run with many idles (a gc-recovery idle sweep): the
 * recovery after each idle as one table sorted by idle time, in one time base (headline.h). The
 * target's times lead, because the GC recovery rate that follows is fitted on them; the
 * profile's are in brackets when the run was time-scaled (on the virtual SSD).
 */
#include "cli/headline.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/units.h"

static const char *num(double v, int decimals, char *buf, size_t len)
{
	return isfinite(v) ? units_fmt_double(v, decimals, buf, len) : "-";
}

bool headline_sweep_after(struct json_object *summary, int64_t phase)
{
	struct json_object *g, *pts;

	if (!json_object_object_get_ex(summary, "gc_recovery", &g) || !g ||
	    !json_object_object_get_ex(g, "points", &pts) ||
	    !json_object_is_type(pts, json_type_array))
		return false;
	for (size_t i = 0; i < json_object_array_length(pts); i++) {
		int64_t p = -1;

		if (!jsonget_int(json_object_array_get_idx(pts, i), "phase", &p) && p == phase)
			return true;
	}
	return false;
}

/* The gc_recovery point measured after the same idle, or NULL. */
static struct json_object *point_of(struct json_object *summary, struct json_object *r)
{
	struct json_object *g, *pts;
	int64_t ip = -1, ir = 0;

	if (!json_object_object_get_ex(summary, "gc_recovery", &g) || !g ||
	    !json_object_object_get_ex(g, "points", &pts) ||
	    !json_object_is_type(pts, json_type_array))
		return NULL;
	(void)jsonget_int(r, "idle_phase", &ip);
	(void)jsonget_int(r, "idle_repeat", &ir);
	for (size_t i = 0; i < json_object_array_length(pts); i++) {
		struct json_object *p = json_object_array_get_idx(pts, i);
		int64_t pp = -2, pr = 0;

		(void)jsonget_int(p, "idle_phase", &pp);
		(void)jsonget_int(p, "idle_repeat", &pr);
		if (pp == ip && pr == ir)
			return p;
	}
	return NULL;
}

struct row {
	double idle_ns;
	int64_t idle_phase;
	struct json_object *r;
};

/* By idle time; equal idles in run order (by their idle phase). */
static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->idle_ns != y->idle_ns)
		return x->idle_ns < y->idle_ns ? -1 : 1;
	return (x->idle_phase > y->idle_phase) - (x->idle_phase < y->idle_phase);
}

/* "1.51 s (3h00m)": a target time with the profile's in brackets when they differ. */
static const char *two_times(double target_ns, double profile_ns, bool scaled, char *buf,
			     size_t len)
{
	char a[32], b[32];

	units_fmt_duration(isfinite(target_ns) && target_ns > 0 ? (uint64_t)llround(target_ns) : 0,
			   a, sizeof(a));
	if (!scaled) {
		snprintf(buf, len, "%s", a);
		return buf;
	}
	units_fmt_duration(
	    isfinite(profile_ns) && profile_ns > 0 ? (uint64_t)llround(profile_ns) : 0, b,
	    sizeof(b));
	snprintf(buf, len, "%s (%s)", a, b);
	return buf;
}

/* "IOPS 27590" or "722.7 MB/s": the first measurement's figure in its metric's unit. */
static const char *first_fig(struct json_object *r, char *buf, size_t len)
{
	const char *m = jsonget_str(r, "metric");
	double v = jsonget_num(r, "first");
	char a[48];

	if (m && strstr(m, "bw"))
		snprintf(buf, len, "%s MB/s", num(v / 1e6, 1, a, sizeof(a)));
	else if (m && strstr(m, "lat_"))
		snprintf(buf, len, "%s %s us", m, num(v / 1e3, 1, a, sizeof(a)));
	else
		snprintf(buf, len, "IOPS %s", num(v, 0, a, sizeof(a)));
	return buf;
}

int headline_print_recovery_table(struct json_object *summary, struct json_object *recovery,
				  FILE *f)
{
	size_t n = json_object_array_length(recovery);
	struct json_object *g = NULL, *rule = NULL;
	struct row *rows;
	bool scaled = false, excess;
	char a[64], b[64], c[96], d[80];

	rows = calloc(n ? n : 1, sizeof(*rows));
	if (!rows) {
		fprintf(stderr, "headline: no memory for the recovery table of %zu idles\n", n);
		return -ENOMEM;
	}
	excess = json_object_object_get_ex(summary, "gc_recovery", &g) && g;
	for (size_t i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(recovery, i);
		double t = jsonget_num(r, "idle_target_ns"), p = jsonget_num(r, "idle_profile_ns");

		rows[i].r = r;
		rows[i].idle_ns = isfinite(t) ? t : 0;
		rows[i].idle_phase = -1;
		(void)jsonget_int(r, "idle_phase", &rows[i].idle_phase);
		/* Time-scaled when the two clocks differ by more than the rounding of a ns. */
		if (isfinite(t) && isfinite(p) && fabs(t - p) > 1 + 1e-6 * p)
			scaled = true;
		if (!rule)
			(void)json_object_object_get_ex(r, "rule", &rule);
	}
	qsort(rows, n, sizeof(*rows), row_cmp);
	fprintf(f, "recovery after %zu idles, by idle time; %s", n,
		scaled ? "times are the target's (the profile's in brackets)"
		       : "times as measured");
	if (rule)
		fprintf(f, "; back = %s rounds in a row within %s%% of steady state",
			num(jsonget_num(rule, "rounds"), 0, a, sizeof(a)),
			num(100 * jsonget_num(rule, "band"), 0, b, sizeof(b)));
	fputc('\n', f);
	fprintf(f, "  %-22s %-22s %s%sback to steady state after (writing)\n", "idle",
		"first (vs steady)", excess ? "excess" : "", excess ? "     " : "");
	for (size_t i = 0; i < n; i++) {
		struct json_object *r = rows[i].r, *pt = point_of(summary, r), *x;
		double ch = jsonget_num(r, "first_change");
		char fig[96];

		snprintf(fig, sizeof(fig), "%s (%s%s%%)", first_fig(r, a, sizeof(a)),
			 ch >= 0 ? "+" : "", num(100 * ch, 0, b, sizeof(b)));
		fprintf(f, "  %-22s %-22s ",
			two_times(jsonget_num(r, "idle_target_ns"),
				  jsonget_num(r, "idle_profile_ns"), scaled, c, sizeof(c)),
			fig);
		if (excess) {
			snprintf(d, sizeof(d), "%s MB",
				 num(pt ? jsonget_num(pt, "excess_bytes") / 1e6 : NAN, 1, a,
				     sizeof(a)));
			fprintf(f, "%-10s ", d);
		}
		if (json_object_object_get_ex(r, "back_after_target_ns", &x) && x)
			fprintf(f, "%s\n",
				two_times(jsonget_num(r, "back_after_target_ns"),
					  jsonget_num(r, "back_after_profile_ns"), scaled, c,
					  sizeof(c)));
		else
			fprintf(f, "not back within the measured rounds\n");
	}
	free(rows);
	return 0;
}
