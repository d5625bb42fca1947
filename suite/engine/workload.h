/* SPDX-License-Identifier: MIT */
/*
 * workload: what the engine submits next, and what the data looks like.
 *
 * A `struct workload` is built once per job from a job_spec and the target's logical block
 * size: it checks the spec (block sizes and range against the logical block size, zone tables,
 * a range large enough for the largest block) and holds the immutable tables (cumulative
 * block-size weights, zones) plus the shared sequential cursor. Each thread draws from its own
 * `struct workload_stream` (its own PRNG stream of the job's seed), so random jobs are
 * reproducible per thread and nothing is locked on the hot path.
 *
 * Offsets:
 *   - sequential (read, write, rw): one cursor shared by all streams (an atomic add per I/O),
 *     so the device sees one sequential stream however many threads submit it; it starts at
 *     seq_start (or range_start) and wraps around at range_end. An I/O that would cross
 *     range_end starts over at range_start.
 *   - random: uniform over block-aligned slots in [range_start, range_end), where an I/O of
 *     size bs is aligned to the largest power of two dividing bs (4k -> 4k, 12k -> 4k, 128k ->
 *     128k), never below the logical block size, or to the spec's `align` when it gives one
 *     (JESD219: every size, 0.5 KiB included, on 4 KiB boundaries); with DIST_ZONED a zone is drawn by its I/O
 *     share first, then a slot uniformly inside the zone's part of the range (JESD219 style:
 *     e.g. 50% of I/Os to the first 5% of the range). Sequential modes ignore zones.
 *   - random with `segments` (SNIA PTS-C ActiveRange Amount, e.g. 16 GiB in 2048 segments):
 *     uniform over the aligned slots of `segments` equal segments of segment_bytes spread
 *     evenly over the range (starts aligned to the largest block alignment); sequential modes
 *     (preconditioning) still walk the whole range; zones and segments do not mix.
 *   - sprandom (spec.sprandom.on, randwrite, one block size): the sprandom fill's sequence
 *     (engine/sprandom.h) over the range's bs-sized units, one sequence shared by all streams
 *     through an atomic index (like the sequential cursor), starting at index seq_start / bs;
 *     workload_seq_next() gives the index reached x bs, so a resumed fill goes on there;
 *     past the sequence's end, uniform random writes drawn from the index (the SLC share).
 * Directions: read/write modes are fixed; mixed modes draw a read with probability rwmix_read%.
 *
 * Data (TARGET_CAP_NEEDS_DATA targets): buffers are filled once at setup with random bytes
 * (incompressible), zeros (PATTERN_ZEROS), or per 4 KiB block (100 - N)% random bytes followed
 * by N% zeros (compressibility N%). Before each write, workload_stamp() writes a 16-byte stamp
 * (block offset, a per-stream counter mixed with the seed) at the start of every 4 KiB block,
 * so no two blocks ever written are equal and a deduplicating controller cannot cheat, at the
 * cost of two stores per 4 KiB instead of regenerating data.
 */
#ifndef SSDLAB_WORKLOAD_H
#define SSDLAB_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "engine/jobspec.h"
#include "base/prng.h"
#include "targets/target.h"

#define WORKLOAD_STAMP_BLOCK 4096u

struct workload;

struct workload_stream {
	struct prng rng;
	struct workload *w;
	uint64_t stamp; /* per-stream write counter for the stamps */
	uint64_t stamp_key;
};

/*
 * Builds the workload of spec s for a target with logical block size lbs (0 = 512). On -EINVAL
 * writes the reason into err (e.g. "block size 512 B is not a multiple of the target's logical
 * block size 4096 B"). -ENOMEM when out of memory. *out is untouched on failure.
 */
int workload_create(const struct job_spec *s, uint32_t lbs, struct workload **out, char *err,
		    size_t errlen);
void workload_free(struct workload *w); /* accepts NULL */

/* Stream `index` (thread number) of the job's seed. */
void workload_stream_init(struct workload_stream *st, struct workload *w, unsigned index);

/* The next I/O: fills io->offset, io->len and io->dir; leaves the other fields alone. */
void workload_next(struct workload_stream *st, struct target_io *io);

/* sprandom: writes in the whole sequence (0 for other jobs). */
uint64_t workload_sprandom_total(const struct workload *w);

/* The largest block size of the job (buffer size). */
uint32_t workload_max_bs(const struct workload *w);
/* True when the job issues writes. */
int workload_writes(const struct workload *w);
/* True when the job issues reads. */
int workload_reads(const struct workload *w);

/* Sequential modes: the offset the next sequential I/O would use (to continue a fill later);
 * sprandom: the next sequence index x bs. */
uint64_t workload_seq_next(const struct workload *w);

/* Fills a data buffer once at setup according to the pattern; `index` picks its random bytes. */
void workload_buf_init(const struct workload *w, void *buf, size_t len, unsigned index);

/* Stamps each 4 KiB block of a write buffer about to be written at `offset` (no-op for zeros). */
void workload_stamp(struct workload_stream *st, void *buf, uint32_t len, uint64_t offset);

#endif
