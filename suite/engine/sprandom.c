/* SPDX-License-Identifier: MIT */
/*
 * sprandom: the sprandom fill's write sequence (see sprandom.h for the theory and the layout).
 * Two tables of R + 1 cumulative counts (writes and finals per region) and keys; everything per
 * index is computed from them.
 */
#include "engine/sprandom.h"
#include "base/errmsg.h"
#include "base/prng.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

struct sprandom {
	uint64_t units;
	double alpha;
	unsigned regions;
	uint64_t seed;
	uint64_t key_sigma, key_pi, key_nonfinal;
	/* wstart[r]: first write index of region r; fstart[r]: first final rank of region r;
	 * both have regions + 1 entries (the last = total writes, units) */
	uint64_t *wstart;
	uint64_t *fstart;
};

double sprandom_alpha(double u_over_p)
{
	double lo = 1e-300, hi = 1;

	if (!(u_over_p > 0 && u_over_p < 1))
		return NAN;
	/* g(a) = (1 - a) / ln(1 / a) rises from 0 (a -> 0) to 1 (a -> 1): bisect g(a) = u/p. */
	for (int i = 0; i < 200 && hi - lo > 1e-12; i++) {
		double mid = lo / 2 + hi / 2;
		double g = (1 - mid) / -log(mid);

		if (g < u_over_p)
			lo = mid;
		else
			hi = mid;
	}
	return lo / 2 + hi / 2;
}

/*
 * A keyed bijection of [0, n): a balanced 4-round Feistel network on 2h bits (2^2h >= n, so at
 * most 4n), cycle-walked until the value falls inside [0, n) (a permutation's cycle through x
 * returns to [0, n), so this terminates; expected under 4 steps).
 */
static uint64_t permute(uint64_t x, uint64_t n, uint64_t key)
{
	unsigned bits = 0, h;
	uint64_t mask;

	if (n <= 1)
		return 0;
	while (bits < 64 && (1ull << bits) < n)
		bits++;
	h = (bits + 1) / 2;
	mask = (1ull << h) - 1;
	do {
		uint64_t l = x >> h, r = x & mask;

		for (unsigned round = 0; round < 4; round++) {
			uint64_t f = prng_mix64(key ^ (r + ((uint64_t)round << 56))) & mask;
			uint64_t t = r;

			r = l ^ f;
			l = t;
		}
		x = (l << h) | r;
	} while (x >= n);
	return x;
}

double sprandom_region_target(const struct sprandom *s, unsigned r)
{
	return pow(s->alpha, 1 - (double)r / (double)(s->regions - 1));
}

int sprandom_create(uint64_t units, double alpha, unsigned regions, uint64_t seed,
		    struct sprandom **out, char *err, size_t errlen)
{
	struct sprandom *s;
	double vsum = 0, cum = 0;
	uint64_t k = seed;
	int rc = -ENOMEM;

	if (!(alpha > 0 && alpha < 1))
		return errmsg_set(err, errlen, -EINVAL,
				  "the steady-state clean validity alpha must be in (0, 1), not %g",
				  alpha);
	if (regions < 2 || regions > SPRANDOM_MAX_REGIONS)
		return errmsg_set(err, errlen, -EINVAL, "regions must be 2 to %u, not %u",
				  SPRANDOM_MAX_REGIONS, regions);
	if (units / SPRANDOM_MIN_UNITS_PER_REGION < regions)
		return errmsg_set(err, errlen, -EINVAL,
				  "%" PRIu64 " write units are too few for %u regions (at least %u "
				  "units a region)",
				  units, regions, SPRANDOM_MIN_UNITS_PER_REGION);
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->wstart = calloc(regions + 1, sizeof(*s->wstart));
	s->fstart = calloc(regions + 1, sizeof(*s->fstart));
	if (!s->wstart || !s->fstart)
		goto fail;
	s->units = units;
	s->alpha = alpha;
	s->regions = regions;
	s->seed = seed;
	s->key_sigma = prng_splitmix64(&k);
	s->key_pi = prng_splitmix64(&k);
	s->key_nonfinal = prng_splitmix64(&k);
	for (unsigned r = 0; r < regions; r++)
		vsum += sprandom_region_target(s, r);
	/* Final ranks by cumulative rounding (the counts add up to units exactly); a region's
	 * writes W_r = round(F_r / v_r), never fewer than its finals. */
	for (unsigned r = 0; r < regions; r++) {
		double v = sprandom_region_target(s, r);
		uint64_t f, w;

		cum += v;
		s->fstart[r + 1] = r + 1 == regions ? units
						    : (uint64_t)llround((double)units * cum / vsum);
		f = s->fstart[r + 1] - s->fstart[r];
		w = r + 1 == regions ? f : (uint64_t)llround((double)f / v);
		s->wstart[r + 1] = s->wstart[r] + (w < f ? f : w);
	}
	/* The last region holds finals only; the non-finals before it need somewhere to go. */
	if (s->fstart[regions] == s->fstart[regions - 1]) {
		rc = errmsg_set(err, errlen, -EINVAL, "the newest region has no writes");
		goto fail;
	}
	*out = s;
	return 0;
fail:
	sprandom_free(s);
	return rc;
}

void sprandom_free(struct sprandom *s)
{
	if (!s)
		return;
	free(s->wstart);
	free(s->fstart);
	free(s);
}

unsigned sprandom_default_regions(uint64_t units)
{
	uint64_t r = units / SPRANDOM_MIN_UNITS_PER_REGION;

	return r >= SPRANDOM_DEFAULT_REGIONS ? SPRANDOM_DEFAULT_REGIONS : r < 2 ? 2 : (unsigned)r;
}

uint64_t sprandom_total(const struct sprandom *s)
{
	return s->wstart[s->regions];
}

uint64_t sprandom_units(const struct sprandom *s)
{
	return s->units;
}

unsigned sprandom_regions(const struct sprandom *s)
{
	return s->regions;
}

uint64_t sprandom_unit(const struct sprandom *s, uint64_t i)
{
	unsigned lo = 0, hi = s->regions - 1;
	uint64_t j, w, f, p, rank;

	i %= sprandom_total(s);
	/* the region holding i: the last r with wstart[r] <= i */
	while (lo < hi) {
		unsigned mid = (lo + hi + 1) / 2;

		if (s->wstart[mid] <= i)
			lo = mid;
		else
			hi = mid - 1;
	}
	j = i - s->wstart[lo];
	w = s->wstart[lo + 1] - s->wstart[lo];
	f = s->fstart[lo + 1] - s->fstart[lo];
	p = permute(j, w, s->key_pi ^ prng_mix64(lo));
	if (p < f) {
		rank = s->fstart[lo] + p;
	} else {
		/* a unit whose final write comes in a later region (one exists: the last region's
		 * finals, for every region before it) */
		uint64_t later = s->units - s->fstart[lo + 1];

		rank = s->fstart[lo + 1] + prng_mix64(s->key_nonfinal ^ i) % later;
	}
	return permute(rank, s->units, s->key_sigma);
}

void sprandom_region(const struct sprandom *s, unsigned r, uint64_t *first, uint64_t *writes,
		     uint64_t *finals)
{
	*first = s->wstart[r];
	*writes = s->wstart[r + 1] - s->wstart[r];
	*finals = s->fstart[r + 1] - s->fstart[r];
}

size_t sprandom_memory(const struct sprandom *s)
{
	return sizeof(*s) + 2 * (s->regions + 1) * sizeof(uint64_t);
}
