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
		/* A phase run again (a variant redone on resume, run/runner.h I7) has a start
		 * snapshot of its own: the span is the last run's. */
		for (size_t j = first + 1; j < last; j++)
			if (p[j].start && same_phase(&p[j], phase, repeat))
				first = j;
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

/* ---- WA with its uncertainty ---------------------------------------------------------------- */

static double counter_or_nan(const struct snapshot *s, const char *name)
{
	const struct counter *c = snapshot_get(s, name);

	return c ? c->value : NAN;
}

void wa_counts_of(const struct snapshot *s, struct wa_counts *c)
{
	double rh = counter_or_nan(s, "host_bytes_written_resolution"),
	       rn = counter_or_nan(s, "nand_bytes_written_resolution");

	c->host = counter_or_nan(s, "host_bytes_written");
	c->nand = counter_or_nan(s, "nand_bytes_written");
	c->host_pages = counter_or_nan(s, "host_pages_written");
	c->ftl_pages = counter_or_nan(s, "ftl_pages_written");
	c->slc = counter_or_nan(s, "nand_bytes_written_slc");
	c->tlc = counter_or_nan(s, "nand_bytes_written_tlc");
	/* An absent resolution is an exact counter (the sim counts every byte). */
	c->host_res = isfinite(rh) && rh > 0 ? rh : 0;
	c->nand_res = isfinite(rn) && rn > 0 ? rn : 0;
}

const char *wa_reason_text(enum wa_reason r)
{
	switch (r) {
	case WA_OK:
		return NULL;
	case WA_NO_HOST_COUNTER:
		return "no host-write counter";
	case WA_NO_NAND_COUNTER:
		return "no NAND-write counter";
	case WA_NO_HOST_WRITES:
		return "no host writes in the window";
	case WA_BACKWARDS:
		return "a counter went backwards";
	case WA_BELOW_RESOLUTION:
		return "delta_below_resolution";
	}
	return "unknown";
}

double wa_bytes_needed(double rh, double rn)
{
	double c = rh + rn, h;

	/*
	 * With N = w H (w = 1) the interval's width is
	 *   (N + rn) / (H - rh) - (N - rn) / (H + rh) = 2 (N rh + H rn) / (H^2 - rh^2),
	 * relative to WA = N / H: 2 H (rh + rn) / (H^2 - rh^2) <= m (m = WA_MAX_REL_WIDTH) gives
	 * m H^2 - 2 c H - m rh^2 >= 0, c = rh + rn, so H >= (c + sqrt(c^2 + m^2 rh^2)) / m.
	 */
	h = (c + sqrt(c * c + WA_MAX_REL_WIDTH * WA_MAX_REL_WIDTH * rh * rh)) / WA_MAX_REL_WIDTH;
	return rh > 0 ? ceil(h / rh) * rh : ceil(h);
}

/* Whether [lo, hi] is narrow enough around wa (WA_MAX_REL_WIDTH). */
static bool narrow(double wa, double lo, double hi)
{
	if (hi - lo == 0)
		return true; /* exact counters: also a WA of 0 */
	return isfinite(hi) && wa > 0 && (hi - lo) / wa <= WA_MAX_REL_WIDTH;
}

static void estimate_pages(const struct wa_counts *a, const struct wa_counts *b,
			   struct wa_estimate *e)
{
	double p = b->host_pages - a->host_pages, f = b->ftl_pages - a->ftl_pages,
	       host = b->host - a->host;

	e->pages = true;
	e->host_delta = p;
	e->nand_delta = f;
	e->host_res = e->nand_res = 1; /* a page counter counts whole pages */
	if (p < 0 || f < 0) {
		e->reason = WA_BACKWARDS;
		return;
	}
	if (p == 0) {
		e->reason = WA_NO_HOST_WRITES;
		return;
	}
	/* Micron: 247 counts the host's pages, 248 only the FTL's own, so WA = (P + F) / P. */
	e->lo = 1 + fmax(f - 1, 0) / (p + 1);
	e->hi = p > 1 ? 1 + (f + 1) / (p - 1) : INFINITY;
	/*
	 * The width 2 (F + P) / (P^2 - 1) relative to (P + F) / P is 2 P / (P^2 - 1), whatever F:
	 * <= 0.1 from P^2 - 20 P - 1 >= 0, P >= 10 + sqrt(101) = 20.05: WA_PAGES_NEEDED pages.
	 */
	if (!narrow((p + f) / p, e->lo, e->hi)) {
		e->reason = WA_BELOW_RESOLUTION;
		/* Host bytes per page from the sector counter Micron also keeps (246). */
		if (isfinite(host) && host > 0)
			e->bytes_needed = ceil(WA_PAGES_NEEDED * host / p);
		return;
	}
	e->wa = (p + f) / p;
	e->compression = e->hi < 1;
}

void wa_estimate(const struct wa_counts *a, const struct wa_counts *b, struct wa_estimate *e)
{
	double h, n, rh, rn;

	*e = (struct wa_estimate){.wa = NAN, .lo = NAN, .hi = NAN, .bytes_needed = NAN,
				  .host_delta = NAN, .nand_delta = NAN};
	if (isfinite(a->host_pages) && isfinite(b->host_pages) && isfinite(a->ftl_pages) &&
	    isfinite(b->ftl_pages)) {
		estimate_pages(a, b, e);
		return;
	}
	/* The coarser of the two snapshots' units (they agree unless the database changed). */
	rh = e->host_res = fmax(a->host_res, b->host_res);
	rn = e->nand_res = fmax(a->nand_res, b->nand_res);
	if (!isfinite(a->host) || !isfinite(b->host)) {
		e->reason = WA_NO_HOST_COUNTER;
		return;
	}
	h = e->host_delta = b->host - a->host;
	if (!isfinite(a->nand) || !isfinite(b->nand)) {
		e->reason = WA_NO_NAND_COUNTER;
		return;
	}
	n = e->nand_delta = b->nand - a->nand;
	if (h < 0 || n < 0) {
		e->reason = WA_BACKWARDS;
		return;
	}
	if (h == 0) {
		e->reason = WA_NO_HOST_WRITES;
		return;
	}
	/* Each true delta lies within one unit of the delta read (see wa.h). */
	e->lo = fmax(n - rn, 0) / (h + rh);
	e->hi = h - rh > 0 ? (n + rn) / (h - rh) : INFINITY;
	if (!narrow(n / h, e->lo, e->hi)) {
		e->reason = WA_BELOW_RESOLUTION;
		e->bytes_needed = wa_bytes_needed(rh, rn);
		return;
	}
	e->wa = n / h;
	e->compression = e->hi < 1;
}

bool wa_host_match(double counter, double written, double res)
{
	return isfinite(counter) && isfinite(written) && fabs(counter - written) <= res;
}

int wa_infer_unit(const struct wa_candidate *c, size_t n, double written, struct wa_inferred *out)
{
	/* The units host-write counters are known to count in (the reference's attribute table). */
	static const struct {
		const char *name;
		double bytes;
	} units[] = {
	    {"512B", 512.0},		 {"32MiB", 33554432.0}, {"1GiB", 1073741824.0},
	    {"1GB", 1000000000.0},	 {"512000B", 512000.0},
	};
	double best = INFINITY;
	struct wa_inferred r = {0};

	if (!(written > 0))
		return -ENODATA;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(c[i].delta) || c[i].delta < 1)
			continue;
		for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++) {
			double prod = c[i].delta * units[u].bytes, off = fabs(prod - written);

			/* Consistent: the true bytes lie within one unit of delta x unit. */
			if (off >= units[u].bytes || off / written >= best)
				continue;
			best = off / written;
			r = (struct wa_inferred){.counter = c[i].counter,
						 .unit = units[u].name,
						 .unit_bytes = units[u].bytes,
						 .ratio = prod / written};
		}
	}
	if (!isfinite(best))
		return -ENODATA;
	*out = r;
	return 0;
}
