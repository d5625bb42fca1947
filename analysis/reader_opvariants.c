/* SPDX-License-Identifier: MIT */
/*
 * reader_opvariants: the record walk of the op-variants pass (reader.h): the measurements of one
 * (phase, repeat) summed, the way pass_opvariants.c reports a variant's measured phase.
 */
#include "analysis/reader.h"

#include <errno.h>
#include <stdlib.h>

int reader_phase_sum(const struct results_records *rr, int64_t phase, int64_t repeat,
		     struct cells_sum *out)
{
	struct reader_measurement *m = NULL;
	struct hist *h = NULL;
	size_t n = 0;
	int rc = reader_measurements(rr, &m, &n);

	if (rc)
		return rc;
	h = malloc(2 * sizeof(*h));
	if (!h) {
		rc = -ENOMEM;
		goto out;
	}
	cells_sum_init(out);
	for (size_t i = 0; i < n; i++) {
		struct cells_figures f;

		if (m[i].k.phase != phase || m[i].k.repeat != repeat)
			continue;
		hist_init(&h[0]);
		hist_init(&h[1]);
		rc = reader_figures_at(rr, m[i].index, &h[0], &h[1], &f);
		if (rc)
			goto out;
		cells_sum_add(out, &f);
	}
out:
	free(h);
	free(m);
	return rc;
}
