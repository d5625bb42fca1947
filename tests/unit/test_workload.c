/* SPDX-License-Identifier: MIT */
/*
 * test_workload: the offset, size, direction and data generator. Table-driven over modes,
 * block-size splits, ranges and logical block sizes: every offset aligned and inside the range;
 * random offsets uniform (chi-square, GSL's gsl_cdf_chisq_Q); zoned shares, block-size split
 * shares and read/write mix as asked; sequential wrap-around and one shared cursor across
 * threads; a 512 B job on a 4Kn target refused with the reason; seeds reproducible; data
 * buffers incompressible, unique per 4 KiB block, zeros or N% compressible as asked; JESD219:
 * `align` on every size, and a split on a 4Kn target without its sub-4 KiB sizes (by hand).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_cdf.h>

#include "testutil.h"
#include "engine/sprandom.h"
#include "engine/workload.h"

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)

static struct job_spec spec_of(enum rw_mode rw, uint32_t bs, uint64_t start, uint64_t end)
{
	struct job_spec s;

	memset(&s, 0, sizeof(s));
	s.rw = rw;
	s.rwmix_read = 50;
	s.bs[0].bs = bs;
	s.bs[0].weight = 1;
	s.nbs = 1;
	s.qd = 1;
	s.threads = 1;
	s.range_start = start;
	s.range_end = end;
	s.seed = 42;
	return s;
}

static struct workload *make(const struct job_spec *s, uint32_t lbs)
{
	struct workload *w = NULL;
	char err[256] = "";
	int rc = workload_create(s, lbs, &w, err, sizeof(err));

	if (rc)
		fail_msg("workload_create: %d: %s", rc, err);
	return w;
}

struct bounds_case {
	enum rw_mode rw;
	const char *bs; /* split text, parsed here to keep the table readable */
	uint64_t start, end;
	uint32_t lbs;
};

static const struct bounds_case bounds_cases[] = {
	{RW_RANDREAD, "4k", 0, 1 * GiB, 512},
	{RW_RANDWRITE, "4k", 12 * KiB, 1 * GiB + 4 * KiB, 4096},
	{RW_RANDRW, "4k/70:64k/30", 1 * MiB + 512, 3 * GiB, 512},
	{RW_RANDREAD, "512/10:12k/10:128k/80", 512, 100 * MiB - 512, 512},
	{RW_RANDWRITE, "1m", 0, 8 * MiB, 4096},
	{RW_WRITE, "128k", 4 * KiB, 1 * MiB + 4 * KiB, 4096},
	{RW_READ, "4k/50:12k/50", 0, 256 * KiB, 4096},
	{RW_RW, "8k", 0, 80 * KiB, 512},
};

static void parse_split(const char *text, struct job_spec *s)
{
	char buf[128], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", text);
	s->nbs = 0;
	for (char *tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/');
		char *end;
		unsigned long long v = strtoull(tok, &end, 10);

		if (*end == 'k')
			v *= KiB;
		else if (*end == 'm')
			v *= MiB;
		s->bs[s->nbs].bs = (uint32_t)v;
		s->bs[s->nbs].weight = slash ? (uint32_t)atoi(slash + 1) : 1;
		s->nbs++;
	}
}

static uint64_t align_of(uint32_t bs, uint32_t lbs)
{
	uint64_t a = bs & -bs;

	return a < lbs ? lbs : a;
}

static void test_bounds_and_alignment(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(bounds_cases) / sizeof(bounds_cases[0]); c++) {
		const struct bounds_case *bc = &bounds_cases[c];
		struct job_spec s = spec_of(bc->rw, 0, bc->start, bc->end);
		struct workload_stream st;
		struct workload *w;
		uint64_t lo = UINT64_MAX, hi = 0;
		int seq = bc->rw == RW_READ || bc->rw == RW_WRITE || bc->rw == RW_RW;

		parse_split(bc->bs, &s);
		w = make(&s, bc->lbs);
		workload_stream_init(&st, w, 0);
		for (int i = 0; i < 100000; i++) {
			struct target_io io = {0};

			workload_next(&st, &io);
			if (io.offset < bc->start || io.offset + io.len > bc->end)
				fail_msg("case %zu: I/O [%llu, +%u) outside [%llu, %llu)", c,
					 (unsigned long long)io.offset, io.len,
					 (unsigned long long)bc->start, (unsigned long long)bc->end);
			assert_int_equal(io.offset % bc->lbs, 0);
			if (!seq)
				assert_int_equal(io.offset % align_of(io.len, bc->lbs), 0);
			if (io.offset < lo)
				lo = io.offset;
			if (io.offset + io.len > hi)
				hi = io.offset + io.len;
		}
		/* The whole range is reached: the first and last aligned slots appear. */
		if (seq || bc->end - bc->start < 16 * MiB) {
			assert_int_equal(lo, (bc->start + bc->lbs - 1) / bc->lbs * bc->lbs);
			assert_true(hi + 128 * KiB > bc->end);
		}
		workload_free(w);
	}
}

/* Pearson's chi-square over `k` equal cells of the range; returns the upper-tail p-value. */
static double chisq_p(const uint64_t *counts, unsigned k, uint64_t n)
{
	double e = (double)n / k, chi = 0;

	for (unsigned i = 0; i < k; i++)
		chi += ((double)counts[i] - e) * ((double)counts[i] - e) / e;
	return gsl_cdf_chisq_Q(chi, k - 1);
}

static void test_uniformity(void **state)
{
	static const uint64_t seeds[] = {1, 42, 0xdeadbeef};
	enum { K = 128, N = 256000 };

	(void)state;
	for (size_t si = 0; si < sizeof(seeds) / sizeof(seeds[0]); si++) {
		/* 1 GiB of 4 KiB slots in 128 cells, and a non-power-of-two range. */
		uint64_t ends[] = {1 * GiB, 1000 * MiB + 12 * KiB};

		for (size_t ei = 0; ei < 2; ei++) {
			struct job_spec s = spec_of(RW_RANDREAD, 4096, 0, ends[ei]);
			uint64_t counts[K] = {0}, slots = ends[ei] / 4096;
			struct workload_stream st;
			struct workload *w;
			double p;

			s.seed = seeds[si];
			w = make(&s, 512);
			workload_stream_init(&st, w, 0);
			for (int i = 0; i < N; i++) {
				struct target_io io;

				workload_next(&st, &io);
				counts[(io.offset / 4096) * K / slots]++;
			}
			/* Cells hold slots*K/K slots each up to rounding: correct the expectation
			 * only when the slot count does not divide (here it differs by < 1 slot). */
			p = chisq_p(counts, K, N);
			if (p < 1e-4)
				fail_msg("seed %llu range %zu: chi-square p = %g",
					 (unsigned long long)seeds[si], ei, p);
			workload_free(w);
		}
	}
	/* The test itself must be able to fail: a skewed histogram gets a tiny p-value. */
	{
		uint64_t skew[K];

		for (unsigned i = 0; i < K; i++)
			skew[i] = N / K + (i < K / 2 ? 60 : -60);
		assert_true(chisq_p(skew, K, N) < 1e-4);
	}
}

static void test_zoned_shares(void **state)
{
	struct job_spec s = spec_of(RW_RANDWRITE, 4096, 0, 10 * GiB);
	struct workload_stream st;
	struct workload *w;
	uint64_t hits[3] = {0}, n = 300000;
	double bounds[3] = {0.05, 0.20, 1.0}, want[3] = {0.5, 0.3, 0.2};

	(void)state;
	s.dist = DIST_ZONED;
	s.nzones = 3; /* JESD219-like: 50% of I/O to 5% of the range, 30% to 15%, 20% to 80% */
	s.zones[0] = (struct zone_split){0.5, 0.05};
	s.zones[1] = (struct zone_split){0.3, 0.15};
	s.zones[2] = (struct zone_split){0.2, 0.80};
	w = make(&s, 512);
	workload_stream_init(&st, w, 0);
	for (uint64_t i = 0; i < n; i++) {
		struct target_io io;
		double f;
		unsigned z = 0;

		workload_next(&st, &io);
		f = (double)io.offset / (double)(10 * GiB);
		while (f >= bounds[z])
			z++;
		hits[z]++;
	}
	for (int z = 0; z < 3; z++)
		if (fabs((double)hits[z] / n - want[z]) > 0.005)
			fail_msg("zone %d got %.4f of the I/O, want %.2f", z, (double)hits[z] / n,
				 want[z]);
	workload_free(w);

	/* Shares that do not add up are refused with the reason. */
	{
		char err[256] = "";

		s.zones[2].io_frac = 0.3;
		w = NULL;
		assert_int_equal(workload_create(&s, 512, &w, err, sizeof(err)), -EINVAL);
		assert_null(w);
		assert_non_null(strstr(err, "add up"));
	}
}

static void test_split_and_mix_shares(void **state)
{
	struct job_spec s = spec_of(RW_RANDRW, 0, 0, 4 * GiB);
	struct workload_stream st;
	struct workload *w;
	uint64_t n4 = 0, n64 = 0, n1m = 0, reads = 0, n = 200000;

	(void)state;
	parse_split("4k/60:64k/30:1m/10", &s);
	s.rwmix_read = 70;
	w = make(&s, 512);
	assert_int_equal(workload_max_bs(w), 1 * MiB);
	assert_true(workload_reads(w) && workload_writes(w));
	workload_stream_init(&st, w, 0);
	for (uint64_t i = 0; i < n; i++) {
		struct target_io io;

		workload_next(&st, &io);
		n4 += io.len == 4 * KiB;
		n64 += io.len == 64 * KiB;
		n1m += io.len == 1 * MiB;
		reads += io.dir == IO_READ;
	}
	assert_int_equal(n4 + n64 + n1m, n);
	assert_true(fabs((double)n4 / n - 0.6) < 0.005);
	assert_true(fabs((double)n64 / n - 0.3) < 0.005);
	assert_true(fabs((double)n1m / n - 0.1) < 0.005);
	assert_true(fabs((double)reads / n - 0.7) < 0.005);
	workload_free(w);
}

static void test_sequential_wrap(void **state)
{
	struct job_spec s = spec_of(RW_WRITE, 4096, 16 * KiB, 56 * KiB); /* 10 blocks */
	struct workload_stream st;
	struct workload *w;

	(void)state;
	s.seq_start = 48 * KiB;
	w = make(&s, 4096);
	assert_false(workload_reads(w));
	workload_stream_init(&st, w, 0);
	for (int i = 0; i < 25; i++) {
		struct target_io io;
		uint64_t want = 16 * KiB + ((32 * KiB + (uint64_t)i * 4 * KiB) % (40 * KiB));

		workload_next(&st, &io);
		assert_int_equal(io.dir, IO_WRITE);
		assert_int_equal(io.offset, want);
		assert_int_equal(workload_seq_next(w),
				 16 * KiB + ((36 * KiB + (uint64_t)i * 4 * KiB) % (40 * KiB)));
	}
	workload_free(w);

	/* Zones shape random offsets only: a sequential job still walks the whole range. */
	s = spec_of(RW_WRITE, 4096, 0, 40 * KiB);
	s.dist = DIST_ZONED;
	s.nzones = 2;
	s.zones[0] = (struct zone_split){0.9, 0.1};
	s.zones[1] = (struct zone_split){0.1, 0.9};
	w = make(&s, 4096);
	workload_stream_init(&st, w, 0);
	for (int i = 0; i < 10; i++) {
		struct target_io io;

		workload_next(&st, &io);
		assert_int_equal(io.offset, (uint64_t)i * 4 * KiB);
	}
	workload_free(w);

	/* A block that would cross the end starts over at the range start. */
	s = spec_of(RW_READ, 12 * KiB, 0, 40 * KiB);
	w = make(&s, 4096);
	workload_stream_init(&st, w, 0);
	{
		static const uint64_t want[] = {0, 12 * KiB, 24 * KiB, 0, 12 * KiB};

		for (size_t i = 0; i < 5; i++) {
			struct target_io io;

			workload_next(&st, &io);
			assert_int_equal(io.offset, want[i] * 1);
		}
	}
	workload_free(w);
}

struct thr_arg {
	struct workload *w;
	unsigned index;
	uint64_t offs[2000];
};

static void *seq_thread(void *p)
{
	struct thr_arg *a = p;
	struct workload_stream st;

	workload_stream_init(&st, a->w, a->index);
	for (int i = 0; i < 2000; i++) {
		struct target_io io;

		workload_next(&st, &io);
		a->offs[i] = io.offset;
	}
	return NULL;
}

/* Several threads share one sequential cursor: together they cover each block exactly once. */
static void test_sequential_threads(void **state)
{
	struct job_spec s = spec_of(RW_WRITE, 4096, 0, 4 * 2000 * 4096ull);
	struct thr_arg *a = calloc(4, sizeof(*a));
	uint8_t *seen = calloc(4 * 2000, 1);
	pthread_t th[4];
	struct workload *w;

	(void)state;
	assert_non_null(a);
	assert_non_null(seen);
	w = make(&s, 512);
	for (unsigned i = 0; i < 4; i++) {
		a[i].w = w;
		a[i].index = i;
		assert_int_equal(pthread_create(&th[i], NULL, seq_thread, &a[i]), 0);
	}
	for (unsigned i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	for (unsigned i = 0; i < 4; i++)
		for (int j = 0; j < 2000; j++) {
			uint64_t b = a[i].offs[j] / 4096;

			assert_true(b < 4 * 2000);
			assert_int_equal(seen[b], 0);
			seen[b] = 1;
			if (j) /* each thread's own offsets still ascend */
				assert_true(a[i].offs[j] > a[i].offs[j - 1]);
		}
	assert_int_equal(workload_seq_next(w), 0); /* wrapped exactly at the end */
	workload_free(w);
	free(seen);
	free(a);
}

struct refuse_case {
	const char *what;
	struct job_spec s;
	uint32_t lbs;
	const char *reason;
};

/*
 * JESD219 (issue 16): `align` puts every size on its boundary, 0.5 KiB and 1.5 KiB included,
 * where without it a 1536 B I/O is 512 B aligned; and an align that is not a multiple of the
 * logical block size is refused. The last slot of each size is found: 4 KiB slots up to the
 * range's end minus the size.
 */
static void test_align(void **state)
{
	static const char *const mix = "512/4:1024/1:1536/1:2048/1:2560/1:3072/1:3584/1:4k/67:8k/10:"
				       "16k/7:32k/3:64k/3";
	struct job_spec s = spec_of(RW_RANDRW, 0, 0, 1 * MiB);
	struct workload_stream st;
	struct workload *w;
	uint64_t unaligned = 0, n = 200000, max_off[JOB_MAX_BS] = {0};
	bool odd = false;

	(void)state;
	parse_split(mix, &s);
	assert_int_equal(s.nbs, 12);
	s.align = 4096;
	w = make(&s, 512);
	workload_stream_init(&st, w, 0);
	for (uint64_t i = 0; i < n; i++) {
		struct target_io io;

		workload_next(&st, &io);
		unaligned += io.offset % 4096 != 0;
		assert_true(io.offset + io.len <= 1 * MiB);
		for (unsigned b = 0; b < s.nbs; b++)
			if (s.bs[b].bs == io.len && io.offset > max_off[b])
				max_off[b] = io.offset;
	}
	assert_int_equal(unaligned, 0);
	/* the last 4 KiB slot holding the size: 1 MiB - 4 KiB for <= 4 KiB, 1 MiB - 64 KiB for 64k */
	assert_int_equal(max_off[0], 1 * MiB - 4 * KiB);
	assert_int_equal(max_off[11], 1 * MiB - 64 * KiB);
	workload_free(w);

	/* Without align a 1536 B I/O lands on 512 B boundaries. */
	s.align = 0;
	w = make(&s, 512);
	workload_stream_init(&st, w, 0);
	for (uint64_t i = 0; i < n && !odd; i++) {
		struct target_io io;

		workload_next(&st, &io);
		odd = io.len == 1536 && io.offset % 4096 != 0;
	}
	assert_true(odd);
	workload_free(w);

	{
		char err[256] = "";

		s.align = 1000;
		w = NULL;
		assert_int_equal(workload_create(&s, 512, &w, err, sizeof(err)), -EINVAL);
		assert_null(w);
		assert_non_null(strstr(err, "align 1000 B is not a multiple"));
	}
}

/*
 * bs_split_drop() on the JESD219 mix for a 4Kn device, worked by hand: the seven sizes below
 * 4 KiB (weights 4+1+1+1+1+1+1 = 10 of 100) go, in their order; 4k/67, 8k/10, 16k/7, 32k/3,
 * 64k/3 stay (90), so a generated job draws 4k 67/90 = 74.44%, 8k 11.11%, 16k 7.78%, 32k and
 * 64k 3.33% each. A split of sub-4 KiB sizes only is left whole (-EINVAL: not applicable), a
 * 512 B device drops nothing.
 */
static void test_split_drop_4kn(void **state)
{
	static const uint32_t kept[5] = {4096, 8192, 16384, 32768, 65536};
	static const uint32_t kw[5] = {67, 10, 7, 3, 3};
	static const uint32_t gone[7] = {512, 1024, 1536, 2048, 2560, 3072, 3584};
	static const uint32_t gw[7] = {4, 1, 1, 1, 1, 1, 1};
	static const double share[5] = {67 / 90.0, 10 / 90.0, 7 / 90.0, 3 / 90.0, 3 / 90.0};
	struct job_spec s = spec_of(RW_RANDRW, 0, 0, 1 * GiB);
	struct workload_stream st;
	struct workload *w;
	uint64_t hits[5] = {0}, n = 300000;
	unsigned nb;

	(void)state;
	parse_split("512/4:1024/1:1536/1:2048/1:2560/1:3072/1:3584/1:4k/67:8k/10:16k/7:32k/3:64k/3",
		    &s);
	nb = s.nbs;
	assert_int_equal(bs_split_drop(s.bs, &nb, 512, s.bs_dropped, &s.nbs_dropped), 0);
	assert_int_equal(nb, 12);
	assert_int_equal(bs_split_drop(s.bs, &s.nbs, 4096, s.bs_dropped, &s.nbs_dropped), 7);
	assert_int_equal(s.nbs, 5);
	assert_int_equal(s.nbs_dropped, 7);
	for (unsigned i = 0; i < 5; i++) {
		assert_int_equal(s.bs[i].bs, kept[i]);
		assert_int_equal(s.bs[i].weight, kw[i]);
	}
	for (unsigned i = 0; i < 7; i++) {
		assert_int_equal(s.bs_dropped[i].bs, gone[i]);
		assert_int_equal(s.bs_dropped[i].weight, gw[i]);
	}
	w = make(&s, 4096);
	workload_stream_init(&st, w, 0);
	for (uint64_t i = 0; i < n; i++) {
		struct target_io io;

		workload_next(&st, &io);
		for (unsigned b = 0; b < 5; b++)
			hits[b] += io.len == kept[b];
	}
	for (unsigned b = 0; b < 5; b++)
		if (fabs((double)hits[b] / n - share[b]) > 0.005)
			fail_msg("%u B: %.4f of the I/Os, by hand %.4f", kept[b], (double)hits[b] / n,
				 share[b]);
	workload_free(w);

	{
		struct bs_split small[2] = {{512, 1}, {1024, 1}}, out[JOB_MAX_BS];
		unsigned n2 = 2, nout = 0;

		assert_int_equal(bs_split_drop(small, &n2, 4096, out, &nout), -EINVAL);
		assert_int_equal(n2, 2);
		assert_int_equal(nout, 0);
	}
}

static void test_refusals(void **state)
{
	struct refuse_case cases[] = {
		{"512 B on 4Kn", spec_of(RW_RANDREAD, 512, 0, 1 * GiB), 4096, "4Kn"},
		{"6000 B", spec_of(RW_RANDREAD, 6000, 0, 1 * GiB), 512, "multiple of 512"},
		{"empty range", spec_of(RW_RANDREAD, 4096, 8192, 8192), 512, "empty"},
		{"unaligned range", spec_of(RW_RANDREAD, 4096, 512, 1 * MiB), 4096, "aligned"},
		{"range < bs", spec_of(RW_RANDREAD, 1 * MiB, 0, 512 * KiB), 512, "too small"},
		{"seq range < bs", spec_of(RW_WRITE, 1 * MiB, 0, 512 * KiB), 512, "smaller"},
		{"rwmix 101", spec_of(RW_RANDRW, 4096, 0, 1 * MiB), 512, "percentage"},
		{"no bs", spec_of(RW_RANDRW, 4096, 0, 1 * MiB), 512, "block size"},
	};

	(void)state;
	cases[6].s.rwmix_read = 101;
	cases[7].s.nbs = 0;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct workload *w = (struct workload *)&cases[c]; /* must stay untouched */
		char err[256] = "";

		assert_int_equal(workload_create(&cases[c].s, cases[c].lbs, &w, err, sizeof(err)),
				 -EINVAL);
		assert_ptr_equal(w, &cases[c]);
		if (!strstr(err, cases[c].reason))
			fail_msg("%s: reason '%s' lacks '%s'", cases[c].what, err, cases[c].reason);
	}
}

/*
 * SNIA PTS-C ActiveRange Amount: random offsets fall only in the segments, and every segment is
 * hit. The segment starts are hand-computed: a 64 MiB range with 1 MiB in 8 segments has 128
 * KiB segments 8 MiB apart (64 / 8), at the range's start + 0, 8, ..., 56 MiB; the same with
 * the range starting at 1 MiB; with 64 KiB I/Os the segments hold two slots each; with an
 * unaligned start (4 KiB) and 128 KiB I/Os the first segment starts at the next 128 KiB
 * boundary and the stride is (64 MiB + 4 KiB - 128 KiB) / 8 aligned down to 128 KiB: 7.875 MiB.
 */
struct seg_case {
	uint32_t bs;
	uint64_t start, end, seg_bytes;
	unsigned segments;
	uint64_t first, stride; /* by hand */
};

static void test_active_range_amount(void **state)
{
	static const struct seg_case cases[] = {
		{4 * KiB, 0, 64 * MiB, 128 * KiB, 8, 0, 8 * MiB},
		{4 * KiB, 1 * MiB, 65 * MiB, 128 * KiB, 8, 1 * MiB, 8 * MiB},
		{64 * KiB, 0, 64 * MiB, 128 * KiB, 8, 0, 8 * MiB},
		{128 * KiB, 4 * KiB, 64 * MiB + 8 * KiB, 256 * KiB, 8, 128 * KiB,
		 7 * MiB + 896 * KiB},
		/* PTS-C's 2048 segments of a 16 GiB Amount in a 100 GiB range: 8 MiB each, 50 MiB apart */
		{4 * KiB, 0, 100 * GiB, 8 * MiB, 2048, 0, 50 * MiB},
	};

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const struct seg_case *sc = &cases[c];
		struct job_spec s = spec_of(RW_RANDRW, sc->bs, sc->start, sc->end);
		unsigned hits[2048] = {0};
		struct workload_stream st;
		struct workload *w;

		s.segments = sc->segments;
		s.segment_bytes = sc->seg_bytes;
		w = make(&s, 4096);
		workload_stream_init(&st, w, 0);
		for (int i = 0; i < 200000; i++) {
			struct target_io io = {0};
			uint64_t seg, in;

			workload_next(&st, &io);
			if (io.offset < sc->first)
				fail_msg("case %zu: offset %llu before the first segment", c,
					 (unsigned long long)io.offset);
			seg = (io.offset - sc->first) / sc->stride;
			in = (io.offset - sc->first) % sc->stride;
			if (seg >= sc->segments || in + io.len > sc->seg_bytes)
				fail_msg("case %zu: I/O [%llu, +%u) outside the segments", c,
					 (unsigned long long)io.offset, io.len);
			assert_int_equal(io.offset % sc->bs, 0);
			hits[seg]++;
		}
		for (unsigned i = 0; i < sc->segments; i++)
			if (!hits[i])
				fail_msg("case %zu: segment %u never hit", c, i);
		workload_free(w);
	}
	/* Segments that do not fit, and zones with segments, are refused. */
	{
		struct job_spec s = spec_of(RW_RANDWRITE, 4 * KiB, 0, 64 * MiB);
		struct workload *w = NULL;
		char err[256] = "";

		s.segments = 8;
		s.segment_bytes = 16 * MiB; /* more than the 8 MiB between starts */
		assert_int_equal(workload_create(&s, 4096, &w, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "do not fit"));
		s.segment_bytes = 2 * KiB; /* smaller than a block */
		assert_int_equal(workload_create(&s, 512, &w, err, sizeof(err)), -EINVAL);
		s.segment_bytes = 128 * KiB;
		s.dist = DIST_ZONED;
		s.nzones = 1;
		s.zones[0] = (struct zone_split){1, 1};
		assert_int_equal(workload_create(&s, 4096, &w, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "zoned"));
		assert_null(w);
	}
	/* A sequential job (preconditioning) ignores the segments and walks the whole range. */
	{
		struct job_spec s = spec_of(RW_WRITE, 128 * KiB, 0, 64 * MiB);
		struct workload_stream st;
		struct workload *w;
		uint64_t hi = 0;

		s.segments = 8;
		s.segment_bytes = 128 * KiB;
		w = make(&s, 4096);
		workload_stream_init(&st, w, 0);
		for (int i = 0; i < 512; i++) {
			struct target_io io = {0};

			workload_next(&st, &io);
			if (io.offset + io.len > hi)
				hi = io.offset + io.len;
		}
		assert_int_equal(hi, 64 * MiB);
		workload_free(w);
	}
}

static void test_reproducible(void **state)
{
	struct job_spec s = spec_of(RW_RANDRW, 4096, 0, 1 * GiB);
	struct workload_stream a, b, c;
	struct workload *w;
	int same_c = 0;

	(void)state;
	w = make(&s, 512);
	workload_stream_init(&a, w, 0);
	workload_stream_init(&b, w, 0);
	workload_stream_init(&c, w, 1);
	for (int i = 0; i < 1000; i++) {
		struct target_io x, y, z;

		workload_next(&a, &x);
		workload_next(&b, &y);
		workload_next(&c, &z);
		assert_int_equal(x.offset, y.offset);
		assert_int_equal(x.dir, y.dir);
		same_c += x.offset == z.offset;
	}
	assert_true(same_c < 5);
	workload_free(w);
}

static size_t count_zero_bytes(const unsigned char *b, size_t n)
{
	size_t z = 0;

	for (size_t i = 0; i < n; i++)
		z += !b[i];
	return z;
}

static void test_data(void **state)
{
	struct job_spec s = spec_of(RW_RANDWRITE, 64 * KiB, 0, 1 * GiB);
	unsigned char *b1 = aligned_alloc(4096, 64 * KiB), *b2 = aligned_alloc(4096, 64 * KiB);
	struct workload_stream st;
	struct workload *w;

	(void)state;
	assert_non_null(b1);
	assert_non_null(b2);
	/* Incompressible: random bytes, different per buffer, no two 4 KiB blocks alike. */
	w = make(&s, 512);
	workload_stream_init(&st, w, 0);
	workload_buf_init(w, b1, 64 * KiB, 0);
	workload_buf_init(w, b2, 64 * KiB, 1);
	assert_true(count_zero_bytes(b1, 64 * KiB) < 64 * KiB / 128);
	assert_memory_not_equal(b1, b2, 64 * KiB);
	/* The same buffer written twice at the same place carries different stamps. */
	memcpy(b2, b1, 64 * KiB);
	workload_stamp(&st, b1, 64 * KiB, 8 * MiB);
	workload_stamp(&st, b2, 64 * KiB, 8 * MiB);
	assert_memory_not_equal(b1, b2, 16);
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < i; j++)
			assert_memory_not_equal(b1 + i * 4096, b1 + j * 4096, 4096);
	workload_free(w);

	/* Zeros stay zeros. */
	s.pattern = PATTERN_ZEROS;
	w = make(&s, 512);
	workload_stream_init(&st, w, 0);
	workload_buf_init(w, b1, 64 * KiB, 0);
	workload_stamp(&st, b1, 64 * KiB, 0);
	assert_int_equal(count_zero_bytes(b1, 64 * KiB), 64 * KiB);
	workload_free(w);

	/* 75% compressible: three quarters of each block are zeros. */
	s.pattern = PATTERN_RANDOM;
	s.compressibility = 75;
	w = make(&s, 512);
	workload_buf_init(w, b1, 64 * KiB, 0);
	{
		size_t z = count_zero_bytes(b1, 64 * KiB);

		assert_true(z >= 48 * KiB && z < 48 * KiB + 64 * KiB / 128);
		assert_int_equal(count_zero_bytes(b1 + 3 * KiB, 1 * KiB), 1 * KiB);
	}
	workload_free(w);
	free(b1);
	free(b2);
}

/*
 * The sprandom fill's offsets (spec.sprandom): two streams share the one sequence (together they
 * draw exactly the sequence's first writes, each once), seq_next is the position in bytes, a
 * workload started at a position continues the sequence there, past its end the writes stay in
 * the range, and a spec the fill cannot honour is refused.
 */
static void test_sprandom_offsets(void **state)
{
	struct job_spec s = spec_of(RW_RANDWRITE, 4096, 1 * MiB, 1 * MiB + 64 * MiB);
	uint64_t units = 64 * MiB / 4096, n = 5000, *want, *got;
	struct workload_stream st[2];
	struct sprandom *seq = NULL;
	struct workload *w, *w2;
	struct target_io io;
	char err[256];

	(void)state;
	s.sprandom.on = true;
	s.sprandom.alpha = 0.6;
	s.sprandom.regions = 64;
	s.sprandom.seed = 9;
	assert_int_equal(sprandom_create(units, 0.6, 64, 9, &seq, err, sizeof(err)), 0);
	want = calloc(units, sizeof(*want));
	got = calloc(units, sizeof(*got));
	assert_non_null(want);
	assert_non_null(got);
	for (uint64_t i = 0; i < n; i++)
		want[sprandom_unit(seq, i)]++;
	w = make(&s, 512);
	assert_int_equal(workload_sprandom_total(w), sprandom_total(seq));
	workload_stream_init(&st[0], w, 0);
	workload_stream_init(&st[1], w, 1);
	for (uint64_t i = 0; i < n; i++) {
		workload_next(&st[i % 3 == 0], &io);
		assert_int_equal(io.len, 4096);
		assert_int_equal(io.dir, IO_WRITE);
		assert_true(io.offset >= 1 * MiB && (io.offset - 1 * MiB) % 4096 == 0);
		got[(io.offset - 1 * MiB) / 4096]++;
	}
	assert_memory_equal(got, want, units * sizeof(*got));
	assert_int_equal(workload_seq_next(w), n * 4096);
	/* resumed at position k: the sequence goes on there */
	s.seq_start = 1234 * 4096;
	w2 = make(&s, 512);
	workload_stream_init(&st[0], w2, 0);
	for (uint64_t i = 1234; i < 1300; i++) {
		workload_next(&st[0], &io);
		assert_int_equal(io.offset, 1 * MiB + sprandom_unit(seq, i) * 4096);
	}
	workload_free(w2);
	/* past the end: uniform writes inside the range */
	s.seq_start = sprandom_total(seq) * 4096;
	w2 = make(&s, 512);
	workload_stream_init(&st[0], w2, 0);
	for (int i = 0; i < 1000; i++) {
		workload_next(&st[0], &io);
		assert_true(io.offset >= 1 * MiB && io.offset + 4096 <= 65 * MiB);
	}
	workload_free(w2);
	/* refused: a split, a sequential mode, a position that is not a whole write */
	s.seq_start = 100;
	assert_int_equal(workload_create(&s, 512, &w2, err, sizeof(err)), -EINVAL);
	s.seq_start = 0;
	s.rw = RW_WRITE;
	assert_int_equal(workload_create(&s, 512, &w2, err, sizeof(err)), -EINVAL);
	s.rw = RW_RANDWRITE;
	parse_split("4k/50:8k/50", &s);
	assert_int_equal(workload_create(&s, 512, &w2, err, sizeof(err)), -EINVAL);
	workload_free(w);
	sprandom_free(seq);
	free(want);
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bounds_and_alignment),
		cmocka_unit_test(test_uniformity),
		cmocka_unit_test(test_zoned_shares),
		cmocka_unit_test(test_split_and_mix_shares),
		cmocka_unit_test(test_sequential_wrap),
		cmocka_unit_test(test_sequential_threads),
		cmocka_unit_test(test_align),
		cmocka_unit_test(test_split_drop_4kn),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_active_range_amount),
		cmocka_unit_test(test_reproducible),
		cmocka_unit_test(test_data),
		cmocka_unit_test(test_sprandom_offsets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
