/* SPDX-License-Identifier: MIT */
/* recovery: see recovery.h. */
#include "analysis/recovery.h"

#include <errno.h>
#include <math.h>

int recovery_scan(const struct recovery_point *p, size_t n, double steady,
		  const struct recovery_rule *rule, struct recovery_result *out)
{
	struct recovery_result r = {.first = NAN};
	uint64_t w_ns = 0, w_bytes = 0;	    /* writing before the current point */
	uint64_t run_ns = 0, run_bytes = 0; /* writing before the current run began */
	size_t run = 0;

	if (!n)
		return -ENODATA;
	if (!rule->rounds)
		return -EINVAL;
	r.first = p[0].value;
	for (size_t i = 0; i < n; i++) {
		r.measurements = i + 1;
		if (fabs(p[i].value - steady) <= rule->band * steady) {
			if (!r.has_first_in_band) {
				r.has_first_in_band = true;
				r.first_in_band_round = p[i].round;
			}
			if (!run++) {
				r.back_round = p[i].round;
				run_ns = w_ns;
				run_bytes = w_bytes;
			}
			if (run == rule->rounds) {
				r.back = true;
				r.back_after_ns = run_ns;
				r.back_after_bytes = run_bytes;
				break;
			}
		} else {
			run = 0;
		}
		w_ns += p[i].write_ns;
		w_bytes += p[i].write_bytes;
	}
	if (!r.back)
		r.back_round = 0;
	*out = r;
	return 0;
}
