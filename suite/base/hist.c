/* SPDX-License-Identifier: MIT */
/*
 * hist: the log-linear latency histogram of hist.h. Bins 0..127 hold one nanosecond value
 * each; above that, octave k (values in [2^k, 2^(k+1)), k = 7..36) has 64 bins of width
 * 2^(k-6). Percentiles report the middle of the bin that holds the requested rank, clamped to
 * the exact min and max, so p0 and p100 are exact and every other percentile is within half a
 * bin (at most 1/128 of the value) of the exact order statistic.
 */
#include "base/hist.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonnum.h"

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_reset(struct hist *h)
{
	hist_init(h);
}

uint64_t hist_bin_low(unsigned bin)
{
	unsigned j, k;

	if (bin < HIST_SUB)
		return bin;
	if (bin >= HIST_NBINS)
		bin = HIST_NBINS - 1;
	j = bin - HIST_SUB;
	k = HIST_SUB_BITS + j / (HIST_SUB / 2);
	return (uint64_t)(HIST_SUB / 2 + j % (HIST_SUB / 2)) << (k - HIST_SUB_BITS + 1);
}

uint64_t hist_bin_high(unsigned bin)
{
	unsigned k;

	if (bin < HIST_SUB)
		return bin;
	if (bin >= HIST_NBINS)
		bin = HIST_NBINS - 1;
	k = HIST_SUB_BITS + (bin - HIST_SUB) / (HIST_SUB / 2);
	return hist_bin_low(bin) + ((uint64_t)1 << (k - HIST_SUB_BITS + 1)) - 1;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (!src->count)
		return;
	for (unsigned i = 0; i < HIST_NBINS; i++)
		dst->bins[i] += src->bins[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

double hist_mean(const struct hist *h)
{
	return h->count ? h->sum / (double)h->count : 0.0;
}

uint64_t hist_rank(uint64_t count, double p)
{
	/* p as num / 1e8 (100% = 1e8), then ceil(num * count / 1e8) split as count = q * D + m so
	 * that no product exceeds 64 bits (num and m are below 1e8 + 1). */
	const uint64_t D = 100000000u;
	uint64_t num, q, m, rank;

	if (!count)
		return 0;
	if (!(p > 0.0)) /* also NaN */
		return 1;
	if (p >= 100.0)
		return count;
	num = (uint64_t)llround(p * 1e6);
	q = count / D;
	m = count % D;
	rank = num * q + (num * m + D - 1) / D;
	if (rank < 1)
		rank = 1;
	return rank > count ? count : rank;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0, v;

	if (!h->count)
		return 0;
	if (!(p > 0.0)) /* also NaN */
		return h->min;
	if (p >= 100.0)
		return h->max;
	/* The nearest-rank definition: the smallest value with at least p% of samples <= it. */
	rank = hist_rank(h->count, p);
	for (unsigned i = 0; i < HIST_NBINS; i++) {
		seen += h->bins[i];
		if (seen >= rank) {
			uint64_t lo = hist_bin_low(i), hi = hist_bin_high(i);

			v = lo + (hi - lo) / 2;
			if (v < h->min)
				v = h->min;
			if (v > h->max)
				v = h->max;
			return v;
		}
	}
	return h->max; /* not reached when count equals the sum of the bins */
}

struct json_object *hist_to_json(const struct hist *h)
{
	struct json_object *o = json_object_new_object(), *bins = NULL;

	if (!o)
		return NULL;
	bins = json_object_new_array();
	if (!bins)
		goto fail;
	if (json_object_object_add(o, "count", json_object_new_uint64(h->count)) ||
	    json_object_object_add(o, "min", json_object_new_uint64(h->count ? h->min : 0)) ||
	    json_object_object_add(o, "max", json_object_new_uint64(h->max)) ||
	    json_object_object_add(o, "sum", jsonnum_new(h->sum)) ||
	    json_object_object_add(o, "sub_bits", json_object_new_int(HIST_SUB_BITS)) ||
	    json_object_object_add(o, "max_bits", json_object_new_int(HIST_MAX_BITS)))
		goto fail;
	for (unsigned i = 0; i < HIST_NBINS; i++) {
		struct json_object *pair;

		if (!h->bins[i])
			continue;
		pair = json_object_new_array_ext(2);
		if (!pair)
			goto fail;
		if (json_object_array_add(pair, json_object_new_int((int)i)) ||
		    json_object_array_add(pair, json_object_new_uint64(h->bins[i])) ||
		    json_object_array_add(bins, pair)) {
			json_object_put(pair);
			goto fail;
		}
	}
	if (json_object_object_add(o, "bins", bins))
		goto fail;
	return o;
fail:
	json_object_put(bins);
	json_object_put(o);
	return NULL;
}

static int get_u64(struct json_object *o, const char *key, uint64_t *v)
{
	struct json_object *x;

	if (!json_object_object_get_ex(o, key, &x) || !json_object_is_type(x, json_type_int))
		return -EINVAL;
	*v = json_object_get_uint64(x);
	return 0;
}

int hist_from_json(struct json_object *o, struct hist *out)
{
	struct json_object *x, *bins;
	struct hist *h;
	uint64_t sub_bits, max_bits, total = 0;
	int rc = -EINVAL;

	if (!o || !json_object_is_type(o, json_type_object))
		return -EINVAL;
	if (get_u64(o, "sub_bits", &sub_bits) || sub_bits != HIST_SUB_BITS)
		return -EINVAL;
	/* Older writers may omit max_bits; when present it must match. */
	if (json_object_object_get_ex(o, "max_bits", &x) &&
	    (get_u64(o, "max_bits", &max_bits) || max_bits != HIST_MAX_BITS))
		return -EINVAL;
	if (!json_object_object_get_ex(o, "bins", &bins) ||
	    !json_object_is_type(bins, json_type_array))
		return -EINVAL;
	/* Build into a scratch copy so that *out stays untouched on failure. */
	h = malloc(sizeof(*h));
	if (!h)
		return -ENOMEM;
	hist_init(h);
	if (get_u64(o, "count", &h->count) || get_u64(o, "max", &h->max) ||
	    get_u64(o, "min", &h->min))
		goto out;
	if (!json_object_object_get_ex(o, "sum", &x) ||
	    !(json_object_is_type(x, json_type_double) || json_object_is_type(x, json_type_int)))
		goto out;
	h->sum = json_object_get_double(x);
	for (size_t i = 0; i < json_object_array_length(bins); i++) {
		struct json_object *pair = json_object_array_get_idx(bins, i), *b, *c;
		int64_t bin;

		if (!json_object_is_type(pair, json_type_array) ||
		    json_object_array_length(pair) != 2)
			goto out;
		b = json_object_array_get_idx(pair, 0);
		c = json_object_array_get_idx(pair, 1);
		if (!json_object_is_type(b, json_type_int) || !json_object_is_type(c, json_type_int))
			goto out;
		bin = json_object_get_int64(b);
		if (bin < 0 || bin >= HIST_NBINS)
			goto out;
		h->bins[bin] += json_object_get_uint64(c);
		total += json_object_get_uint64(c);
	}
	if (total != h->count)
		goto out;
	if (!h->count)
		h->min = UINT64_MAX;
	memcpy(out, h, sizeof(*h));
	rc = 0;
out:
	free(h);
	return rc;
}
