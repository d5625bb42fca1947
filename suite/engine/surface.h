/* SPDX-License-Identifier: MIT */
/*
 * surface: a surface scan, the zcav / HD Tune measurement: the target read (or, destructive,
 * written) sequentially from its first byte to its last in fixed-size chunks, the speed of each
 * chunk against its position, each chunk's largest I/O latency, and the LBAs that failed.
 *
 * An I/O error does not stop the scan (a scan exists to find bad regions): the failed I/O's
 * range is read again one logical block at a time at QD1, each block that fails again is
 * recorded by LBA, and the scan goes on with the next I/O. A chunk's time runs from its first
 * submission to its last completion (the queue is drained at each chunk's end, as zcav does, so
 * that no chunk's time holds another's I/O); the retries of a failed I/O count in its chunk's
 * time, which makes a chunk with errors slow, as it is for the host.
 *
 * Position is the LBA, and on an SSD that is not a place on the flash: see docs/surface.md.
 */
#ifndef SSDLAB_ENGINE_SURFACE_H
#define SSDLAB_ENGINE_SURFACE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "targets/target.h"

struct surface_opts {
	enum io_dir dir; /* IO_READ, or IO_WRITE (destructive: the caller has confirmed it) */
	uint64_t chunk;	 /* bytes per chunk, a multiple of bs; the last chunk may be shorter */
	uint32_t bs;	 /* bytes per I/O, a multiple of the logical block size */
	unsigned qd;	 /* I/Os in flight within a chunk, 1 .. 256 */
	size_t max_error_lbas; /* error LBAs kept (more are counted in errors_total) */
	/* checked between chunks (a scan of a large disk takes hours): when it points at a true
	 * value the scan stops with -EINTR; NULL = never */
	volatile sig_atomic_t *stop;
	/* called after each chunk (done of n), so a scan of hours can show where it is; may be
	 * NULL */
	void (*on_chunk)(size_t done, size_t n, void *arg);
	void *arg;
};

struct surface_chunk {
	uint64_t offset;     /* first byte */
	uint64_t bytes;	     /* bytes the chunk spans */
	uint64_t bad_bytes;  /* of them, in logical blocks that failed */
	uint64_t ns;	     /* first submission to last completion, target time */
	uint64_t max_lat_ns; /* the largest single-I/O latency (retries included) */
	uint64_t errors;     /* logical blocks that failed */
	/* bytes of the chunk's reads that hit unmapped LBAs, where the target knows its map
	 * (target_read_unmapped(): the virtual SSD; surface_result.has_unmapped) */
	uint64_t unmapped_bytes;
};

struct surface_result {
	enum io_dir dir;
	uint32_t lbs; /* logical block size: an LBA is offset / lbs */
	uint64_t capacity;
	struct surface_chunk *chunks; /* owned */
	size_t n;
	uint64_t *error_lbas; /* owned, ascending; the first max_error_lbas */
	size_t nerror_lbas;
	uint64_t errors_total; /* every failed logical block */
	bool has_unmapped;     /* the chunks' unmapped_bytes are known */
};

/* A chunk's speed in MB/s (10^6 good bytes per second of target time). A chunk that took no
 * target time (the virtual SSD reads unmapped LBAs instantly) counts as 1 ns: a lower bound. */
double surface_chunk_mbps(const struct surface_chunk *c);

/*
 * Scans all of t's visible capacity. Returns 0 with *out filled (release it with
 * surface_result_release()), or -errno with a reason in err: -EINVAL for options that do not fit
 * the target, -ENOMEM, -EINTR when o->stop was raised, or a queue failure (an I/O error is a
 * finding, not a failure). On failure *out is untouched.
 */
int surface_scan(struct target *t, const struct surface_opts *o, struct surface_result *out,
		 char *err, size_t errlen);
void surface_result_release(struct surface_result *r); /* accepts NULL */

/*
 * The series for plotting, one line per chunk after a header:
 *   position_pct,offset_bytes,bytes,mbps,max_lat_us,errors
 * position_pct is the chunk's middle as a percentage of the capacity. Locale-independent.
 * 0 or -EIO.
 */
int surface_write_csv(const struct surface_result *r, FILE *f);

#endif
