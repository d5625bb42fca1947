/* SPDX-License-Identifier: MIT */
/*
 * test_sim_timing: the virtual SSD in virtual time. Every expectation is derived from the
 * configuration (die count, page size, program time, link rate), never a recorded figure:
 * program-unit gathering, the link cap, reads of unmapped LBAs, the write buffer, foreground
 * GC in the tail, the SLC cache (drop point, folding on idle, dynamic shrinking, the two
 * post-cache levels) and idle GC (recovery that runs out; none when disabled).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/sim.h"
#include "sim_testlib.h"
#include "testutil.h"

#define MU 4096ULL
#define MS 1000000ULL
#define SEC 1000000000ULL


/* 256 MiB, 4 dies on 2 channels, 64 KiB program unit, 12 pages per block. */
static void base_config(struct sim_config *c)
{
	sim_config_default(c);
	c->user_capacity = 256ULL << 20;
	c->spare_factor = 0.125;
	c->page_size = 65536;
	c->pages_per_block = 12;
	c->channels = 2;
	c->dies_per_channel = 2;
	c->timing.read = 60000;
	c->timing.program = 1500000;
	c->timing.program_slc = 300000;
	c->timing.erase = 3000000;
	c->timing.transfer_per_kib = 1000;
}

static struct sim_ssd *make(const struct sim_config *c)
{
	struct sim_ssd *s = NULL;

	assert_int_equal(sim_create(c, &s), 0);
	return s;
}

/* NAND write bandwidth of all dies programming in parallel, bytes per ns. */
static double nand_rate(const struct sim_config *c, uint64_t tprog)
{
	double cycle = (double)tprog + (double)c->page_size * c->timing.transfer_per_kib / 1024.0;

	return (double)c->channels * c->dies_per_channel * c->page_size / cycle;
}

struct job {
	bool write, random;
	uint64_t bs, n, from, to; /* I/Os; LBA window [from, to) */
	unsigned qd;
	uint64_t seed;
};

struct result {
	uint64_t t0, t1, bytes;
	uint64_t lat_p50, lat_p99, lat_max;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* A closed loop of qd outstanding I/Os, as the engine drives a virtual-time target. */
static struct result run(struct sim_ssd *s, const struct job *j)
{
	/* a new LBA sequence in every call: repeating one would rewrite data just written */
	uint64_t done[256], *lat = calloc(j->n, sizeof(uint64_t)), x = j->seed ^ sim_now(s), seq = j->from;
	uint64_t nblk = (j->to - j->from) / j->bs;
	struct result r = {.t0 = sim_now(s)};
	unsigned inflight = 0;

	assert_non_null(lat);
	assert_true(j->qd <= 256);
	for (uint64_t i = 0; i < j->n; i++) {
		uint64_t t = r.t0, off, d;
		unsigned slot = inflight;

		if (inflight == j->qd) {
			slot = tl_earliest(done, j->qd);
			t = done[slot];
			sim_advance(s, t);
		} else {
			inflight++;
		}
		if (j->random) {
			off = j->from + tl_below(&x, nblk) * j->bs;
		} else {
			off = seq;
			seq = seq + j->bs >= j->to ? j->from : seq + j->bs;
		}
		if (j->write)
			assert_int_equal(sim_write(s, off, j->bs, t, &d), 0);
		else
			assert_int_equal(sim_read(s, off, j->bs, t, &d), 0);
		assert_true(d >= t);
		lat[i] = d - t;
		done[slot] = d;
		if (d > r.t1)
			r.t1 = d;
	}
	sim_advance(s, r.t1);
	r.bytes = j->n * j->bs;
	qsort(lat, j->n, sizeof(*lat), cmp_u64);
	r.lat_p50 = lat[j->n / 2];
	r.lat_p99 = lat[j->n * 99 / 100];
	r.lat_max = lat[j->n - 1];
	free(lat);
	return r;
}

static double rate(const struct result *r) /* bytes per ns */
{
	return (double)r->bytes / (double)(r->t1 - r->t0);
}

/* Random 4 KiB writes on a fresh drive run at the dies' program bandwidth only because
 * they are gathered into 64 KiB program units; with a 4 KiB program unit they are 16x slower. */
static void test_program_unit_gathering(void **state)
{
	struct sim_config c;
	struct sim_ssd *s;
	struct result r;
	struct job j = {.write = true, .random = true, .bs = 4096, .n = 16384, .qd = 32, .seed = 1};
	double gathered, single;

	(void)state;
	base_config(&c);
	j.to = c.user_capacity;
	s = make(&c);
	r = run(s, &j);
	gathered = rate(&r);
	sim_free(s);
	printf("gathered: %.1f MB/s, NAND bound %.1f MB/s\n", gathered * 1e3, nand_rate(&c, c.timing.program) * 1e3);
	assert_true(fabs(gathered / nand_rate(&c, c.timing.program) - 1.0) < 0.05);

	c.page_size = 4096;
	c.pages_per_block = 12 * 16;
	s = make(&c);
	r = run(s, &j);
	single = rate(&r);
	sim_free(s);
	assert_true(fabs(single / nand_rate(&c, c.timing.program) - 1.0) < 0.05);
	assert_true(gathered > 10 * single);
}

/* A SATA-like link: fast NAND cannot push more than max_bytes_per_s, less the per-command
 * overhead. */
static void test_link_cap(void **state)
{
	struct sim_config c;
	struct sim_ssd *s;
	struct result r;
	struct job j = {.write = true, .bs = 131072, .n = 2000, .qd = 32};
	double cap;

	(void)state;
	base_config(&c);
	c.timing.program = 50000;
	c.timing.transfer_per_kib = 10;
	c.iface.max_bytes_per_s = 550e6;
	c.iface.command_overhead = 10000;
	j.to = c.user_capacity;
	s = make(&c);
	r = run(s, &j);
	cap = 131072.0 / (10000.0 + 131072.0 / 0.55);
	printf("link: %.1f MB/s of %.1f\n", rate(&r) * 1e3, cap * 1e3);
	assert_true(rate(&r) <= cap * 1.0001);
	assert_true(rate(&r) > cap * 0.97);
	j.write = false;
	r = run(s, &j);
	assert_true(rate(&r) <= cap * 1.0001);
	sim_free(s);
}

/* Unmapped LBAs are answered without touching the NAND; mapped ones cost a page read. */
static void test_read_unmapped(void **state)
{
	struct sim_config c;
	struct sim_ssd *s;
	struct sim_counters a, b;
	uint64_t done, t;

	(void)state;
	base_config(&c);
	c.iface.command_overhead = 5000;
	s = make(&c);
	t = sim_now(s);
	assert_int_equal(sim_read(s, 0, 4096, t, &done), 0);
	assert_true(done - t < c.timing.read);
	assert_int_equal(sim_write(s, 0, 65536 * 4, t, &done), 0);
	sim_advance(s, sim_quiesce_time(s));
	sim_get_counters(s, &a);
	t = sim_now(s);
	assert_int_equal(sim_read(s, 4096, 4096, t, &done), 0);
	assert_true(done - t >= c.timing.read + c.iface.command_overhead);
	sim_get_counters(s, &b);
	assert_int_equal(b.nand_bytes_read - a.nand_bytes_read, c.page_size);
	assert_int_equal(b.host_bytes_read - a.host_bytes_read, 4096);
	sim_advance(s, done);
	/* after a discard the LBA is unmapped again */
	assert_int_equal(sim_discard(s, 4096, 4096), 0);
	t = sim_now(s);
	assert_int_equal(sim_read(s, 4096, 4096, t, &done), 0);
	assert_true(done - t < c.timing.read);
	sim_free(s);
}

/* A burst that fits the write buffer completes at link speed; beyond it, writes wait for
 * programs to free buffer slots. */
static void test_write_buffer(void **state)
{
	struct sim_config c;
	struct sim_ssd *s;
	uint64_t done, t, last = 0;

	(void)state;
	base_config(&c);
	c.write_buffer = 4ULL << 20;
	c.iface.max_bytes_per_s = 1e9;
	s = make(&c);
	t = sim_now(s);
	for (uint64_t o = 0; o < c.write_buffer; o += 131072) {
		assert_int_equal(sim_write(s, o, 131072, t, &done), 0);
		last = done;
	}
	/* 4 MiB over a 1 GB/s link: about 4.2 ms, far less than the programs take */
	assert_true(last - t < (uint64_t)(c.write_buffer * 1.01) + MS / 10);
	assert_true(sim_quiesce_time(s) > last + c.timing.program);
	assert_int_equal(sim_write(s, c.write_buffer, 131072, t, &done), 0);
	assert_true(done >= t + c.timing.program);
	sim_free(s);
}

/* Steady-state random writes: throughput is the NAND bandwidth shared with the GC copies
 * (host rate x WA close to the program bandwidth) and foreground GC shows in the tail. */
static void test_steady_state_gc(void **state)
{
	struct sim_config c;
	struct sim_ssd *s;
	struct sim_counters a, b;
	struct result r;
	struct job fill = {.write = true, .bs = 131072, .qd = 8};
	struct job j = {.write = true, .random = true, .bs = 4096, .qd = 32, .seed = 3};
	double wa, busy;

	(void)state;
	base_config(&c);
	c.timing.transfer_per_kib = 100;
	c.timing.read = 20000;
	c.write_buffer = 1ULL << 20;
	fill.to = j.to = c.user_capacity;
	fill.n = c.user_capacity / fill.bs;
	j.n = 2 * c.user_capacity / 4096;
	s = make(&c);
	run(s, &fill);
	run(s, &j);
	sim_get_counters(s, &a);
	r = run(s, &j);
	sim_get_counters(s, &b);
	wa = (double)(b.nand_bytes_written - a.nand_bytes_written) /
	     (double)(b.host_bytes_written - a.host_bytes_written);
	/* die time the work needed: programs (with their transfer), erases and GC reads */
	busy = (double)(b.nand_bytes_written - a.nand_bytes_written) / c.page_size *
		       ((double)c.timing.program + c.page_size / 1024.0 * c.timing.transfer_per_kib) +
	       (b.erase_count_mean - a.erase_count_mean) * b.physical_blocks * c.timing.erase +
	       (double)(b.nand_bytes_read - a.nand_bytes_read) / c.page_size * c.timing.read;
	busy /= (double)c.channels * c.dies_per_channel * (double)(r.t1 - r.t0);
	printf("steady state: %.0f IOPS, WA %.3f, dies busy %.2f, p50 %.2f ms p99 %.2f ms max %.2f ms\n",
	       rate(&r) * 1e9 / 4096, wa, busy, r.lat_p50 / 1e6, r.lat_p99 / 1e6, r.lat_max / 1e6);
	assert_true(wa > 2.0);
	assert_true(busy > 0.85 && busy < 1.01);
	assert_true(r.lat_max > 2 * r.lat_p50);
	sim_free(s);
}

/* From fresh, sequential writes run at SLC speed until the cache size has been written (to
 * within one block), then at the post-cache level; folding on idle makes the cache available
 * again. */
static void slc_config(struct sim_config *c, enum sim_post_cache post)
{
	base_config(c);
	c->spare_factor = 0.25;
	c->slc.size = 8ULL << 20;
	c->slc.dynamic = false;
	c->slc.fold_on_idle = true;
	c->slc.post_cache = post;
	c->idle_gc.delay = 100 * MS;
	c->iface.max_bytes_per_s = 550e6;
	c->iface.command_overhead = 10000;
}

/* The in-cache rate: SLC programs on every die, or the link, whichever is slower. */
static double cache_rate(const struct sim_config *c)
{
	double link = 16384.0 / ((double)c->iface.command_overhead + 16384.0 * 1e9 / c->iface.max_bytes_per_s);
	double nand = nand_rate(c, c->timing.program_slc);

	return link < nand ? link : nand;
}

static uint64_t slc_block_bytes(const struct sim_config *c)
{
	return (uint64_t)(c->pages_per_block / 3) * c->page_size;
}

/* Writes sequentially in windows of one SLC block and returns the host bytes written before
 * the first window slower than half the first one; *fast: the first window's rate, *slow: the
 * mean rate from the drop on (folding while writing comes in bursts). */
static uint64_t find_drop(struct sim_ssd *s, const struct sim_config *c, uint64_t from,
			  uint64_t total, double *fast, double *slow)
{
	uint64_t win = slc_block_bytes(c), drop = UINT64_MAX, slow_bytes = 0, slow_ns = 0;
	struct job j = {.write = true, .bs = 16384, .qd = 4};
	double first = 0;

	for (uint64_t o = from; o + win <= from + total; o += win) {
		struct result r;

		j.from = o;
		j.to = o + win;
		j.n = win / j.bs;
		r = run(s, &j);
		if (!first)
			first = rate(&r);
		if (getenv("SIM_TEST_VERBOSE"))
			printf("  window at %.2f MiB: %.1f MB/s\n", (o - from) / 1048576.0, rate(&r) * 1e3);
		if (drop == UINT64_MAX && rate(&r) < first / 2)
			drop = o - from;
		if (drop != UINT64_MAX) {
			slow_bytes += r.bytes;
			slow_ns += r.t1 - r.t0;
		}
	}
	*fast = first;
	*slow = slow_ns ? (double)slow_bytes / (double)slow_ns : 0;
	return drop;
}

static void test_slc_cache(void **state)
{
	struct sim_config c;
	struct sim_ssd *s;
	struct sim_counters k;
	uint64_t drop;
	double fast, slow, fast2, slow2;

	(void)state;
	slc_config(&c, SIM_POST_DIRECT);
	s = make(&c);
	drop = find_drop(s, &c, 0, 32ULL << 20, &fast, &slow);
	printf("SLC: drop after %.2f MiB (cache %.2f MiB), %.1f -> %.1f MB/s\n", drop / 1048576.0,
	       c.slc.size / 1048576.0, fast * 1e3, slow * 1e3);
	assert_true(drop != UINT64_MAX);
	assert_true(llabs((long long)drop - (long long)c.slc.size) <= (long long)slc_block_bytes(&c));
	assert_true(fabs(fast / cache_rate(&c) - 1.0) < 0.1);
	assert_true(fabs(slow / nand_rate(&c, c.timing.program) - 1.0) < 0.1);
	sim_get_counters(s, &k);
	assert_true(k.slc_cache_used_bytes >= c.slc.size - slc_block_bytes(&c));
	assert_int_equal(k.nand_bytes_written_fold, 0);

	/* rest: the cache is folded into TLC (counted as NAND writes) and is fast again */
	sim_advance(s, sim_quiesce_time(s) + 10 * SEC);
	tl_check(s);
	sim_get_counters(s, &k);
	assert_int_equal(k.slc_cache_used_bytes, 0);
	assert_true(k.nand_bytes_written_fold >= c.slc.size - slc_block_bytes(&c));
	drop = find_drop(s, &c, 32ULL << 20, 32ULL << 20, &fast2, &slow2);
	assert_true(fabs(fast2 / fast - 1.0) < 0.1);
	assert_true(llabs((long long)drop - (long long)c.slc.size) <= (long long)slc_block_bytes(&c));
	sim_free(s);
}

/* Fold-while-writing gives a lower post-cache level than writing TLC directly. */
static void test_post_cache_levels(void **state)
{
	struct sim_config c;
	struct sim_ssd *s;
	double fast, direct, fold;

	(void)state;
	slc_config(&c, SIM_POST_DIRECT);
	s = make(&c);
	find_drop(s, &c, 0, 32ULL << 20, &fast, &direct);
	sim_free(s);
	slc_config(&c, SIM_POST_FOLD);
	s = make(&c);
	find_drop(s, &c, 0, 32ULL << 20, &fast, &fold);
	tl_check(s);
	sim_free(s);
	printf("post-cache: direct %.1f MB/s, fold-while-writing %.1f MB/s\n", direct * 1e3, fold * 1e3);
	assert_true(fold > 0 && fold < 0.9 * direct);
}

/* A dynamic cache shrinks as the drive fills. */
static void test_dynamic_shrinks(void **state)
{
	struct sim_config c;
	struct sim_ssd *s;
	struct sim_counters fresh, full;
	struct job fill = {.write = true, .bs = 131072, .qd = 8};

	(void)state;
	slc_config(&c, SIM_POST_DIRECT);
	c.slc.dynamic = true;
	c.spare_factor = 0.125;
	c.slc.size = 16ULL << 20;
	s = make(&c);
	sim_get_counters(s, &fresh);
	fill.to = c.user_capacity;
	fill.n = c.user_capacity / fill.bs;
	run(s, &fill);
	sim_get_counters(s, &full);
	tl_check(s);
	printf("dynamic cache: %.1f MiB fresh, %.1f MiB full\n", fresh.slc_cache_limit_bytes / 1048576.0,
	       full.slc_cache_limit_bytes / 1048576.0);
	assert_int_equal(fresh.slc_cache_limit_bytes / slc_block_bytes(&c), c.slc.size / slc_block_bytes(&c) + (c.slc.size % slc_block_bytes(&c) != 0));
	assert_true(full.slc_cache_limit_bytes < fresh.slc_cache_limit_bytes / 2);
	/* a full drive is still consistent: everything written is mapped */
	assert_int_equal(full.valid_bytes, c.user_capacity);
	sim_free(s);
}

/* Idle GC: with it, free blocks rise during an idle interval and the random-write rate after
 * it beats the steady state until the recovered space is used up; without it, neither. */
static void idle_case(bool enabled, enum sim_gc_policy policy, double *gain, double *after,
		      uint64_t *free_rise)
{
	struct sim_config c;
	struct sim_ssd *s;
	struct sim_counters a, b;
	struct job fill = {.write = true, .bs = 131072, .qd = 8};
	struct job j = {.write = true, .random = true, .bs = 4096, .qd = 32, .seed = 5};
	struct result ss, post, later;

	base_config(&c);
	c.gc_policy = policy;
	c.idle_gc.enabled = enabled;
	c.idle_gc.aggressive = true;
	c.idle_gc.delay = 50 * MS;
	fill.to = j.to = c.user_capacity;
	fill.n = c.user_capacity / fill.bs;
	s = make(&c);
	run(s, &fill);
	j.n = 2 * c.user_capacity / 4096;
	run(s, &j);
	j.n = c.user_capacity / 4096 / 4;
	ss = run(s, &j);
	if (getenv("SIM_TEST_VERBOSE"))
		printf("  NAND queue ahead at the end of the steady state: %.3f ms\n",
		       (sim_quiesce_time(s) - sim_now(s)) / 1e6);
	sim_get_counters(s, &a);
	sim_advance(s, sim_quiesce_time(s) + 20 * SEC);
	sim_get_counters(s, &b);
	*free_rise = b.free_blocks - a.free_blocks;
	j.n = c.user_capacity / 4096 / 32;
	post = run(s, &j);
	j.n = 2 * c.user_capacity / 4096;
	run(s, &j);
	j.n = c.user_capacity / 4096 / 4;
	later = run(s, &j);
	tl_check(s);
	*gain = rate(&post) / rate(&ss);
	*after = rate(&later) / rate(&ss);
	printf("idle gc %s (%s): free blocks +%llu, post-idle rate x%.2f, later x%.2f\n",
	       enabled ? "on" : "off", sim_gc_policy_name(policy),
	       (unsigned long long)*free_rise, *gain, *after);
	sim_free(s);
}

static void test_idle_gc(void **state)
{
	double gain, after;
	uint64_t rise;

	(void)state;
	idle_case(true, SIM_GC_GREEDY, &gain, &after, &rise);
	assert_true(rise > 10);
	assert_true(gain > 1.5);
	assert_true(fabs(after - 1.0) < 0.15); /* the effect runs out */
	idle_case(false, SIM_GC_GREEDY, &gain, &after, &rise);
	assert_int_equal(rise, 0);
	assert_true(gain < 1.15);
	/* idle GC picks its victims by valid count whatever the foreground policy */
	idle_case(true, SIM_GC_FIFO, &gain, &after, &rise);
	assert_true(rise > 10 && gain > 1.5);
	idle_case(true, SIM_GC_RANDOM, &gain, &after, &rise);
	assert_true(rise > 10 && gain > 1.5);
}

/* ---- volatile write cache and power-loss protection ------------------------------------- */

/* One program unit's cycle on an idle die: its transfer on the channel, then the program. */
static uint64_t page_cycle(const struct sim_config *c)
{
	return (uint64_t)c->page_size * c->timing.transfer_per_kib / 1024 + c->timing.program;
}

static double wa_between(const struct sim_counters *a, const struct sim_counters *b)
{
	return (double)(b->nand_bytes_written - a->nand_bytes_written) /
	       (double)(b->host_bytes_written - a->host_bytes_written);
}

/* Cache off, no PLP, closed loops of qd 4 KiB random writes on a fresh drive. A write waits for
 * its page's program; writes that arrive together share a page, the rest of it is padding. So
 * WA = units per page / min(qd, units per page), and throughput is min(qd, units per page x
 * dies) units per page cycle: at QD1 every write costs a whole program unit, and a deep queue
 * fills pages and gets the dies' program bandwidth back. With the cache on, QD1 completes in
 * the buffer. */
static void test_wcache_off_qd(void **state)
{
	static const unsigned qds[] = {1, 4, 16, 64, 128};
	struct sim_config c;
	uint64_t upp;

	(void)state;
	base_config(&c);
	upp = c.page_size / MU;
	for (size_t i = 0; i < sizeof(qds) / sizeof(qds[0]); i++) {
		struct job j = {.write = true, .random = true, .bs = 4096, .n = 4096, .qd = qds[i], .seed = 7};
		uint64_t inflight = qds[i] < upp * 4 ? qds[i] : upp * 4;
		double want_rate = (double)inflight * MU / (double)page_cycle(&c);
		double want_wa = (double)upp / (double)(qds[i] < upp ? qds[i] : upp);
		struct sim_counters a, b;
		struct sim_ssd *s;
		struct result r;

		c.write_cache = false;
		j.to = c.user_capacity;
		s = make(&c);
		assert_false(sim_write_cache(s));
		sim_get_counters(s, &a);
		r = run(s, &j);
		/* the last page may still be open to joiners: a flush pads it */
		assert_int_equal(sim_flush(s, r.t1, &r.t1), 0);
		sim_get_counters(s, &b);
		printf("cache off, QD%u: %.1f MB/s (expected %.1f), WA %.3f (expected %.3f), p50 %.3f ms\n",
		       qds[i], rate(&r) * 1e3, want_rate * 1e3, wa_between(&a, &b), want_wa, r.lat_p50 / 1e6);
		if (qds[i] == 1) {
			/* exactly one program cycle per write, the padding exactly the rest of each page */
			assert_true(r.lat_p50 >= c.timing.program);
			assert_int_equal(r.lat_p50, page_cycle(&c));
			assert_int_equal(r.lat_max, page_cycle(&c));
			assert_int_equal(b.nand_bytes_written_pad, j.n * (upp - 1) * MU);
		}
		assert_true(fabs(wa_between(&a, &b) / want_wa - 1.0) < 0.01);
		assert_true(fabs(rate(&r) / want_rate - 1.0) < 0.05);
		assert_int_equal(b.nand_bytes_written, b.nand_bytes_written_host + b.nand_bytes_written_pad);
		tl_check(s);
		sim_free(s);
	}

	/* without a time model every write is alone: a whole program unit each */
	{
		struct sim_ssd *s;
		struct sim_counters b;
		uint64_t d, x = 5;

		c.timed = false;
		c.write_cache = false;
		s = make(&c);
		for (unsigned i = 0; i < 1000; i++)
			assert_int_equal(sim_write(s, tl_below(&x, c.user_capacity / MU) * MU, 4096, 0, &d), 0);
		sim_get_counters(s, &b);
		assert_int_equal(b.nand_bytes_written_pad, 1000 * (upp - 1) * MU);
		tl_check(s);
		sim_free(s);
		c.timed = true;
	}

	/* the cache on: QD1 writes complete in the buffer, long before a program */
	{
		struct job j = {.write = true, .random = true, .bs = 4096, .n = 4096, .qd = 1, .seed = 7};
		struct sim_ssd *s;
		struct result r;
		struct sim_counters b;

		c.write_cache = true;
		j.to = c.user_capacity;
		s = make(&c);
		r = run(s, &j);
		sim_get_counters(s, &b);
		assert_true(r.lat_p50 < c.timing.program / 10);
		assert_int_equal(b.nand_bytes_written_pad, 0);
		sim_free(s);
	}
}

/* Runs a fill and 2x capacity of random writes at QD8 (foreground GC included) and returns the
 * counters and the last run's result. */
static void wcache_workload(const struct sim_config *c, struct sim_counters *k, struct result *r)
{
	struct job fill = {.write = true, .bs = 131072, .qd = 8};
	struct job j = {.write = true, .random = true, .bs = 4096, .qd = 8, .seed = 11};
	struct sim_ssd *s = make(c);

	fill.to = j.to = c->user_capacity;
	fill.n = c->user_capacity / fill.bs;
	j.n = 2 * c->user_capacity / 4096;
	run(s, &fill);
	*r = run(s, &j);
	sim_get_counters(s, k);
	tl_check(s);
	sim_free(s);
}

/* With power-loss protection the buffer is safe: the cache off changes nothing, bit for bit.
 * Without it, the same workload pads (WA rises) and is slower; and it is deterministic. */
static void test_wcache_plp_and_determinism(void **state)
{
	struct sim_config c;
	struct sim_counters on, plp, off, off2;
	struct result ron, rplp, roff, roff2;

	(void)state;
	base_config(&c);
	c.user_capacity = 64ULL << 20;
	c.write_buffer = 1ULL << 20;
	wcache_workload(&c, &on, &ron);
	c.write_cache = false;
	c.power_loss_protection = true;
	wcache_workload(&c, &plp, &rplp);
	assert_memory_equal(&on, &plp, sizeof(on));
	assert_memory_equal(&ron, &rplp, sizeof(ron));
	c.power_loss_protection = false;
	wcache_workload(&c, &off, &roff);
	wcache_workload(&c, &off2, &roff2);
	assert_memory_equal(&off, &off2, sizeof(off));
	assert_memory_equal(&roff, &roff2, sizeof(roff));
	printf("QD8 steady state: cache on %.1f MB/s WA %.2f; off %.1f MB/s WA %.2f (pad %.2f of host)\n",
	       rate(&ron) * 1e3, (double)on.nand_bytes_written / on.host_bytes_written, rate(&roff) * 1e3,
	       (double)off.nand_bytes_written / off.host_bytes_written,
	       (double)off.nand_bytes_written_pad / off.host_bytes_written);
	assert_true(off.nand_bytes_written_pad > 0);
	assert_true(off.nand_bytes_written > on.nand_bytes_written);
	assert_true(rate(&roff) < rate(&ron));
	assert_int_equal(on.nand_bytes_written_pad, 0);
}

/* A flush pads and programs the partial page and completes when it is on the NAND; a second
 * one has nothing to wait for; with full pages in flight it waits for all of them; turning the
 * cache off flushes; with PLP a flush is instant. */
static void test_wcache_flush(void **state)
{
	struct sim_config c;
	struct sim_counters k;
	struct sim_ssd *s;
	uint64_t t, done, fl, upp;

	(void)state;
	base_config(&c);
	upp = c.page_size / MU;
	s = make(&c);
	t = sim_now(s) + 1000;
	assert_int_equal(sim_write(s, 0, 4096, t, &done), 0);
	assert_true(done - t < c.timing.program / 10); /* buffered */
	sim_get_counters(s, &k);
	assert_int_equal(k.nand_bytes_written, 4096);
	assert_int_equal(sim_flush(s, done, &fl), 0);
	assert_int_equal(fl, t + page_cycle(&c));
	sim_get_counters(s, &k);
	assert_int_equal(k.nand_bytes_written_pad, (upp - 1) * MU);
	assert_int_equal(k.nand_bytes_written, c.page_size);
	assert_int_equal(sim_flush(s, fl, &done), 0);
	assert_int_equal(done, fl);
	/* eight pages' worth at once: the flush waits for the last program */
	t = fl;
	for (uint64_t o = 0; o < 8 * c.page_size; o += 131072)
		assert_int_equal(sim_write(s, o, 131072, t, &done), 0);
	assert_int_equal(sim_flush(s, t, &fl), 0);
	assert_int_equal(fl, sim_quiesce_time(s));
	assert_true(fl >= t + 2 * page_cycle(&c)); /* 8 pages on 4 dies */
	/* switching the cache off flushes first */
	assert_int_equal(sim_write(s, 0, 4096, fl, &done), 0);
	assert_int_equal(sim_set_write_cache(s, false, done, &t), 0);
	assert_false(sim_write_cache(s));
	assert_true(t >= done + c.timing.program);
	sim_get_counters(s, &k);
	assert_int_equal(k.nand_bytes_written_pad, 2 * (upp - 1) * MU);
	tl_check(s);
	sim_free(s);

	c.power_loss_protection = true;
	s = make(&c);
	t = sim_now(s) + 1000;
	assert_int_equal(sim_write(s, 0, 4096, t, &done), 0);
	assert_int_equal(sim_flush(s, done, &fl), 0);
	assert_int_equal(fl, done);
	sim_get_counters(s, &k);
	assert_int_equal(k.nand_bytes_written_pad, 0);
	sim_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_program_unit_gathering),
		cmocka_unit_test(test_link_cap),
		cmocka_unit_test(test_read_unmapped),
		cmocka_unit_test(test_write_buffer),
		cmocka_unit_test(test_steady_state_gc),
		cmocka_unit_test(test_slc_cache),
		cmocka_unit_test(test_post_cache_levels),
		cmocka_unit_test(test_dynamic_shrinks),
		cmocka_unit_test(test_idle_gc),
		cmocka_unit_test(test_wcache_off_qd),
		cmocka_unit_test(test_wcache_plp_and_determinism),
		cmocka_unit_test(test_wcache_flush),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
