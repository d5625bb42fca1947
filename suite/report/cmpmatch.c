/* SPDX-License-Identifier: MIT */
/*
 * cmpmatch: which figures several runs share and how far each is from the first run's
 * (cmpmatch.h). A linear search per name: a summary holds a few hundred figures, so the
 * quadratic cost is far below reading the JSON.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/cmpmatch.h"

static long find(const struct cmpmatch_run *run, const char *key)
{
	for (size_t i = 0; i < run->n; i++)
		if (!strcmp(run->keys[i], key))
			return (long)i;
	return -1;
}

bool cmpmatch_first(const struct cmpmatch_run *run, size_t i)
{
	return i < run->n && find(run, run->keys[i]) == (long)i;
}

bool cmpmatch_in_all(const struct cmpmatch_run *runs, size_t nruns, const char *key)
{
	for (size_t r = 0; r < nruns; r++)
		if (find(&runs[r], key) < 0)
			return false;
	return nruns > 0;
}

long cmpmatch_shared(const struct cmpmatch_run *runs, size_t nruns, size_t **idx)
{
	size_t rows = 0, *out;

	*idx = NULL;
	if (!nruns)
		return -EINVAL;
	if (!runs[0].n)
		return 0;
	out = calloc(runs[0].n * nruns, sizeof(*out));
	if (!out)
		return -ENOMEM;
	for (size_t i = 0; i < runs[0].n; i++) {
		bool all = cmpmatch_first(&runs[0], i);
		for (size_t r = 0; all && r < nruns; r++) {
			long k = find(&runs[r], runs[0].keys[i]);
			all = k >= 0;
			if (all)
				out[rows * nruns + r] = (size_t)k;
		}
		if (all)
			rows++;
	}
	if (!rows) {
		free(out);
		return 0;
	}
	*idx = out;
	return (long)rows;
}

int cmpmatch_diff(double v, double ref, double thr, double *ratio)
{
	*ratio = NAN;
	if (isnan(v) || !isfinite(ref))
		return -1;
	if (ref == 0) {
		if (v != 0)
			return -1;
		*ratio = 1;
		return 0;
	}
	*ratio = v / ref;
	/* the distance against thr x ref, not the ratio against 1 + thr: 110 against 100 at 10 %
	 * is then exactly on the threshold (within), where 110 / 100 - 1 rounds above 0.1 */
	return fabs(v - ref) > thr * fabs(ref) ? 1 : 0;
}
