/* SPDX-License-Identifier: MIT */
/*
 * test_sim_ftl: the virtual SSD's FTL behaviour apart from the WA theory (test_sim_wa.c):
 * configuration checks, sequential writes at WA 1, discard, purge, the HPA analogue, counters
 * and bit-for-bit determinism.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "sim/sim.h"
#include "sim_testlib.h"
#include "testutil.h"

#define MU 4096ULL


/* A 256 MiB drive on 4 dies with 16 KiB pages: small enough to be fast, big enough to GC. */
static void small_config(struct sim_config *c)
{
	sim_config_default(c);
	c->user_capacity = 256ULL << 20;
	c->pages_per_block = 64;
	c->spare_factor = 0.1;
}

static struct sim_ssd *make(const struct sim_config *c)
{
	struct sim_ssd *s = NULL;

	assert_int_equal(sim_create(c, &s), 0);
	return s;
}

static void write_seq(struct sim_ssd *s, uint64_t from, uint64_t to, uint64_t bs)
{
	uint64_t done;

	for (uint64_t o = from; o < to; o += bs)
		assert_int_equal(sim_write(s, o, to - o < bs ? to - o : bs, sim_now(s), &done), 0);
}

static void write_random(struct sim_ssd *s, uint64_t n, uint64_t units, uint64_t *x)
{
	uint64_t done;

	for (uint64_t i = 0; i < n; i++)
		assert_int_equal(
			sim_write(s, tl_below(x, units) * MU, MU, sim_now(s), &done), 0);
}

static double wa_between(const struct sim_counters *a, const struct sim_counters *b)
{
	return (double)(b->nand_bytes_written - a->nand_bytes_written) /
	       (double)(b->host_bytes_written - a->host_bytes_written);
}

static void test_config_check(void **state)
{
	struct sim_config c;
	char err[256] = "";

	(void)state;
	small_config(&c);
	assert_int_equal(sim_config_check(&c, err, sizeof(err)), 0);
	/* one mutation at a time, each must be refused with a reason */
	for (int i = 0; i < 9; i++) {
		struct sim_ssd *s = NULL;

		small_config(&c);
		switch (i) {
		case 0: c.mapping_unit = 3000; break;
		case 1: c.page_size = 6000; break;
		case 2: c.spare_factor = 0.001; break;
		case 3: c.spare_factor = 1.0; break;
		case 4: c.user_capacity = 1000; break;
		case 5: c.channels = 0; break;
		case 6: c.logical_block_size = 1024; break;
		case 7: c.idle_gc.enabled = true; c.idle_gc.rate = 0; break;
		case 8: c.slc.size = 1; c.pages_per_block = 2; break;
		}
		err[0] = 0;
		assert_int_equal(sim_config_check(&c, err, sizeof(err)), -EINVAL);
		assert_true(strlen(err) > 10);
		assert_int_equal(sim_create(&c, &s), -EINVAL);
		assert_null(s);
	}
}

static void test_spare_counts_every_block(void **state)
{
	struct sim_config c;
	uint64_t nb, bb;
	double sf;

	(void)state;
	small_config(&c);
	nb = sim_config_physical_blocks(&c);
	bb = (uint64_t)c.page_size * c.pages_per_block;
	sf = 1.0 - (double)c.user_capacity / (double)(nb * bb);
	/* the realised spare factor is the asked one, rounded up to whole blocks */
	assert_true(sf >= c.spare_factor - 1e-12);
	assert_true(sf < c.spare_factor + (double)bb / (double)(nb * bb) + 1e-12);
}

static void test_io_bounds(void **state)
{
	struct sim_config c;
	struct sim_ssd *s;
	uint64_t done = 12345;

	(void)state;
	small_config(&c);
	s = make(&c);
	assert_int_equal(sim_write(s, 0, 0, 0, &done), -EINVAL);
	assert_int_equal(sim_write(s, 100, 4096, 0, &done), -EINVAL);
	assert_int_equal(sim_write(s, c.user_capacity, 4096, 0, &done), -EINVAL);
	assert_int_equal(sim_write(s, c.user_capacity - 4096, 8192, 0, &done), -EINVAL);
	assert_int_equal(sim_read(s, c.user_capacity, 512, 0, &done), -EINVAL);
	assert_int_equal(done, 12345); /* untouched on failure */
	assert_int_equal(sim_write(s, c.user_capacity - 512, 512, 0, &done), 0);
	sim_free(s);
}

static void test_sequential_wa_one(void **state)
{
	static const uint64_t bss[] = {4096, 131072, 1 << 20};
	struct sim_config c;

	(void)state;
	for (size_t i = 0; i < sizeof(bss) / sizeof(bss[0]); i++) {
		struct sim_counters a, b;
		struct sim_ssd *s;

		small_config(&c);
		s = make(&c);
		write_seq(s, 0, c.user_capacity, bss[i]);
		sim_get_counters(s, &a);
		assert_int_equal(a.valid_bytes, c.user_capacity);
		write_seq(s, 0, c.user_capacity, bss[i]);
		write_seq(s, 0, c.user_capacity, bss[i]);
		sim_get_counters(s, &b);
		printf("bs %llu: sequential WA %.4f\n", (unsigned long long)bss[i], wa_between(&a, &b));
		assert_true(fabs(wa_between(&a, &b) - 1.0) <= 0.01);
		sim_free(s);
	}
}

/* Reads of never-written or trimmed units are counted, byte for byte, including the part of a
 * unit a read covers at either end (worked by hand below, 4 KiB units). */
static void test_reads_unmapped(void **state)
{
	static const struct {
		uint64_t offset, len, unmapped; /* after units 1 and 2 written, unit 2 trimmed */
	} reads[] = {
	    {0, MU, MU},		  /* unit 0: never written */
	    {MU, MU, 0},		  /* unit 1: written */
	    {2 * MU, MU, MU},		  /* unit 2: trimmed */
	    {MU - 512, 1024, 512},	  /* last 512 B of unit 0, first 512 B of unit 1 */
	    {MU + 512, 2 * MU, MU + 512}, /* 3.5 KiB of unit 1, all of unit 2, 512 B of unit 3 */
	    {0, 4 * MU, 3 * MU},	  /* units 0, 2, 3 */
	};
	struct sim_config c;
	struct sim_counters a, b;
	struct sim_ssd *s;
	uint64_t done;

	(void)state;
	small_config(&c);
	s = make(&c);
	write_seq(s, MU, 3 * MU, MU);
	assert_int_equal(sim_discard(s, 2 * MU, MU), 0);
	for (size_t i = 0; i < sizeof(reads) / sizeof(reads[0]); i++) {
		sim_get_counters(s, &a);
		assert_int_equal(sim_read(s, reads[i].offset, reads[i].len, sim_now(s), &done), 0);
		sim_get_counters(s, &b);
		assert_int_equal(b.host_bytes_read - a.host_bytes_read, reads[i].len);
		assert_int_equal(b.host_bytes_read_unmapped - a.host_bytes_read_unmapped,
				 reads[i].unmapped);
	}
	sim_free(s);
}

static void test_discard_then_fill(void **state)
{
	struct sim_config c;
	struct sim_counters a, b, d;
	struct sim_ssd *s;
	uint64_t x = 7, units;

	(void)state;
	small_config(&c);
	units = c.user_capacity / MU;
	s = make(&c);
	write_seq(s, 0, c.user_capacity, 131072);
	write_random(s, 2 * units, units, &x); /* fragment every block */
	sim_get_counters(s, &a);
	assert_true(a.nand_bytes_written_gc > 0);
	/* a partial unit at either end stays mapped */
	assert_int_equal(sim_discard(s, 512, c.user_capacity - 1024), 0);
	sim_get_counters(s, &d);
	tl_check(s);
	assert_int_equal(d.valid_bytes, 2 * MU);
	assert_int_equal(sim_discard(s, 0, c.user_capacity), 0);
	sim_get_counters(s, &d);
	assert_int_equal(d.valid_bytes, 0);
	write_seq(s, 0, c.user_capacity, 131072);
	tl_check(s);
	sim_get_counters(s, &b);
	printf("fill after discard: WA %.6f\n", wa_between(&d, &b));
	assert_true(fabs(wa_between(&d, &b) - 1.0) < 0.001);
	sim_free(s);
}

static void test_purge(void **state)
{
	struct sim_config c;
	struct sim_counters a, b, e;
	struct sim_ssd *s;
	uint64_t x = 9, units, done;

	(void)state;
	small_config(&c);
	units = c.user_capacity / MU;
	s = make(&c);
	write_seq(s, 0, c.user_capacity, 131072);
	write_random(s, units, units, &x);
	sim_get_counters(s, &a);
	sim_purge(s);
	tl_check(s);
	sim_get_counters(s, &b);
	assert_int_equal(b.valid_bytes, 0);
	assert_int_equal(b.free_blocks, b.physical_blocks);
	assert_true(b.erase_count_mean > a.erase_count_mean); /* the purge erased what held data */
	assert_int_equal(b.host_bytes_written, a.host_bytes_written); /* lifetime counters stay */
	/* fresh out of box: a read costs no NAND read, a fill has WA 1 */
	assert_int_equal(sim_read(s, 0, 1 << 20, sim_now(s), &done), 0);
	sim_get_counters(s, &e);
	assert_int_equal(e.nand_bytes_read, b.nand_bytes_read);
	write_seq(s, 0, c.user_capacity, 131072);
	sim_get_counters(s, &e);
	assert_true(fabs(wa_between(&b, &e) - 1.0) < 0.001);
	sim_free(s);
}

static void test_capacity_lowered(void **state)
{
	struct sim_config c;
	struct sim_counters a, b, f, g;
	struct sim_ssd *s;
	uint64_t x = 3, units, cap, done;
	double alpha, want, wa_full;

	(void)state;
	small_config(&c);
	c.page_size = 4096;
	c.channels = c.dies_per_channel = 1;
	c.pages_per_block = 64;
	c.timed = false;
	units = c.user_capacity / MU;
	s = make(&c);
	/* full capacity first, for comparison */
	write_seq(s, 0, c.user_capacity, 1 << 20);
	write_random(s, 3 * units, units, &x);
	sim_get_counters(s, &f);
	write_random(s, 2 * units, units, &x);
	sim_get_counters(s, &g);
	wa_full = wa_between(&f, &g);

	cap = (units * 7 / 10) * MU;
	assert_int_equal(sim_set_capacity(s, cap + 512), -EINVAL);
	assert_int_equal(sim_set_capacity(s, c.user_capacity + MU), -EINVAL);
	assert_int_equal(sim_set_capacity(s, cap), 0);
	tl_check(s);
	assert_int_equal(sim_capacity(s), cap);
	sim_get_counters(s, &a);
	assert_true(a.valid_bytes <= cap);
	assert_int_equal(sim_write(s, cap, MU, 0, &done), -EINVAL);
	units = cap / MU;
	write_seq(s, 0, cap, 1 << 20);
	write_random(s, 3 * units, units, &x);
	sim_get_counters(s, &a);
	write_random(s, 2 * units, units, &x);
	sim_get_counters(s, &b);
	tl_check(s);
	alpha = (double)(b.physical_blocks - sim_config_watermark(&c)) * 64 / (double)units;
	want = theory_wa_greedy(alpha, 64);
	printf("HPA 70%%: WA %.4f (theory %.4f), full capacity WA %.4f\n", wa_between(&a, &b), want,
	       wa_full);
	assert_true(fabs(wa_between(&a, &b) / want - 1.0) < 0.03);
	assert_true(wa_between(&a, &b) < wa_full / 2);
	/* and back: the capacity can be restored */
	assert_int_equal(sim_set_capacity(s, c.user_capacity), 0);
	assert_int_equal(sim_write(s, c.user_capacity - MU, MU, 0, &done), 0);
	sim_free(s);
}

/* Same seed, same everything: counters and every completion time, bit for bit; another seed
 * changes the random GC's choices. */
static uint64_t run_mixed(uint64_t seed, struct sim_counters *out)
{
	struct sim_config c;
	struct sim_ssd *s;
	uint64_t x = 5, h = 1469598103934665603ULL, done, units;

	small_config(&c);
	c.gc_policy = SIM_GC_DCHOICES;
	c.gc_d = 3;
	c.seed = seed;
	c.spare_factor = 0.2;
	c.slc.size = 16 << 20;
	c.slc.dynamic = true;
	c.slc.fold_on_idle = true;
	c.idle_gc.enabled = true;
	c.idle_gc.delay = 1000000;
	c.iface.max_bytes_per_s = 550e6;
	c.iface.command_overhead = 5000;
	units = c.user_capacity / MU;
	s = make(&c);
	write_seq(s, 0, c.user_capacity, 131072);
	for (uint64_t i = 0; i < 2 * units; i++) {
		uint64_t r = prng_splitmix64(&x), off = (((r >> 32) * units) >> 32) * MU;

		/* one I/O in 4096 comes after a 50 ms pause, long enough for idle work */
		uint64_t t = sim_now(s) + ((r >> 20) % 4096 == 0 ? 50000000 : 1000);

		if (r & 1)
			sim_write(s, off, MU, t, &done);
		else
			sim_read(s, off, MU, t, &done);
		h = (h ^ done) * 1099511628211ULL;
		sim_advance(s, done);
	}
	tl_check(s);
	sim_get_counters(s, out);
	printf("seed %llu: gc %llu idle gc %llu folds %llu, WA %.3f, now %.3f s\n",
	       (unsigned long long)seed, (unsigned long long)out->gc_runs,
	       (unsigned long long)out->idle_gc_runs, (unsigned long long)out->folds,
	       (double)out->nand_bytes_written / (double)out->host_bytes_written, out->power_on_ns / 1e9);
	sim_free(s);
	return h;
}

static void test_determinism(void **state)
{
	struct sim_counters a, b, d;
	uint64_t ha = run_mixed(11, &a), hb = run_mixed(11, &b), hd = run_mixed(12, &d);

	(void)state;
	assert_int_equal(ha, hb);
	assert_memory_equal(&a, &b, sizeof(a));
	assert_true(a.gc_runs > 0 && a.idle_gc_runs > 0);
	assert_true(hd != ha || d.nand_bytes_written_gc != a.nand_bytes_written_gc);
}

/* A prefetch hint changes nothing, whatever the offset. */
static void test_prefetch_is_a_hint(void **state)
{
	struct sim_config c;
	struct sim_counters a, b;
	struct sim_ssd *s;
	uint64_t done;

	(void)state;
	small_config(&c);
	s = make(&c);
	write_seq(s, 0, 1 << 20, 4096);
	sim_get_counters(s, &a);
	for (uint64_t o = 0; o < 2 * c.user_capacity; o += 12345 * MU) {
		sim_prefetch(s, o, false);
		sim_prefetch(s, o, true);
	}
	sim_prefetch(s, UINT64_MAX, true);
	sim_get_counters(s, &b);
	assert_memory_equal(&a, &b, sizeof(a));
	assert_int_equal(sim_write(s, 0, MU, sim_now(s), &done), 0);
	sim_free(s);
}

static void test_map_bytes(void **state)
{
	struct sim_config c;
	struct sim_ssd *s;

	(void)state;
	small_config(&c);
	c.spare_factor = 0.07;
	s = make(&c);
	/* forward + reverse, uint32 each: 4 + 4 / (1 - Sf), at most 10 bytes per unit */
	assert_true(sim_map_bytes_per_unit(s) <= 10.0);
	assert_true(sim_map_bytes_per_unit(s) >= 8.0);
	sim_free(s);
}

static void test_policy_names(void **state)
{
	enum sim_gc_policy p;

	(void)state;
	for (int i = SIM_GC_GREEDY; i <= SIM_GC_DCHOICES; i++) {
		assert_int_equal(sim_gc_policy_parse(sim_gc_policy_name(i), &p), 0);
		assert_int_equal(p, i);
	}
	p = SIM_GC_FIFO;
	assert_int_equal(sim_gc_policy_parse("lru", &p), -EINVAL);
	assert_int_equal(p, SIM_GC_FIFO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_check),
		cmocka_unit_test(test_spare_counts_every_block),
		cmocka_unit_test(test_io_bounds),
		cmocka_unit_test(test_reads_unmapped),
		cmocka_unit_test(test_sequential_wa_one),
		cmocka_unit_test(test_discard_then_fill),
		cmocka_unit_test(test_purge),
		cmocka_unit_test(test_capacity_lowered),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_prefetch_is_a_hint),
		cmocka_unit_test(test_map_bytes),
		cmocka_unit_test(test_policy_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
