/* SPDX-License-Identifier: MIT */
/* wsat: see wsat.h. */
#include "analysis/wsat.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

int wsat_summarize(const struct wsat_chunk *c, size_t n, uint64_t capacity, struct wsat_result *out)
{
	struct wsat_result r = {.first_iops = NAN};
	uint64_t written = 0;

	if (!capacity)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		r.written += c[i].bytes;
		r.elapsed_ns += c[i].elapsed_ns;
		r.ios += c[i].ios;
	}
	if (n && c[0].elapsed_ns)
		r.first_iops = c[0].ios * 1e9 / (double)c[0].elapsed_ns;
	r.nfills = r.written / capacity + 1;
	r.fills = calloc(r.nfills, sizeof(*r.fills));
	if (!r.fills)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct wsat_fill *x =
		    &r.fills[written / capacity < r.nfills ? written / capacity : r.nfills - 1];

		if (!x->elapsed_ns && !x->ios)
			x->from_bytes = written;
		x->ios += c[i].ios;
		x->elapsed_ns += c[i].elapsed_ns;
		written += c[i].bytes;
		x->to_bytes = written;
	}
	*out = r;
	return 0;
}
