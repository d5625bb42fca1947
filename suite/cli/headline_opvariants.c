/* SPDX-License-Identifier: MIT */
/*
 * headline_opvariants: the headline's lines about over-provisioning variants (headline.h), from
 * summary.json's op_variants (analysis/pass_opvariants.c), one per variant:
 *   OP variant 2   87.5% of capacity (spare +64.0 MiB): IOPS 1320, p99 4.82 ms, WA 2.20 (greedy
 * model 2.20, effective spare 2.20) The greedy model appears only where the pass computed it
 * (virtual SSD, greedy GC, no cache); its effective-spare value where the snapshot has the open
 * blocks.
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

void headline_print_opvariants(struct json_object *summary, FILE *f)
{
	struct json_object *arr, *lat, *g;
	char a[48], b[48], c[48], d[48], e[48], s[48];

	if (!json_object_object_get_ex(summary, "op_variants", &arr) || !arr)
		return;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *v = json_object_array_get_idx(arr, i);
		double spare = jsonget_num(v, "spare_added_bytes"), p99 = NAN;

		if (json_object_object_get_ex(v, "write_lat_ns", &lat) && lat)
			p99 = jsonget_num(lat, "p99");
		fprintf(
		    f, "OP variant %-3zu %s%% of capacity (spare +%s): IOPS %s, p99 %s ms, WA %s",
		    i + 1, num(100 * jsonget_num(v, "fraction"), 1, a, sizeof(a)),
		    isfinite(spare) ? units_fmt_size((uint64_t)spare, s, sizeof(s)) : "?",
		    num(jsonget_num(v, "iops"), 0, b, sizeof(b)), num(p99 / 1e6, 2, c, sizeof(c)),
		    num(jsonget_num(v, "wa"), 2, d, sizeof(d)));
		if (json_object_object_get_ex(v, "greedy_model", &g) && g) {
			fprintf(f, " (greedy model %s", num(jsonget_num(g, "wa"), 2, e, sizeof(e)));
			/* the same model at the spare the open blocks leave (pass_opvariants.c) */
			if (json_object_object_get_ex(v, "greedy_model_effective", &g) && g)
				fprintf(f, ", effective spare %s",
					num(jsonget_num(g, "wa"), 2, e, sizeof(e)));
			fputc(')', f);
		}
		fputc('\n', f);
	}
}
