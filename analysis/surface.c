/* SPDX-License-Identifier: MIT */
/*
 * surface: min / median / max and slow regions of a surface scan's chunk speeds (surface.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/surface.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int surface_stats(const double *mbps, size_t n, double slow_frac, struct surface_stats *out)
{
	struct surface_stats s = {0};
	double *sorted;
	size_t run = 0;
	double run_sum = 0;

	if (!n || !(slow_frac > 0 && slow_frac <= 1))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(mbps[i]) || mbps[i] < 0)
			return -EINVAL;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, mbps, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	s.min_mbps = sorted[0];
	s.max_mbps = sorted[n - 1];
	s.median_mbps = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	free(sorted);
	s.slow_threshold_mbps = slow_frac * s.median_mbps;
	/* one pass; i == n closes a run that reaches the end */
	for (size_t i = 0; i <= n; i++) {
		if (i < n) {
			if (mbps[i] < mbps[s.min_chunk])
				s.min_chunk = i;
			if (mbps[i] > mbps[s.max_chunk])
				s.max_chunk = i;
		}
		if (i < n && mbps[i] < s.slow_threshold_mbps) {
			s.slow_chunks++;
			run++;
			run_sum += mbps[i];
			continue;
		}
		if (run) {
			if (s.nregions < SURFACE_MAX_REGIONS)
				s.regions[s.nregions] = (struct surface_region){
				    .first = i - run, .n = run, .mean_mbps = run_sum / (double)run};
			s.nregions++;
		}
		run = 0;
		run_sum = 0;
	}
	*out = s;
	return 0;
}
