/* SPDX-License-Identifier: MIT */
/*
 * snia_ecw: TOIO points of the SNIA ECW block (see snia_ecw.h). No I/O, no JSON.
 */
#include "analysis/snia_ecw.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

const unsigned ecw_levels[ECW_NLEVELS] = {32, 16, 8, 6, 4, 2, 1};

/* The value of "name=" in a comma-separated key; -ENOENT absent, -EINVAL not a number. */
static int coord(const char *cell, const char *name, unsigned *v)
{
	size_t len = strlen(name);

	for (const char *p = cell; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		char *end;
		unsigned long x;

		if (strncmp(p, name, len) || p[len] != '=')
			continue;
		if (p[len + 1] < '0' || p[len + 1] > '9')
			return -EINVAL;
		x = strtoul(p + len + 1, &end, 10);
		if ((*end && *end != ',') || x == 0 || x > 65536)
			return -EINVAL;
		*v = (unsigned)x;
		return 0;
	}
	return -ENOENT;
}

int ecw_cell_toio(const char *cell, unsigned *threads, unsigned *qd)
{
	unsigned t, q;
	int rc = coord(cell, "threads", &t);

	if (!rc)
		rc = coord(cell, "qd", &q);
	if (rc)
		return rc;
	*threads = t;
	*qd = q;
	return 0;
}

static int level(unsigned v)
{
	for (int i = 0; i < ECW_NLEVELS; i++)
		if (ecw_levels[i] == v)
			return i;
	return -1;
}

int ecw_order(unsigned threads, unsigned qd)
{
	int t = level(threads), q = level(qd);

	return t < 0 || q < 0 ? -1 : t * ECW_NLEVELS + q;
}

struct keyed {
	struct ecw_point p;
	long first; /* index of its first cell: the order of points outside the matrix */
	double sum;
};

static int keyed_cmp(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int ox = ecw_order(x->p.threads, x->p.qd), oy = ecw_order(y->p.threads, y->p.qd);

	/* Matrix points first in run order, the others after them as first seen. */
	if ((ox < 0) != (oy < 0))
		return ox < 0 ? 1 : -1;
	if (ox != oy && ox >= 0)
		return ox < oy ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

int ecw_points(const struct ecw_cell *cells, size_t n, struct ecw_point *out, size_t *npoints)
{
	struct keyed *k = calloc(n ? n : 1, sizeof(*k));
	size_t np = 0;

	if (!k)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct ecw_cell *c = &cells[i];
		size_t j;

		for (j = 0; j < np && (k[j].p.threads != c->threads || k[j].p.qd != c->qd); j++)
			;
		if (j == np) {
			k[np++] = (struct keyed){.p = {.threads = c->threads,
						       .qd = c->qd,
						       .first_round = c->round,
						       .last_round = c->round},
						 .first = (long)i};
		}
		if (c->round < k[j].p.first_round)
			k[j].p.first_round = c->round;
		if (c->round > k[j].p.last_round)
			k[j].p.last_round = c->round;
		if (isnan(c->iops))
			continue;
		k[j].sum += c->iops;
		k[j].p.rounds++;
	}
	qsort(k, np, sizeof(*k), keyed_cmp);
	for (size_t j = 0; j < np; j++) {
		out[j] = k[j].p;
		out[j].iops = k[j].p.rounds ? k[j].sum / (double)k[j].p.rounds : NAN;
	}
	free(k);
	*npoints = np;
	return 0;
}

long ecw_max_point(const struct ecw_point *p, size_t n)
{
	long best = -1;

	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i].iops) && (best < 0 || p[i].iops > p[best].iops))
			best = (long)i;
	return best;
}
