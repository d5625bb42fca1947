/* SPDX-License-Identifier: MIT */
/* snia: see snia.h. */
#include "analysis/snia.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"

static const char *const names[] = {
    [SNIA_IOPS] = "iops", [SNIA_THROUGHPUT] = "throughput",
    [SNIA_LATENCY] = "latency", [SNIA_WSAT] = "wsat", [SNIA_XSR] = "xsr"};

const char *snia_test_name(enum snia_test t)
{
	return t > SNIA_NONE && t <= SNIA_LAST ? names[t] : NULL;
}

enum snia_test snia_test_parse(const char *name)
{
	for (int t = SNIA_IOPS; name && t <= SNIA_LAST; t++)
		if (!strcmp(name, names[t]))
			return (enum snia_test)t;
	return SNIA_NONE;
}

enum snia_test snia_test_from_profile(const char *profile)
{
	if (!profile)
		return SNIA_NONE;
	/* The old name of snia-wsat (issue 15 renamed it): its results keep their block. */
	if (!strcmp(profile, "wsat"))
		return SNIA_WSAT;
	if (strncmp(profile, "snia-", 5))
		return SNIA_NONE;
	for (int t = SNIA_IOPS; t <= SNIA_LAST; t++) {
		size_t l = strlen(names[t]);

		/* snia-iops and its variants (snia-iops-client), not snia-iopsx */
		if (!strncmp(profile + 5, names[t], l) &&
		    (profile[5 + l] == '\0' || profile[5 + l] == '-'))
			return (enum snia_test)t;
	}
	return SNIA_NONE;
}

int snia_cell_coords(const char *cell, struct snia_coords *c)
{
	c->rwmix_read = -1;
	c->bs = 0;
	c->rw[0] = '\0';
	for (const char *p = cell; p && *p;) {
		const char *end = strchr(p, ','), *eq = strchr(p, '=');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char v[32];

		if (!eq || eq > p + n || (size_t)(p + n - eq - 1) >= sizeof(v))
			return -EINVAL;
		snprintf(v, sizeof(v), "%.*s", (int)(p + n - eq - 1), eq + 1);
		if (eq - p == 10 && !strncmp(p, "rwmix_read", 10)) {
			uint64_t x;

			if (units_parse_u64(v, &x) || x > 100)
				return -EINVAL;
			c->rwmix_read = (int)x;
		} else if (eq - p == 2 && !strncmp(p, "bs", 2)) {
			if (units_parse_size(v, &c->bs) || !c->bs)
				return -EINVAL;
		} else if (eq - p == 2 && !strncmp(p, "rw", 2)) {
			snprintf(c->rw, sizeof(c->rw), "%s", v);
		}
		/* other coordinates (qd, threads) do not place a cell in the PTS tables */
		p = end ? end + 1 : NULL;
	}
	return 0;
}

int snia_spec_order(enum snia_test t, int rwmix_read, uint64_t bs)
{
	/* SNIA PTS-E 1.1, IOPS test: "R/W Mix % ... Block Size" loops, in this order. */
	static const int iops_mix[] = {100, 95, 65, 50, 35, 5, 0};
	static const uint64_t iops_bs[] = {1 << 20, 128 << 10, 64 << 10, 32 << 10,
					   16 << 10, 8 << 10,	4 << 10,  512};
	/* Latency test: R/W 0/100, 65/35, 100/0 (PTS-E 1.1 lists reads first as IOPS does) x
	 * 0.5, 4, 8 KiB. */
	static const int lat_mix[] = {100, 65, 0};
	static const uint64_t lat_bs[] = {512, 4 << 10, 8 << 10};
	const int *mix;
	const uint64_t *bss;
	size_t nm, nb;

	if (t == SNIA_IOPS) {
		mix = iops_mix, nm = sizeof(iops_mix) / sizeof(*mix);
		bss = iops_bs, nb = sizeof(iops_bs) / sizeof(*bss);
	} else if (t == SNIA_LATENCY) {
		mix = lat_mix, nm = sizeof(lat_mix) / sizeof(*mix);
		bss = lat_bs, nb = sizeof(lat_bs) / sizeof(*bss);
	} else {
		return -1;
	}
	for (size_t i = 0; i < nm; i++)
		for (size_t j = 0; j < nb; j++)
			if (mix[i] == rwmix_read && bss[j] == bs)
				return (int)(i * nb + j);
	return -1;
}

double snia_window_mean(const double *y, const int64_t *round, size_t n, int64_t lo, int64_t hi,
			size_t *used)
{
	double s = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (round[i] >= lo && round[i] <= hi && !isnan(y[i])) {
			s += y[i];
			k++;
		}
	if (used)
		*used = k;
	return k ? s / (double)k : NAN;
}

void snia_latency(const struct hist *h, struct snia_lat *out)
{
	static const struct {
		double p;
		const char *key;
	} pcts[SNIA_NPCT] = {{99, "p99"}, {99.9, "p99_9"}, {99.99, "p99_99"}, {99.999, "p99_999"}};

	memset(out, 0, sizeof(*out));
	out->samples = h->count;
	out->mean_ns = h->count ? h->sum / (double)h->count : NAN;
	out->max_ns = h->count ? h->max : 0;
	for (int i = 0; i < SNIA_NPCT; i++) {
		struct snia_pct *q = &out->pct[i];

		q->p = pcts[i].p;
		q->key = pcts[i].key;
		if (!h->count)
			continue;
		q->ns = hist_percentile(h, q->p);
		q->rank = hist_rank(h->count, q->p);
		/* The figure is the rank-th sample; it and those slower than it are what it
		 * says anything about: a p99.999 of 100 000 I/Os rests on one sample. */
		q->samples = h->count - q->rank + 1;
		q->few = q->samples < SNIA_FEW_SAMPLES;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int snia_wsat_levels(const struct wsat_chunk *c, size_t n, uint64_t capacity,
		     struct snia_wsat *out)
{
	struct snia_wsat r = {.plateau_iops = NAN, .steady_iops = NAN};
	uint64_t written = 0, from = 0, sios = 0, sns = 0;
	double *v;
	size_t nv = 0;

	if (!capacity)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		written += c[i].bytes;
	v = malloc((n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	/* The plateau level: the median over the chunks that end within the first half fill, so
	 * that a first burst into an SLC cache does not set it and the drop (after the free
	 * space, about one fill after a purge) does not reach it. */
	for (size_t i = 0; i < n; i++) {
		from += c[i].bytes;
		if (c[i].elapsed_ns && (double)from <= SNIA_WSAT_PLATEAU_FILL * (double)capacity)
			v[nv++] = c[i].ios * 1e9 / (double)c[i].elapsed_ns;
	}
	for (size_t i = 0; !nv && i < n; i++)
		if (c[i].elapsed_ns)
			v[nv++] = c[i].ios * 1e9 / (double)c[i].elapsed_ns;
	if (nv) {
		qsort(v, nv, sizeof(*v), cmp_double);
		r.plateau_iops = nv % 2 ? v[nv / 2] : (v[nv / 2 - 1] + v[nv / 2]) / 2;
	}
	free(v);
	r.plateau_chunks = n;
	from = 0;
	for (size_t i = 0; nv && i < n; i++) {
		size_t run = 0, need = 0;

		for (size_t j = i; j < n && need < SNIA_WSAT_DROP_RUN; j++) {
			if (!c[j].elapsed_ns)
				continue;
			need++;
			run += c[j].ios * 1e9 / (double)c[j].elapsed_ns <
			       (1 - SNIA_WSAT_DROP) * r.plateau_iops;
		}
		if (c[i].elapsed_ns && need && run == need &&
		    c[i].ios * 1e9 / (double)c[i].elapsed_ns <
			(1 - SNIA_WSAT_DROP) * r.plateau_iops) {
			r.has_drop = true;
			r.drop_chunk = i;
			r.drop_bytes = from;
			r.plateau_chunks = i;
			break;
		}
		from += c[i].bytes;
	}
	/* The steady level: the chunks that start in the last capacity written. */
	from = 0;
	for (size_t i = 0; i < n; i++) {
		if (from + capacity >= written && c[i].elapsed_ns) {
			if (!r.steady_chunks)
				r.steady_from_bytes = from;
			r.steady_chunks++;
			sios += c[i].ios;
			sns += c[i].elapsed_ns;
		}
		from += c[i].bytes;
	}
	/* Chunks longer than a fill: none starts in the last one; the last chunk is the level. */
	from = written;
	for (size_t i = n; !r.steady_chunks && i-- > 0;) {
		from -= c[i].bytes;
		if (c[i].elapsed_ns) {
			r.steady_from_bytes = from;
			r.steady_chunks = 1;
			sios = c[i].ios;
			sns = c[i].elapsed_ns;
		}
	}
	if (sns)
		r.steady_iops = sios * 1e9 / (double)sns;
	*out = r;
	return 0;
}
