/* SPDX-License-Identifier: MIT */
/*
 * fio: ssdlab's analysis of fio's JSON results (`ssdlab analyze --fio`, docs/fio.md): per job
 * the I/O, rates and completion-latency percentiles recomputed from fio's json+ histograms, and
 * the SNIA steady state (ss.h) over the rounds of each cell of an `export-fio` job file, whose
 * job names say phase, iteration, round and cell (p<phase>.i<iteration>.r<round>.<cell>).
 *
 * fio's latency histogram (stat.h/stat.c, FIO_IO_U_PLAT_BITS 6, 29 groups in nanoseconds):
 * values below 128 have a bin each; above, each power of two [2^m, 2^(m+1)) is split into 64
 * equal bins of 2^(m-6) ns. A bin's index is (m - 5) x 64 + (v >> (m - 6)) mod 64 and the value
 * fio reports for it (json+ "bins" keys, percentiles) is its midpoint 2^m + (k + 0.5) x 2^(m-6).
 * A percentile p is the value of the first bin where the cumulative count reaches p% of all.
 */
#ifndef SSDLAB_FIO_H
#define SSDLAB_FIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/ss.h"

struct json_object;

#define FIO_PLAT_BITS 6
#define FIO_PLAT_VAL (1u << FIO_PLAT_BITS)
#define FIO_PLAT_GROUPS 29
#define FIO_PLAT_NR (FIO_PLAT_GROUPS * FIO_PLAT_VAL)

/* The bin of a latency of v ns (the last bin for anything past the histogram). */
unsigned fio_plat_val_to_idx(uint64_t v);
/* The value fio reports for bin idx (its midpoint; the value itself below 128). */
uint64_t fio_plat_idx_to_val(unsigned idx);

/*
 * Whether a cumulative count sum reaches percentile p of n samples: sum >= p / 100 x n, exactly,
 * p taken as the double it is (99.95 is 99.950000000000003): p = m x 2^e with m < 2^53, and for p
 * in [1, 100] (fio's percentiles) e is -52 .. -46, so the test is sum x 100 x 2^-e >= m x n in 128
 * bits (sum and n below 2^40: 7 + 40 + 52 bits at most on the left).
 *
 * Why exact: fio's source compares in long double (`(long double)p / 100.0 * nr`), but fio is
 * built with -ffast-math and Debian's fio-3.33 computes (nr x 0.01L) x p instead; on every edge
 * where p x n / 100 is within 1e-6 of an integer, n up to 2,000,000 and p in fio's default list
 * (3.65 million cases, counted by bench/fio_edges.c, which calls this), that binary
 * decides as the exact value does, while the source's long double differs on 262,125 of them
 * and plain double on 1,017. Two fio_loop failures came from those edges: 99.95 % of 2000 writes
 * (1999 in double; the 2000th sample in fio) and 60 % of 1665 (999 exactly; 999 + 6e-17 in the
 * source's long double).
 */
bool fio_reaches(uint64_t sum, double p, uint64_t n);

/*
 * The analysis of a fio JSON document (fio --output-format=json+, or json: then no percentiles
 * of our own, "histogram": false) as a new summary object (docs/fio.md, "analyze --fio"):
 * {"source": "fio", "fio_version", "jobs": [...], "steady_state": [...]}; steady state is judged
 * with p over the rounds of each (phase, iteration, cell) of jobs named by export-fio, the
 * tracking variable being the job's total IOPS. 0, -EINVAL (not fio's JSON: err says why) or
 * -ENOMEM.
 */
int fio_analyze(struct json_object *fio, const struct ss_params *p, struct json_object **out,
		char *err, size_t len);

#endif
