/* SPDX-License-Identifier: MIT */
/*
 * snia_dirth: the DIRTH point choice and cell keys (see snia_dirth.h).
 */
#include "analysis/snia_dirth.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const char *snia_dirth_point_name(enum snia_dirth_point p)
{
	static const char *const names[] = {"max", "mid", "min"};

	return (unsigned)p < SNIA_DIRTH_NPOINTS ? names[p] : "?";
}

int snia_dirth_cell(const char *key, unsigned *threads, unsigned *qd)
{
	unsigned t, q;
	int used = 0;

	if (!key || sscanf(key, "threads=%u,qd=%u%n", &t, &q, &used) != 2 || !used || key[used] ||
	    !t || !q)
		return -EINVAL;
	*threads = t;
	*qd = q;
	return 0;
}

int snia_dirth_choose(const struct snia_dirth_cell *c, size_t n, struct snia_dirth_choice *out)
{
	struct snia_dirth_choice ch = {0};
	size_t have = 0, imax = 0, imin = 0, imid = 0;
	bool has_max = false, has_min = false, has_mid = false;
	double best = INFINITY;

	for (size_t i = 0; i < n; i++) {
		if (isnan(c[i].iops))
			continue;
		have++;
		/* strictly greater: a tie keeps the first, the higher TOIO of a high-to-low round
		 */
		if (!has_max || c[i].iops > c[imax].iops)
			imax = i, has_max = true;
		if (c[i].threads == 1 && c[i].qd == 1 && !has_min)
			imin = i, has_min = true;
	}
	if (have < SNIA_DIRTH_NPOINTS)
		return -EINVAL;
	if (!has_min)
		return -ENOENT;
	if (imin == imax) {
		/* TC1/QD1 is also the fastest: Max is the fastest of the others, so that the three
		 * points stay three different cells */
		has_max = false;
		for (size_t i = 0; i < n; i++)
			if (i != imin && !isnan(c[i].iops) &&
			    (!has_max || c[i].iops > c[imax].iops))
				imax = i, has_max = true;
	}
	ch.mid_target = (c[imax].iops + c[imin].iops) / 2;
	for (size_t i = 0; i < n; i++) {
		double d = fabs(c[i].iops - ch.mid_target);

		if (i == imax || i == imin || isnan(c[i].iops))
			continue;
		if (!has_mid || d < best)
			imid = i, best = d, has_mid = true;
	}
	ch.idx[SNIA_DIRTH_MAX] = imax;
	ch.idx[SNIA_DIRTH_MID] = imid;
	ch.idx[SNIA_DIRTH_MIN] = imin;
	snprintf(ch.why[SNIA_DIRTH_MAX], sizeof(ch.why[0]),
		 "the highest IOPS of the %zu TOIO cells (%.1f at TC%u/QD%u)", have, c[imax].iops,
		 c[imax].threads, c[imax].qd);
	snprintf(ch.why[SNIA_DIRTH_MID], sizeof(ch.why[0]),
		 "the IOPS nearest the middle of Max and Min, %.1f (%.1f at TC%u/QD%u)",
		 ch.mid_target, c[imid].iops, c[imid].threads, c[imid].qd);
	snprintf(ch.why[SNIA_DIRTH_MIN], sizeof(ch.why[0]),
		 "TC1/QD1, the lowest demand (%.1f IOPS)", c[imin].iops);
	*out = ch;
	return 0;
}
