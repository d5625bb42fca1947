/* SPDX-License-Identifier: MIT */
/*
 * headline_snia_hir: the headline's lines for a SNIA PTS host idle recovery test (headline.h),
 * from summary.json's headline.snia entry of test "hir" (analysis/pass_headline.c):
 *   SNIA HIR       steady 25365 IOPS (not_reached, rounds 21-25, 4 threads x QD32)
 *   SNIA HIR waits mean burst IOPS: 5s 32786 (1.29x), 10s 42833 (1.69x), ..., 50s 70377 (2.77x)
 * A wait is named as the profile wrote it; one the virtual SSD raised to its floor is marked
 * with the applied wait ("5s [applied 3.36ms]"). '.' decimals whatever the locale.
 */
#include "cli/headline.h"
#include "cli/headline_fmt.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"

void headline_print_snia_hir(struct json_object *e, FILE *f)
{
	struct json_object *ws = NULL;
	const char *v = jsonget_str(e, "verdict"), *q = jsonget_str(e, "queue");
	char a[48], b[48], c[48];
	int64_t lo, hi;

	fprintf(f, "SNIA HIR       steady %s IOPS (%s",
		headline_num(jsonget_num(e, "steady_iops"), 0, a, sizeof(a)),
		v ? v : "no steady-state window");
	if (!jsonget_int(e, "first_round", &lo) && !jsonget_int(e, "last_round", &hi))
		fprintf(f, ", rounds %" PRId64 "-%" PRId64, lo, hi);
	if (q && *q)
		fprintf(f, ", %s", q);
	fprintf(f, ")\n");
	if (!json_object_object_get_ex(e, "wait_states", &ws) ||
	    !json_object_is_type(ws, json_type_array) || !json_object_array_length(ws))
		return;
	fprintf(f, "SNIA HIR waits mean burst IOPS:");
	for (size_t i = 0; i < json_object_array_length(ws); i++) {
		struct json_object *w = json_object_array_get_idx(ws, i), *fl = NULL;
		double wp = jsonget_num(w, "wait_profile_ns"), wa = jsonget_num(w, "wait_ns");

		fprintf(f, "%s %s", i ? "," : "", headline_dur(wp, a, sizeof(a)));
		if (json_object_object_get_ex(w, "wait_floored", &fl) && fl &&
		    json_object_get_boolean(fl))
			fprintf(f, " [applied %s]", headline_dur(wa, b, sizeof(b)));
		fprintf(f, " %s (%sx)", headline_num(jsonget_num(w, "mean_iops"), 0, b, sizeof(b)),
			headline_num(jsonget_num(w, "of_steady"), 2, c, sizeof(c)));
	}
	fputc('\n', f);
}
