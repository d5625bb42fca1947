/* SPDX-License-Identifier: MIT */
/*
 * workload: offset, size, direction and data generation for the engine (see workload.h).
 * Everything that can be computed once (aligned slot counts per zone and block size,
 * cumulative weights) is computed in workload_create(), so workload_next() is a handful of
 * PRNG draws and table look-ups.
 */
#include "engine/workload.h"
#include "base/errmsg.h"
#include "engine/sprandom.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wl_zone {
	double io_cum;	     /* cumulative I/O share up to and including this zone */
	uint64_t start, end; /* this zone's part of the range */
	uint64_t first[JOB_MAX_BS];
	uint64_t nslots[JOB_MAX_BS];
};

struct workload {
	enum rw_mode rw;
	bool sequential;
	unsigned rwmix_read;
	uint64_t seed;
	uint32_t lbs;
	unsigned nbs;
	uint32_t bs[JOB_MAX_BS];
	uint64_t align[JOB_MAX_BS];
	uint64_t bs_cum[JOB_MAX_BS]; /* cumulative weights */
	uint64_t bs_total;
	uint32_t max_bs;
	unsigned nzones;
	struct wl_zone zones[JOB_MAX_ZONES];
	uint64_t start, end;
	/* ActiveRange Amount: random offsets in nseg segments of seg_bytes, the first at
	 * seg_base, each seg_stride after the last; nseg 0 = none */
	unsigned nseg;
	uint64_t seg_base, seg_stride, seg_bytes;
	uint64_t seg_slots[JOB_MAX_BS]; /* aligned slots of each block size in one segment */
	enum data_pattern pattern;
	unsigned compressibility;
	_Atomic uint64_t seq_cursor; /* next sequential offset */
	struct sprandom *spr;	     /* the sprandom fill's sequence, or NULL */
	_Atomic uint64_t spr_next;   /* its next index */
	uint64_t spr_seed;	     /* past its end: the uniform writes' key */
};

static bool mode_sequential(enum rw_mode m)
{
	return m == RW_READ || m == RW_WRITE || m == RW_RW;
}

/* An invalid job: its text in the caller's buffer, -EINVAL. */
#define fail(err, len, ...) errmsg_set(err, len, -EINVAL, __VA_ARGS__)

/* Alignment of a random I/O of size bs: the largest power of two dividing bs, >= lbs. */
static uint64_t bs_align(uint32_t bs, uint32_t lbs)
{
	uint64_t a = (uint64_t)bs & -(uint64_t)bs;

	return a < lbs ? lbs : a;
}

static uint64_t round_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

static int check_sizes(const struct job_spec *s, uint32_t lbs, char *err, size_t len)
{
	uint64_t total = 0;

	if (s->nbs < 1 || s->nbs > JOB_MAX_BS)
		return fail(err, len, "between 1 and %d block sizes are needed, not %u", JOB_MAX_BS,
			    s->nbs);
	for (unsigned i = 0; i < s->nbs; i++) {
		if (!s->bs[i].bs)
			return fail(err, len, "a block size of 0 bytes");
		if (s->bs[i].bs % lbs)
			return fail(err, len,
				    "block size %" PRIu32 " B is not a multiple of the target's "
				    "logical block size %" PRIu32 " B%s: use a multiple of %" PRIu32
				    " B",
				    s->bs[i].bs, lbs,
				    lbs == 4096 ? " (a 4Kn device accepts no 512-byte I/O)" : "",
				    lbs);
		total += s->bs[i].weight;
	}
	if (!total)
		return fail(err, len, "the block-size weights add up to 0");
	if (s->align && s->align % lbs)
		return fail(err, len,
			    "align %" PRIu32 " B is not a multiple of the target's logical block "
			    "size %" PRIu32 " B",
			    s->align, lbs);
	if (s->rwmix_read > 100)
		return fail(err, len, "rwmix_read is a percentage (0..100), not %u", s->rwmix_read);
	if (s->compressibility > 100)
		return fail(err, len, "compressibility is a percentage (0..100), not %u",
			    s->compressibility);
	return 0;
}

static int check_range(const struct job_spec *s, uint32_t lbs, char *err, size_t len)
{
	if (s->range_end <= s->range_start)
		return fail(err, len, "empty LBA range [%" PRIu64 ", %" PRIu64 ")", s->range_start,
			    s->range_end);
	if (s->range_start % lbs || s->range_end % lbs)
		return fail(err, len,
			    "LBA range [%" PRIu64 ", %" PRIu64 ") is not aligned to the logical "
			    "block size %" PRIu32 " B",
			    s->range_start, s->range_end, lbs);
	if (mode_sequential(s->rw) && s->seq_start &&
	    (s->seq_start < s->range_start || s->seq_start >= s->range_end || s->seq_start % lbs))
		return fail(err, len,
			    "sequential start %" PRIu64 " is outside the range or not aligned to %" PRIu32
			    " B",
			    s->seq_start, lbs);
	return 0;
}

/* Lays out the zones (one zone covering the range for DIST_UNIFORM) and their slot tables. */
static int build_zones(struct workload *w, const struct job_spec *s, char *err, size_t len)
{
	uint64_t span = w->end - w->start;
	double io_sum = 0, range_sum = 0;

	/* Zones shape random offsets only; a sequential job walks the whole range. */
	bool zoned = s->dist == DIST_ZONED && !w->sequential;

	if (zoned) {
		if (s->nzones < 1 || s->nzones > JOB_MAX_ZONES)
			return fail(err, len, "a zoned distribution needs 1 to %d zones, not %u",
				    JOB_MAX_ZONES, s->nzones);
		for (unsigned z = 0; z < s->nzones; z++) {
			const struct zone_split *zs = &s->zones[z];

			if (!(zs->io_frac >= 0 && zs->io_frac <= 1) ||
			    !(zs->range_frac > 0 && zs->range_frac <= 1))
				return fail(err, len,
					    "zone %u: shares must be fractions in [0, 1] (range > 0)",
					    z + 1);
			io_sum += zs->io_frac;
			range_sum += zs->range_frac;
		}
		if (fabs(io_sum - 1) > 1e-3 || fabs(range_sum - 1) > 1e-3)
			return fail(err, len,
				    "zone shares must add up to 100%% of the I/O and of the range "
				    "(they add up to %.1f%% and %.1f%%)",
				    io_sum * 100, range_sum * 100);
		w->nzones = s->nzones;
	} else {
		w->nzones = 1;
	}

	double io_cum = 0, range_cum = 0;

	for (unsigned z = 0; z < w->nzones; z++) {
		struct wl_zone *zn = &w->zones[z];
		double io = zoned ? s->zones[z].io_frac / io_sum : 1;
		double rf = zoned ? s->zones[z].range_frac / range_sum : 1;

		zn->start = w->start + (uint64_t)(range_cum * (double)span) / w->lbs * w->lbs;
		range_cum += rf;
		io_cum += io;
		zn->end = z + 1 == w->nzones
				  ? w->end
				  : w->start + (uint64_t)(range_cum * (double)span) / w->lbs * w->lbs;
		zn->io_cum = z + 1 == w->nzones ? 2.0 : io_cum; /* the last zone catches rounding */
		for (unsigned i = 0; i < w->nbs; i++) {
			zn->first[i] = round_up(zn->start, w->align[i]);
			if (zn->end < zn->first[i] + w->bs[i]) {
				if (w->sequential && w->nzones == 1 && w->end - w->start >= w->bs[i])
					continue; /* sequential I/O needs no aligned slot */
				return fail(err, len,
					    "%s [%" PRIu64 ", %" PRIu64 ") is too small for an "
					    "aligned %" PRIu32 " B block",
					    w->nzones > 1 ? "a zone of the range" : "the LBA range",
					    zn->start, zn->end, w->bs[i]);
			}
			zn->nslots[i] = (zn->end - zn->first[i] - w->bs[i]) / w->align[i] + 1;
		}
	}
	return 0;
}

/*
 * SNIA PTS-C ActiveRange Amount: `segments` segments of segment_bytes spread evenly over the
 * range. Their starts are aligned to the largest alignment of the job's block sizes, so that
 * every segment holds the same whole slots of each size; they are seg_stride apart, the range
 * (from its first aligned byte) divided by the count and aligned down. E.g. a 64 MiB range, 1
 * MiB in 8 segments: 128 KiB at 0, 8, 16, ..., 56 MiB from the start.
 */
static int build_segments(struct workload *w, const struct job_spec *s, char *err, size_t len)
{
	uint64_t a = w->lbs, span;

	if (s->dist == DIST_ZONED)
		return fail(err, len, "an ActiveRange Amount and a zoned distribution do not mix");
	for (unsigned i = 0; i < w->nbs; i++)
		if (w->align[i] > a)
			a = w->align[i];
	w->seg_base = round_up(w->start, a);
	span = w->seg_base < w->end ? w->end - w->seg_base : 0;
	w->seg_stride = span / s->segments / a * a;
	w->seg_bytes = s->segment_bytes;
	if (s->segment_bytes % w->lbs || s->segment_bytes < w->max_bs ||
	    s->segment_bytes > w->seg_stride)
		return fail(err, len,
			    "%u segments of %" PRIu64 " B do not fit in the LBA range [%" PRIu64
			    ", %" PRIu64 ") with a %" PRIu32 " B block in each (segments start "
			    "%" PRIu64 " B apart)",
			    s->segments, s->segment_bytes, w->start, w->end, w->max_bs,
			    w->seg_stride);
	for (unsigned i = 0; i < w->nbs; i++)
		w->seg_slots[i] = (w->seg_bytes - w->bs[i]) / w->align[i] + 1;
	w->nseg = s->segments;
	return 0;
}

/* The sprandom fill: its sequence over the range's bs-sized units, from seq_start / bs on. */
static int build_sprandom(struct workload *w, const struct job_spec *s, char *err, size_t len)
{
	uint64_t units;

	if (s->rw != RW_RANDWRITE || w->nbs != 1 || s->segments || s->dist != DIST_UNIFORM)
		return fail(err, len, "the sprandom fill is randwrite of one block size over the "
				      "whole range (no zones, no segments)");
	units = (w->end - w->zones[0].first[0]) / w->bs[0];
	if (s->seq_start % w->bs[0])
		return fail(err, len, "sprandom: position %" PRIu64 " B is not a whole number of "
				      "%" PRIu32 " B writes",
			    s->seq_start, w->bs[0]);
	atomic_init(&w->spr_next, s->seq_start / w->bs[0]);
	w->spr_seed = prng_mix64(s->sprandom.seed ^ 0x51c0cac4e5ull);
	return sprandom_create(units, s->sprandom.alpha,
			       s->sprandom.regions ? s->sprandom.regions
						   : sprandom_default_regions(units),
			       s->sprandom.seed, &w->spr, err, len);
}

int workload_create(const struct job_spec *s, uint32_t lbs, struct workload **out, char *err,
		    size_t errlen)
{
	struct workload *w;
	uint64_t cum = 0;
	int rc;

	if (!lbs)
		lbs = 512;
	rc = check_sizes(s, lbs, err, errlen);
	if (!rc)
		rc = check_range(s, lbs, err, errlen);
	if (rc)
		return rc;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->rw = s->rw;
	w->sequential = mode_sequential(s->rw);
	w->rwmix_read = s->rwmix_read;
	w->seed = s->seed;
	w->lbs = lbs;
	w->nbs = s->nbs;
	w->start = s->range_start;
	w->end = s->range_end;
	w->pattern = s->pattern;
	w->compressibility = s->compressibility;
	for (unsigned i = 0; i < s->nbs; i++) {
		w->bs[i] = s->bs[i].bs;
		/* JESD219's blockalign: one alignment for every size, also the 0.5 KiB ones */
		w->align[i] = s->align ? s->align : bs_align(s->bs[i].bs, lbs);
		cum += s->bs[i].weight;
		w->bs_cum[i] = cum;
		if (w->bs[i] > w->max_bs)
			w->max_bs = w->bs[i];
	}
	w->bs_total = cum;
	if (w->sequential && w->end - w->start < w->max_bs) {
		rc = fail(err, errlen, "the LBA range (%" PRIu64 " B) is smaller than a %" PRIu32 " B block",
			  w->end - w->start, w->max_bs);
		goto fail;
	}
	rc = build_zones(w, s, err, errlen);
	if (!rc && s->segments && !w->sequential)
		rc = build_segments(w, s, err, errlen);
	if (!rc && s->sprandom.on)
		rc = build_sprandom(w, s, err, errlen);
	if (rc)
		goto fail;
	atomic_init(&w->seq_cursor, s->seq_start ? s->seq_start : s->range_start);
	*out = w;
	return 0;
fail:
	workload_free(w);
	return rc;
}

void workload_free(struct workload *w)
{
	if (!w)
		return;
	sprandom_free(w->spr);
	free(w);
}

void workload_stream_init(struct workload_stream *st, struct workload *w, unsigned index)
{
	uint64_t key = w->seed ^ 0x5ca1ab1e0ddba11ull;

	prng_seed(&st->rng, w->seed, index);
	st->w = w;
	st->stamp = 0;
	/* Different threads and different seeds stamp differently. */
	key += index;
	st->stamp_key = prng_splitmix64(&key);
}

static uint64_t seq_offset(struct workload *w, uint32_t bs)
{
	uint64_t cur = atomic_load_explicit(&w->seq_cursor, memory_order_relaxed), off, next;

	do {
		off = cur + bs > w->end ? w->start : cur;
		next = off + bs >= w->end ? w->start : off + bs;
	} while (!atomic_compare_exchange_weak_explicit(&w->seq_cursor, &cur, next,
							memory_order_relaxed,
							memory_order_relaxed));
	return off;
}

void workload_next(struct workload_stream *st, struct target_io *io)
{
	struct workload *w = st->w;
	unsigned b = 0, z = 0;

	if (w->nbs > 1) {
		uint64_t r = prng_below(&st->rng, w->bs_total);

		while (r >= w->bs_cum[b])
			b++;
	}
	io->len = w->bs[b];
	switch (w->rw) {
	case RW_READ:
	case RW_RANDREAD:
		io->dir = IO_READ;
		break;
	case RW_WRITE:
	case RW_RANDWRITE:
		io->dir = IO_WRITE;
		break;
	default:
		io->dir = prng_below(&st->rng, 100) < w->rwmix_read ? IO_READ : IO_WRITE;
		break;
	}
	if (w->sequential) {
		io->offset = seq_offset(w, io->len);
		return;
	}
	if (w->spr) {
		uint64_t i = atomic_fetch_add_explicit(&w->spr_next, 1, memory_order_relaxed);
		uint64_t n = sprandom_units(w->spr);

		/* past the sequence: uniform random writes, a function of the index too (the SLC
		 * cache's share, written last: docs/sprandom.md) */
		io->offset = w->zones[0].first[0] +
			     (i < sprandom_total(w->spr)
				  ? sprandom_unit(w->spr, i)
				  : prng_mix64(w->spr_seed ^ (i * 0x9e3779b97f4a7c15ull)) % n) *
				 w->bs[0];
		return;
	}
	if (w->nseg) {
		uint64_t r = prng_below(&st->rng, w->nseg * w->seg_slots[b]);

		io->offset = w->seg_base + r / w->seg_slots[b] * w->seg_stride +
			     r % w->seg_slots[b] * w->align[b];
		return;
	}
	if (w->nzones > 1) {
		double d = prng_double(&st->rng);

		while (d >= w->zones[z].io_cum)
			z++;
	}
	io->offset = w->zones[z].first[b] + prng_below(&st->rng, w->zones[z].nslots[b]) * w->align[b];
}

uint32_t workload_max_bs(const struct workload *w)
{
	return w->max_bs;
}

int workload_writes(const struct workload *w)
{
	return w->rw == RW_WRITE || w->rw == RW_RANDWRITE ||
	       ((w->rw == RW_RANDRW || w->rw == RW_RW) && w->rwmix_read < 100);
}

int workload_reads(const struct workload *w)
{
	return w->rw == RW_READ || w->rw == RW_RANDREAD ||
	       ((w->rw == RW_RANDRW || w->rw == RW_RW) && w->rwmix_read > 0);
}

uint64_t workload_sprandom_total(const struct workload *w)
{
	return w->spr ? sprandom_total(w->spr) : 0;
}

uint64_t workload_seq_next(const struct workload *w)
{
	if (w->spr)
		return atomic_load_explicit(&((struct workload *)w)->spr_next,
					    memory_order_relaxed) *
		       w->bs[0];
	return atomic_load_explicit(&((struct workload *)w)->seq_cursor, memory_order_relaxed);
}

void workload_buf_init(const struct workload *w, void *buf, size_t len, unsigned index)
{
	struct prng rng;
	unsigned char *b = buf;
	size_t rand_part;

	if (w->pattern == PATTERN_ZEROS) {
		memset(buf, 0, len);
		return;
	}
	/* Buffers use streams far from the offset streams (which are indexed by thread). */
	prng_seed(&rng, w->seed, (1ull << 32) + index);
	if (!w->compressibility) {
		prng_fill(&rng, buf, len);
		return;
	}
	/* N% compressible: each 4 KiB block is (100 - N)% random, then zeros. */
	rand_part = (size_t)WORKLOAD_STAMP_BLOCK * (100 - w->compressibility) / 100;
	for (size_t off = 0; off < len; off += WORKLOAD_STAMP_BLOCK) {
		size_t blk = len - off < WORKLOAD_STAMP_BLOCK ? len - off : WORKLOAD_STAMP_BLOCK;
		size_t r = rand_part < blk ? rand_part : blk;

		prng_fill(&rng, b + off, r);
		memset(b + off + r, 0, blk - r);
	}
}

void workload_stamp(struct workload_stream *st, void *buf, uint32_t len, uint64_t offset)
{
	unsigned char *b = buf;

	if (st->w->pattern == PATTERN_ZEROS)
		return;
	for (uint32_t off = 0; off < len; off += WORKLOAD_STAMP_BLOCK) {
		uint64_t v[2] = {offset + off, st->stamp_key ^ st->stamp++};

		if (len - off >= sizeof(v))
			memcpy(b + off, v, sizeof(v));
	}
}
