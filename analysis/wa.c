/* SPDX-License-Identifier: MIT */
/* wa: see wa.h. */
#include "analysis/wa.h"

#include <errno.h>
#include <math.h>

#include "results/snapshot.h"

int wa_ratio(double host0, double host1, double nand0, double nand1, double *wa)
{
	double host, nand;

	if (!isfinite(host0) || !isfinite(host1) || !isfinite(nand0) || !isfinite(nand1))
		return -ENODATA;
	host = host1 - host0;
	nand = nand1 - nand0;
	/*
	 * Nothing written, or a counter that went backwards (a sim reset by a purge, a drive that
	 * wrapped a counter): no meaningful ratio.
	 */
	if (!(host > 0) || nand < 0)
		return -ENODATA;
	*wa = nand / host;
	return 0;
}

int wa_between(const struct snapshot *a, const struct snapshot *b, double *wa)
{
	const struct counter *h0 = snapshot_get(a, "host_bytes_written"),
			     *h1 = snapshot_get(b, "host_bytes_written"),
			     *n0 = snapshot_get(a, "nand_bytes_written"),
			     *n1 = snapshot_get(b, "nand_bytes_written");

	if (!h0 || !h1 || !n0 || !n1)
		return -ENODATA;
	return wa_ratio(h0->value, h1->value, n0->value, n1->value, wa);
}

int wa_deltas(const struct snapshot *a, const struct snapshot *b, double *host, double *nand)
{
	const struct counter *h0 = snapshot_get(a, "host_bytes_written"),
			     *h1 = snapshot_get(b, "host_bytes_written"),
			     *n0 = snapshot_get(a, "nand_bytes_written"),
			     *n1 = snapshot_get(b, "nand_bytes_written");

	if (!h0 || !h1 || !n0 || !n1)
		return -ENODATA;
	*host = h1->value - h0->value;
	*nand = n1->value - n0->value;
	return 0;
}

static bool same_phase(const struct wa_point *q, int64_t phase, int64_t repeat)
{
	return q->phase >= 0 && q->phase == phase && q->has_repeat && q->repeat == repeat;
}

size_t wa_phase_spans(const struct wa_point *p, size_t n, struct wa_span *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		int64_t phase = p[i].phase, repeat = p[i].has_repeat ? p[i].repeat : 0;
		size_t first = i, last = i, from = 0;
		bool seen = false;

		if (phase < 0)
			continue;
		/* First-seen order: skip a (phase, repeat) met before. */
		for (size_t j = 0; j < i && !seen; j++)
			seen = same_phase(&p[j], phase, repeat);
		if (seen)
			continue;
		for (size_t j = i + 1; j < n; j++)
			if (same_phase(&p[j], phase, repeat))
				last = j;
		if (first == last) {
			if (!first)
				continue;
			first--;
		}
		for (size_t j = first + 1; j < last; j++)
			if (p[j].ramp_end && same_phase(&p[j], phase, repeat))
				from = j;
		out[k++] = (struct wa_span){.phase = phase,
					    .repeat = repeat,
					    .from = from ? from : first,
					    .total_from = first,
					    .to = last};
	}
	return k;
}

int wa_bracket(const uint64_t *t, const bool *has_t, size_t n, uint64_t t0, uint64_t t1,
	       size_t *from, size_t *to)
{
	long a = -1, b = -1;

	for (size_t i = 0; i < n; i++) {
		if (!has_t[i])
			continue;
		if (t[i] <= t0)
			a = (long)i;
		if (t[i] >= t1 && b < 0 && a >= 0)
			b = (long)i;
	}
	if (a < 0 || b < 0 || a >= b)
		return -ENODATA;
	*from = (size_t)a;
	*to = (size_t)b;
	return 0;
}
