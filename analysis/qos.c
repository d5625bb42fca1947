/* SPDX-License-Identifier: MIT */
/* qos: see qos.h. */
#include "analysis/qos.h"

#include <string.h>

static const struct {
	double p;
	const char *key;
} pcts[QOS_NPCT] = {
    {50, "p50"},     {90, "p90"},	{95, "p95"},	     {99, "p99"},
    {99.9, "p99_9"}, {99.99, "p99_99"}, {99.999, "p99_999"},
};

static const struct {
	uint64_t ns;
	const char *key;
} overs[QOS_NOVER] = {{1000000, "1ms"}, {10000000, "10ms"}, {100000000, "100ms"}};

/* R10 preferred numbers (ISO 3), in hundredths: ten steps of about 10^(1/10) per decade, so
 * that the points are evenly spaced on a log axis and land on round latencies. */
static const unsigned r10[QOS_PER_DECADE] = {100, 125, 160, 200, 250, 315, 400, 500, 630, 800};

/* I/Os in bins after bin b: those slower than hist_bin_high(b). */
static uint64_t above_bin(const struct hist *h, unsigned b)
{
	uint64_t n = 0;

	for (unsigned i = b + 1; i < HIST_NBINS; i++)
		n += h->bins[i];
	return n;
}

static void over(const struct hist *h, uint64_t ns, struct qos_over *o)
{
	unsigned b = hist_bin(ns);

	o->ns = ns;
	o->ios = above_bin(h, b);
	o->ios_max = o->ios;
	/* The bin that holds ns may hold slower I/Os too, unless it ends at ns. */
	if (hist_bin_high(b) > ns)
		o->ios_max += h->bins[b];
	/* The exact extremes settle it where they can. */
	if (h->max <= ns)
		o->ios = o->ios_max = 0;
	else if (h->min > ns)
		o->ios = o->ios_max = h->count;
}

static void curve(const struct hist *h, struct qos_dir *q)
{
	/* The last bin also holds everything beyond 2^HIST_MAX_BITS: no edge to stand on there. */
	const uint64_t top = hist_bin_low(HIST_NBINS - 1);
	unsigned last_b = HIST_NBINS;

	q->npoints = 0;
	for (uint64_t dec = 1;; dec *= 10) {
		for (unsigned j = 0; j < QOS_PER_DECADE; j++) {
			uint64_t t = r10[j] * dec;
			unsigned b = hist_bin(t);
			struct qos_point pt;

			if (t >= top)
				return;
			if (b == last_b)
				continue;
			last_b = b;
			pt.ns = hist_bin_high(b);
			pt.ios = above_bin(h, b);
			pt.fraction = (double)pt.ios / (double)h->count;
			if (!pt.ios)
				return;
			/* Only the last point of the flat start at 1 is kept. */
			if (pt.ios == h->count && q->npoints &&
			    q->points[q->npoints - 1].ios == h->count)
				q->npoints--;
			if (q->npoints < QOS_MAX_POINTS)
				q->points[q->npoints++] = pt;
		}
	}
}

void qos_compute(const struct hist *h, struct qos_dir *q)
{
	memset(q, 0, sizeof(*q));
	q->samples = h->count;
	for (size_t i = 0; i < QOS_NPCT; i++) {
		struct qos_pct *p = &q->pct[i];

		p->p = pcts[i].p;
		p->key = pcts[i].key;
		if (!h->count)
			continue;
		p->ns = hist_percentile(h, p->p);
		p->rank = hist_rank(h->count, p->p);
		p->beyond = h->count - p->rank;
		p->thin = p->beyond < QOS_THIN_BEYOND;
	}
	for (size_t i = 0; i < QOS_NOVER; i++) {
		q->over[i].key = overs[i].key;
		if (h->count)
			over(h, overs[i].ns, &q->over[i]);
		else
			q->over[i].ns = overs[i].ns;
	}
	if (h->count)
		curve(h, q);
}
