/* SPDX-License-Identifier: MIT */
/*
 * snia_ecw: the computations behind summary.json's SNIA ECW block (issue 16 point 4), pure
 * functions over plain arrays: a TC x QD cell key's coordinates, the run order of the 49 TOIO
 * points (TC outer, QD inner, high to low, as the public "07_ECW" script runs them), and per
 * point the IOPS averaged over the rounds it ran in. pass_snia_ecw.c feeds them from the reader.
 */
#ifndef SSDLAB_ANALYSIS_SNIA_ECW_H
#define SSDLAB_ANALYSIS_SNIA_ECW_H

#include <stddef.h>
#include <stdint.h>

/* The TC and QD values of the ECW matrix, high to low: {32, 16, 8, 6, 4, 2, 1}. */
#define ECW_NLEVELS 7
extern const unsigned ecw_levels[ECW_NLEVELS];

/*
 * A cell key's threads and qd ("threads=32,qd=16", in either order, other coordinates
 * ignored). 0 with both set; -ENOENT when one of them is missing; -EINVAL when malformed.
 */
int ecw_cell_toio(const char *cell, unsigned *threads, unsigned *qd);

/* The place of (threads, qd) in the ECW run order (TC outer, QD inner, both high to low: 0 for
 * TC32/QD32 ... 48 for TC1/QD1), or -1 when either is not an ECW level. */
int ecw_order(unsigned threads, unsigned qd);

/* One measured cell: its point and round and its IOPS (NaN: no figure, e.g. no I/O). */
struct ecw_cell {
	unsigned threads, qd;
	int64_t round;
	double iops;
};

/* One TOIO point: IOPS averaged over the rounds with a figure (the mean of the rounds' values,
 * as SNIA averages rounds), how many rounds that is, and the first and last round seen. */
struct ecw_point {
	unsigned threads, qd;
	double iops; /* NaN when no round has a figure */
	size_t rounds;
	int64_t first_round, last_round;
};

/*
 * Groups cells[0..n) by point into out (the caller's, room for n), in ECW run order (points
 * outside the matrix after it, in the order first seen), and their number into *np. 0, or
 * -ENOMEM (out and *np untouched).
 */
int ecw_points(const struct ecw_cell *cells, size_t n, struct ecw_point *out, size_t *np);

/* The index in p[0..n) of the highest IOPS (the first of equals; NaN ones skipped), or -1. */
long ecw_max_point(const struct ecw_point *p, size_t n);

#endif
