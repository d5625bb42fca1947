/* SPDX-License-Identifier: MIT */
/*
 * snia_xsr: the figures of summary.json's "xsr" block (SNIA PTS cross-stimulus recovery, issue
 * 16 point 2) as a pure function of the access groups' samples: per group its throughput and
 * response times, and when the last group's throughput is back at the first group's average.
 *
 * The test (reference snia_pts.md, XSR, [I] AD): three access groups written back to back,
 * SEQ 1024 KiB, RND 8 KiB, SEQ 1024 KiB, in 1-minute samples. AD's "BW Recovery Time" is the
 * minutes until a group-3 sample reaches the group-1 average; one sample says little (a sample
 * crossing the level on its way up, then falling back, is common while the drive still cleans
 * up the random group's blocks), so recovery is judged by ssdlab's recovery rule (recovery.h):
 * the first of 3 samples in a row within 10% of the group-1 average. No I/O, no JSON: the reader
 * gives the samples (reader_xsr_samples), pass_snia_xsr.c writes the block.
 */
#ifndef SSDLAB_ANALYSIS_SNIA_XSR_H
#define SSDLAB_ANALYSIS_SNIA_XSR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/recovery.h"

/* One sample: a write_until record of an access group. */
struct snia_xsr_sample {
	uint64_t elapsed_ns;  /* its measured time (target clock, drain included) */
	uint64_t ramp_ns;     /* ramp before it (not measured; 0 without) */
	uint64_t bytes;	      /* bytes of its measured I/O */
	uint64_t ios;	      /* I/Os of its measured part */
	uint64_t bytes_total; /* bytes it wrote, ramp included */
	double lat_mean_ns;   /* mean response time of its measured I/O; NaN without */
	double lat_max_ns;    /* maximum response time; NaN without */
};

/* One access group's figures. MB/s are 10^6 bytes per second of target time. */
struct snia_xsr_group {
	size_t samples;
	uint64_t elapsed_ns, bytes, ios;
	double mb_s;	     /* bytes / elapsed over the whole group; NaN without time */
	double end_mb_s;     /* the last sample's (bytes / its elapsed); NaN without time */
	double lat_mean_ns;  /* the group's I/O-weighted mean response time; NaN without I/O */
	double art_peak_ns;  /* the highest sample mean response time (AD's peak ART) */
	double mrt_ns;	     /* the highest sample maximum response time (MRT) */
};

/* The number of groups a full XSR run has, and which one recovery is judged on. */
#define SNIA_XSR_GROUPS 3

struct snia_xsr {
	double reference_mb_s;	/* group 1's mb_s: the level group 3 must get back to */
	bool judged;		/* group 3 exists with samples (else recovery says nothing) */
	struct recovery_result rec; /* recovery_scan() of group 3 against reference (if judged) */
};

/* Fills *g from s[0..n) (n may be 0: zero counts, NaN figures). */
void snia_xsr_group(const struct snia_xsr_sample *s, size_t n, struct snia_xsr_group *g);

/* The sample's throughput: bytes / elapsed in MB/s; NaN without time. */
double snia_xsr_mb_s(const struct snia_xsr_sample *s);

/*
 * Recovery of group 3 (s3[0..n3)) to group 1's average g1->mb_s by rule: each sample is a
 * recovery point with value snia_xsr_mb_s(), write_ns elapsed + ramp and write_bytes
 * bytes_total; so rec.back_after_ns is group 3's writing time before the first sample of the
 * run. judged is false (and rec zero) when n3 is 0 or group 1 has no throughput. 0, or -EINVAL
 * for a rule of 0 rounds, -ENOMEM; *out untouched on failure.
 */
int snia_xsr_recovery(const struct snia_xsr_group *g1, const struct snia_xsr_sample *s3, size_t n3,
		      const struct recovery_rule *rule, struct snia_xsr *out);

#endif
