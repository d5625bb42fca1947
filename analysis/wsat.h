/* SPDX-License-Identifier: MIT */
/*
 * wsat: a write_until phase (SNIA's write saturation test) as IOPS against the capacity
 * written, as the PTS plots it, from its chunks in the order measured. Pure: the records reader
 * gives the chunks (reader_write_until), the headline pass writes the result.
 */
#ifndef SSDLAB_ANALYSIS_WSAT_H
#define SSDLAB_ANALYSIS_WSAT_H

#include <stddef.h>
#include <stdint.h>

/* One recorded chunk of the phase. */
struct wsat_chunk {
	uint64_t ios;	     /* I/Os of its measured part */
	uint64_t elapsed_ns; /* its measured time */
	uint64_t bytes;	     /* bytes it wrote, ramp included */
	double lat_mean_ns;  /* mean latency of its measured I/O; NaN when it has none */
};

/* The chunks that started within one drive fill, together. */
struct wsat_fill {
	uint64_t ios, elapsed_ns;
	uint64_t from_bytes, to_bytes; /* written before its first chunk, after its last */
};

struct wsat_result {
	uint64_t written;	  /* bytes, all chunks */
	uint64_t elapsed_ns, ios; /* all chunks */
	double first_iops;	  /* the first chunk's (fresh out of box); NaN without time */
	struct wsat_fill *fills;  /* nfills (owned, free()); a fill without time is all zero */
	size_t nfills;		  /* written / capacity + 1 */
};

/*
 * Sums c[0..n): a chunk counts in the fill where it started (bytes written before it divided by
 * capacity; the last fill takes any beyond). No chunks give one empty fill and NaN IOPS. 0;
 * -EINVAL for capacity 0; -ENOMEM. *out untouched on failure.
 */
int wsat_summarize(const struct wsat_chunk *c, size_t n, uint64_t capacity,
		   struct wsat_result *out);

#endif
