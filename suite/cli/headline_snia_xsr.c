/* SPDX-License-Identifier: MIT */
/*
 * headline_snia_xsr: the headline's line for a SNIA XSR entry of summary.json's headline.snia
 * (headline.h; analysis/pass_headline.c from the "xsr" block): each access group's end-of-group
 * throughput and the recovery time of group 3, as the reference's XSR table gives them:
 *   SNIA XSR       end of group MB/s: 1m write 576, 8k randwrite 277, 1m write 575; recovered
 *                  after 9m10s of group 3 (target 4.62 s; sample 10: the first of 3 in a row
 *                  within 10% of group 1's 578 MB/s)
 * or "not recovered (no 3 samples in a row within 10% of group 1's 578 MB/s)". MB of 10^6 bytes;
 * '.' decimals whatever the locale.
 */
#include "cli/headline.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/units.h"

/* v as a number of `decimals` decimals, or (decimals < 0) as a duration of v ns; "-" when v is
 * not a finite figure (null in the summary). */
static const char *fig(double v, int decimals, char *buf, size_t len)
{
	if (!isfinite(v) || (decimals < 0 && v < 0))
		return "-";
	return decimals < 0 ? units_fmt_duration((uint64_t)llround(v), buf, len)
			    : units_fmt_double(v, decimals, buf, len);
}

void headline_print_snia_xsr(struct json_object *e, FILE *f)
{
	struct json_object *groups = NULL;
	const char *st = jsonget_str(e, "recovery");
	char a[48], b[48], c[48], d[48];
	const char *bt, *rt; /* the band in %, group 1's MB/s */
	int64_t rows = 0, sample = 0;

	fprintf(f, "SNIA XSR       end of group MB/s:");
	if (json_object_object_get_ex(e, "groups", &groups) &&
	    json_object_is_type(groups, json_type_array))
		for (size_t i = 0; i < json_object_array_length(groups); i++) {
			struct json_object *g = json_object_array_get_idx(groups, i);
			const char *wl = jsonget_str(g, "workload");

			fprintf(f, "%s %s %s", i ? "," : "", wl && *wl ? wl : "?",
				fig(jsonget_num(g, "end_mb_s"), 0, a, sizeof(a)));
		}
	(void)jsonget_int(e, "samples_in_row", &rows);
	bt = fig(jsonget_num(e, "band") * 100, 0, b, sizeof(b));
	rt = fig(jsonget_num(e, "reference_mb_s"), 0, d, sizeof(d));
	if (st && !strcmp(st, "recovered")) {
		(void)jsonget_int(e, "recovery_sample", &sample);
		fprintf(f, "; recovered after %s of group 3 (target %s; sample %" PRId64
			   ": the first of %" PRId64 " in a row within %s%% of group 1's %s MB/s)\n",
			fig(jsonget_num(e, "recovery_after_profile_ns"), -1, a, sizeof(a)),
			fig(jsonget_num(e, "recovery_after_ns"), -1, c, sizeof(c)), sample, rows, bt, rt);
	} else if (st && !strcmp(st, "not recovered")) {
		fprintf(f, "; not recovered (no %" PRId64 " samples in a row within %s%% of group 1's "
			   "%s MB/s)\n",
			rows, bt, rt);
	} else {
		fprintf(f, "; recovery not judged (fewer than 3 groups, or one without throughput)\n");
	}
}
