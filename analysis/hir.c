/* SPDX-License-Identifier: MIT */
/*
 * hir: SNIA PTS host idle recovery's wait states (hir.h). The mean of a wait state is the plain
 * mean of its bursts' IOPS: every burst lasts the same time, so it is also the IOPS of the
 * state's bursts taken together up to their drains (CH's hir_wait_Ns_iops is the same mean).
 */
#include "analysis/hir.h"

#include <errno.h>
#include <math.h>

int hir_states(const struct hir_point *p, size_t n, double steady, struct hir_state *out,
	       size_t *nout)
{
	size_t k = 0;
	double sum = 0;

	if (!out || !nout)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		struct hir_state *s;

		if (!p[i].burst)
			continue;
		if (!k || out[k - 1].phase != p[i].phase || out[k - 1].repeat != p[i].repeat) {
			if (k)
				out[k - 1].mean_iops =
				    out[k - 1].used ? sum / out[k - 1].used : NAN;
			out[k++] = (struct hir_state){.phase = p[i].phase,
						      .repeat = p[i].repeat,
						      .wait_profile_ns = p[i].wait_profile_ns,
						      .wait_ns = p[i].wait_ns,
						      .floored = p[i].floored,
						      .first = i};
			sum = 0;
		}
		s = &out[k - 1];
		s->n = i - s->first + 1;
		if (isfinite(p[i].iops)) {
			sum += p[i].iops;
			s->used++;
		}
	}
	if (k)
		out[k - 1].mean_iops = out[k - 1].used ? sum / out[k - 1].used : NAN;
	for (size_t j = 0; j < k; j++)
		out[j].of_steady = steady > 0 ? out[j].mean_iops / steady : NAN;
	*nout = k;
	return 0;
}
