/* SPDX-License-Identifier: MIT */
/*
 * jobspec: what a job is (struct job_spec: rw mode, mix, block-size split, queue, range,
 * distribution, pattern, length) and the text forms of its settings shared by the profile
 * language and `ssdlab io`: rw mode names and block-size splits ("4k" or "4k/70:64k/30").
 * Plain data with no target behind it, so that the profile layer can describe jobs without
 * the engine; engine.h runs them.
 */
#ifndef SSDLAB_JOBSPEC_H
#define SSDLAB_JOBSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rw_mode {
	RW_READ = 0,   /* sequential */
	RW_WRITE,      /* sequential */
	RW_RANDREAD,
	RW_RANDWRITE,
	RW_RANDRW,     /* random mixed, rwmix_read percent reads */
	RW_RW,	       /* sequential mixed */
};

enum rand_dist { DIST_UNIFORM = 0, DIST_ZONED };
enum data_pattern { PATTERN_RANDOM = 0, PATTERN_ZEROS };

#define JOB_MAX_BS 16
#define JOB_MAX_ZONES 16

struct bs_split {
	uint32_t bs;
	uint32_t weight; /* relative; need not sum to 100 */
};

struct zone_split {
	double io_frac;	   /* share of the I/Os ... */
	double range_frac; /* ... that go to this share of the range (in order, from the start) */
};

struct job_spec {
	enum rw_mode rw;
	unsigned rwmix_read; /* percent of reads for mixed modes */
	struct bs_split bs[JOB_MAX_BS];
	unsigned nbs;
	unsigned qd;	  /* per thread, 1..1024 */
	unsigned threads; /* 1..64 */

	/* Length: time_ns, or amount_bytes (both 0 = one pass over the range). */
	uint64_t time_ns;
	uint64_t amount_bytes;
	/* Ramp (not counted in the figures): time or bytes. */
	uint64_t ramp_ns;
	uint64_t ramp_bytes;

	uint64_t range_start, range_end; /* bytes, [start, end), already resolved and aligned */
	uint64_t seq_start;		 /* sequential: first offset (resume a fill); 0 = range_start */
	uint64_t seed;

	enum rand_dist dist;
	struct zone_split zones[JOB_MAX_ZONES];
	unsigned nzones;

	/* Random offsets aligned to this many bytes (JESD219: 4 KiB for every size, 0.5 KiB
	 * included); 0 = each size to the largest power of two dividing it (engine/workload.h) */
	uint32_t align;

	/* Block sizes of the profile's split the target cannot do (below or not a multiple of its
	 * logical block size: 0.5 KiB on a 4Kn device), left out of bs[] by the profile's resolve
	 * and the rest's weights renormalised (bs_split_drop()); recorded with the job's figures */
	struct bs_split bs_dropped[JOB_MAX_BS];
	unsigned nbs_dropped;

	enum data_pattern pattern;
	unsigned compressibility; /* percent, 0 = incompressible */

	/* SNIA PTS-C ActiveRange Amount: random offsets fall only in `segments` equal segments of
	 * segment_bytes spread evenly over the range (engine/workload.h); 0 = the whole range */
	unsigned segments;
	uint64_t segment_bytes;

	/* The sprandom fill (engine/sprandom.h, docs/sprandom.md): with `on`, a randwrite job of one
	 * block size takes its offsets from the sprandom sequence over the range's bs-sized units
	 * (clean validity alpha, `regions` regions, the sequence's own `seed`: the same for every
	 * chunk of the phase, unlike `seed`), one sequence shared by all threads; seq_start is then
	 * the position in the sequence in bytes (writes done x bs), and the job's seq_next too;
	 * past the sequence's end the writes are uniform random (a function of the index as well) */
	struct {
		bool on;
		double alpha;
		unsigned regions;
		uint64_t seed;
	} sprandom;

	uint64_t interval_ns; /* time-series interval; 0 = 1 s */
	bool sqpoll;
	bool hipri;
};

/* Text for rw modes (for errors and JSON). */
const char *rw_mode_name(enum rw_mode m);
int rw_mode_parse(const char *s, enum rw_mode *m);
/* "4k" or "4k/70:64k/30" */
int bs_split_parse(const char *s, struct bs_split *out, unsigned *n, char *err, size_t len);
/*
 * How a weighted split is normalised, for a note to the user: weights are relative and need not
 * sum to 100, so "4k/70:64k/20" means 77.8% 4k and 22.2% 64k. Writes "weights 70+20 = 90,
 * normalised to 4k 77.8%, 64k 22.2%" into buf and returns buf; returns NULL (buf untouched)
 * when there is nothing to say: one block size, or weights that already sum to 100.
 */
const char *bs_split_normalised(const struct bs_split *b, unsigned n, char *buf, size_t len);

/*
 * Leaves out of the split b[0..*n) every size that is not a multiple of lbs (a size below lbs
 * never is: 0.5 KiB on a 4Kn device) and appends those to dropped[0..*ndropped); the weights
 * of the rest are relative, so they are renormalised by themselves (JESD219 on 4Kn: 4k 67 of
 * 90 = 74.4%). Returns the number dropped; when every size would go, drops none and returns
 * -EINVAL (the job is not applicable as a whole).
 */
int bs_split_drop(struct bs_split *b, unsigned *n, uint32_t lbs, struct bs_split *dropped,
		  unsigned *ndropped);

/* Whether a job of mode m with rwmix_read percent of reads (used by the mixed modes only)
 * writes, or reads, anything: what the safety gate and the "is the file written" check ask. */
bool rw_mode_writes(enum rw_mode m, unsigned rwmix_read);
/* Whether offsets of mode m are drawn at random (randread, randwrite, randrw). */
bool rw_mode_random(enum rw_mode m);
bool rw_mode_reads(enum rw_mode m, unsigned rwmix_read);

/*
 * Sets *s to one sequential pass that writes every byte of a target of `capacity` bytes with
 * logical blocks of lbs (0 = 512): the largest power-of-two block up to 1 MiB that divides the
 * capacity and is a multiple of lbs, queue depth 8, one thread, the whole range. Seed, pattern
 * and compressibility are left 0 for the caller to set. What `ssdlab io` runs on a file it has
 * just created, so that reads reach the device rather than a hole.
 */
void job_spec_fill(struct job_spec *s, uint64_t capacity, uint32_t lbs);

#endif
