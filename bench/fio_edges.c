/* SPDX-License-Identifier: MIT */
/*
 * fio_edges: how fio's percentile comparison decides its edges, counted (docs/fio.md, analysis/
 * fio.h fio_reaches()). A percentile p of N samples is the first bin where the cumulative count k
 * reaches p / 100 x N; where that product is an integer or next to one, the arithmetic decides
 * whether the k-th sample answers or the (k+1)-th does. For every N up to the first argument
 * (default 2,000,000) and fio's 17 default percentiles, at every such edge (the product within
 * 1e-6 of an integer k), four ways of deciding k >= p / 100 x N are compared:
 *   exact        p as the double it is, in 128-bit integers: ssdlab's own fio_reaches();
 *   fio binary   (N x 0.01L) x p in long double: the instructions of Debian's fio-3.33
 *                calc_clat_percentiles (fildll N, fldt 0.01L, fmulp, then x p), as -ffast-math
 *                compiled the source's `(long double) p / 100.0 * nr`;
 *   fio source   (long double) p / 100.0 x N, as the source reads;
 *   double       p / 100.0 x N in double.
 * Prints the number of edges and how many each differs from the exact decision on. A separate
 * program, never a test; `ninja -C build bench/fio_edges && build/bench/fio_edges`.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/fio.h"

static const double PCTS[] = {1,  5,  10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95,
			      99.99};

int main(int argc, char **argv)
{
	uint64_t nmax = argc > 1 ? strtoull(argv[1], NULL, 10) : 2000000, edges = 0;
	uint64_t differ[3] = {0, 0, 0};

	for (uint64_t n = 1; n <= nmax; n++)
		for (size_t i = 0; i < sizeof(PCTS) / sizeof(PCTS[0]); i++) {
			double p = PCTS[i];
			long double bin = (long double)n * 0.01L * (long double)p;
			uint64_t k = (uint64_t)llroundl(bin);
			int want;

			if (fabsl(bin - (long double)k) > 1e-6L)
				continue;
			edges++;
			want = fio_reaches(k, p, n);
			differ[0] += want != ((long double)k >= bin);
			differ[1] += want != ((long double)k >= (long double)p / 100.0 * n);
			differ[2] += want != ((double)k >= p / 100.0 * (double)n);
		}
	printf("N 1..%llu, %zu percentiles: %llu edges\n", (unsigned long long)nmax,
	       sizeof(PCTS) / sizeof(PCTS[0]), (unsigned long long)edges);
	printf("differ from the exact decision: fio binary %llu, fio source %llu, double %llu\n",
	       (unsigned long long)differ[0], (unsigned long long)differ[1],
	       (unsigned long long)differ[2]);
	return 0;
}
