/* SPDX-License-Identifier: MIT */
/*
 * reader_gcpasses: the reader's part for the gc-passes pass (reader.h): which records belong to
 * which full-range pass, in run order, and how long the target rested before each.
 */
#include "analysis/reader.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonget.h"

int reader_gc_passes(const struct results_records *rr, const bool *is_pass, size_t nphases,
		     struct reader_gc_pass **out, size_t *n)
{
	struct reader_gc_pass *v = NULL;
	size_t cnt = 0, cap = 0;
	double rest = 0; /* idle time since the last pass's records */

	for (size_t i = 0; i < rr->n; i++) {
		struct reader_key k;

		if (reader_key(rr->rec[i], &k))
			continue;
		if (k.kind && !strcmp(k.kind, "idle")) {
			double ns = jsonget_num(rr->rec[i], "idle_ns");

			if (isfinite(ns))
				rest += ns;
			continue;
		}
		if (!k.kind || strcmp(k.kind, "write_until") || k.phase < 0 ||
		    (size_t)k.phase >= nphases || !is_pass[k.phase])
			continue;
		if (cnt && v[cnt - 1].phase == k.phase && v[cnt - 1].repeat == k.repeat) {
			rest = 0; /* an idle inside a pass's records cannot happen; keep none */
			continue;
		}
		if (cnt == cap) {
			size_t nc = cap ? 2 * cap : 8;
			struct reader_gc_pass *t = realloc(v, nc * sizeof(*v));

			if (!t) {
				free(v);
				return -ENOMEM;
			}
			v = t;
			cap = nc;
		}
		v[cnt++] =
		    (struct reader_gc_pass){.phase = k.phase, .repeat = k.repeat, .rest_ns = rest};
		rest = 0;
	}
	*out = v;
	*n = cnt;
	return 0;
}
