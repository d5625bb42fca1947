/* SPDX-License-Identifier: MIT */
/*
 * snia_dirth: the pure rules of SNIA PTS DIRTH (demand intensity / response-time histogram,
 * issue 16 point 3): a TOIO cell's key, and the choice of the Max-IOPS, Mid-IOPS and Min-IOPS
 * points from the rounds' IOPS per TC x QD. The runner (run/runner.c) chooses with it before
 * running the points; the analysis (pass_snia_dirth.c) chooses again from the same records and
 * so reports the same points. No I/O, no JSON.
 *
 * The rule (the reference names the three points but not how Max and Mid are found; this is the
 * reading followed, docs/results-format.md):
 *   Max: the cell with the highest IOPS (a tie: the first in round order, the higher TOIO);
 *   Min: the TC1/QD1 cell (the reference: "MinIOPS (TC1/QD1)");
 *   Mid: of the other cells, the one whose IOPS is nearest (Max + Min) / 2, the middle of the
 *        range the drive covers (a tie: the first in round order).
 */
#ifndef SSDLAB_ANALYSIS_SNIA_DIRTH_H
#define SSDLAB_ANALYSIS_SNIA_DIRTH_H

#include <stddef.h>

enum snia_dirth_point { SNIA_DIRTH_MAX = 0, SNIA_DIRTH_MID, SNIA_DIRTH_MIN, SNIA_DIRTH_NPOINTS };

/* "max", "mid", "min"; "?" out of range. */
const char *snia_dirth_point_name(enum snia_dirth_point p);

/* A cell key "threads=T,qd=Q" (the DIRTH rounds' order [threads, qd]) into *threads, *qd:
 * 0, or -EINVAL for any other key (both untouched). */
int snia_dirth_cell(const char *key, unsigned *threads, unsigned *qd);

/* One TOIO cell: its TC x QD and its IOPS over the measurement window (NaN: left out). */
struct snia_dirth_cell {
	unsigned threads, qd;
	double iops;
};

struct snia_dirth_choice {
	size_t idx[SNIA_DIRTH_NPOINTS]; /* into the cells given */
	double mid_target;		/* (Max + Min) / 2 */
	char why[SNIA_DIRTH_NPOINTS][160];
};

/*
 * Chooses the three points of cells c[0..n) (in round order) by the rule above. 0; -ENOENT when
 * there is no TC1/QD1 cell with IOPS; -EINVAL when fewer than three cells have IOPS (*out then
 * untouched).
 */
int snia_dirth_choose(const struct snia_dirth_cell *c, size_t n, struct snia_dirth_choice *out);

#endif
