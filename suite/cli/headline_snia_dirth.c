/* SPDX-License-Identifier: MIT */
/*
 * headline_snia_dirth: the headline's lines for a SNIA PTS DIRTH test (headline.h), from one
 * entry of summary.json's headline.snia (analysis/pass_headline.c, from the "dirth" block):
 *   SNIA DIRTH     max 2560 IOPS at TC32/QD6 (reached, rounds 1-5)
 *   SNIA DIRTH pts mean / p99.99: max TC32/QD6 2230 IOPS 85.59 ms / 135.27 ms, mid TC2/QD4
 *                  1391 IOPS 5.75 ms / 9.1 ms, min TC1/QD1 204 IOPS 4.9 ms / 5.2 ms
 * The first line is the rounds' Max-IOPS point (its IOPS over the measurement window), the
 * second the three points' own runs. '.' decimals whatever the locale.
 */
#include "cli/headline.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/units.h"

/* A figure as the other SNIA lines print it: IOPS with no decimals, or a duration; "-" when
 * the summary has none (null, NaN). */
static const char *fig(double v, bool is_ns, char *buf, size_t len)
{
	if (!isfinite(v) || v < 0)
		return "-";
	return is_ns ? units_fmt_duration((uint64_t)llround(v), buf, len)
		     : units_fmt_double(v, 0, buf, len);
}

void headline_print_snia_dirth(struct json_object *e, FILE *f)
{
	struct json_object *pts;
	const char *v = jsonget_str(e, "verdict");
	int64_t lo, hi, t = 0, q = 0;
	char a[48], b[48], c[48];

	(void)jsonget_int(e, "max_threads", &t);
	(void)jsonget_int(e, "max_qd", &q);
	fprintf(f, "SNIA DIRTH     max %s IOPS at TC%" PRId64 "/QD%" PRId64 " (",
		fig(jsonget_num(e, "max_iops"), false, a, sizeof(a)), t, q);
	if (v)
		fprintf(f, "%s, ", strcmp(v, "not_reached") ? v : "steady state NOT reached");
	if (!jsonget_int(e, "first_round", &lo) && !jsonget_int(e, "last_round", &hi))
		fprintf(f, "rounds %" PRId64 "-%" PRId64, lo, hi);
	fputs(")\n", f);
	if (!json_object_object_get_ex(e, "points", &pts) ||
	    !json_object_is_type(pts, json_type_array) || !json_object_array_length(pts))
		return;
	fputs("SNIA DIRTH pts mean / p99.99:", f);
	for (size_t i = 0; i < json_object_array_length(pts); i++) {
		struct json_object *p = json_object_array_get_idx(pts, i);
		const char *name = jsonget_str(p, "point");

		t = q = 0;
		(void)jsonget_int(p, "threads", &t);
		(void)jsonget_int(p, "qd", &q);
		fprintf(f, "%s %s TC%" PRId64 "/QD%" PRId64 " %s IOPS %s / %s", i ? "," : "",
			name ? name : "-", t, q, fig(jsonget_num(p, "iops"), false, a, sizeof(a)),
			fig(jsonget_num(p, "mean_ns"), true, b, sizeof(b)),
			fig(jsonget_num(p, "p99_99_ns"), true, c, sizeof(c)));
	}
	fputc('\n', f);
}
