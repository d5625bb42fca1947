/* SPDX-License-Identifier: MIT */
/*
 * hir: the computations behind summary.json's SNIA host idle recovery block (issue 16 point 1),
 * as pure functions over plain arrays: the records after the steady-state phase (bursts and the
 * continuous writes back to the baseline) grouped into wait states, each with the mean IOPS of
 * its bursts and its ratio to the steady-state IOPS. pass_snia_hir.c feeds them from the reader
 * (reader_hir_points) and the steady_state key; no I/O, no JSON.
 */
#ifndef SSDLAB_ANALYSIS_HIR_H
#define SSDLAB_ANALYSIS_HIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One measurement record of a HIR run after its steady state: a burst (a bursts phase's record)
 * or a chunk of continuous writes (a write_until record). */
struct hir_point {
	int64_t phase, repeat, round;
	bool burst;
	uint64_t start_ns, end_ns; /* target clock */
	uint64_t elapsed_ns, ios;  /* the measured part */
	double iops;		   /* ios / elapsed; NaN when elapsed is 0 */
	double time_scale;	   /* the record's; 1 when it has none */
	/* bursts only: the wait before it as written, as scaled, as applied (raised to the
	 * floor), and whether the floor raised it */
	uint64_t wait_profile_ns, wait_scaled_ns, wait_ns;
	bool floored;
};

/* A wait state: the consecutive bursts of one bursts phase (phase, repeat). */
struct hir_state {
	int64_t phase, repeat;
	uint64_t wait_profile_ns, wait_ns; /* its first burst's */
	bool floored;			   /* the floor raised its first burst's wait */
	size_t first, n;		   /* its bursts are p[first .. first + n) */
	size_t used;			   /* of those, bursts with an IOPS (elapsed > 0) */
	double mean_iops;		   /* the mean of its bursts' IOPS; NaN when none */
	double of_steady;		   /* mean_iops / steady; NaN when steady is not > 0 */
};

/*
 * Groups the bursts of p[0..n) into wait states, in order: a new state at each burst whose
 * (phase, repeat) differs from the previous burst's. out must hold n entries; *nout gets how
 * many. steady is the steady-state IOPS (NaN: unknown). Returns 0, or -EINVAL for a NULL out.
 */
int hir_states(const struct hir_point *p, size_t n, double steady, struct hir_state *out,
	       size_t *nout);

#endif
