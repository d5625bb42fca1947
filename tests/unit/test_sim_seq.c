/* SPDX-License-Identifier: MIT */
/*
 * test_sim_seq: sequential overwrites on every bundled virtual-SSD model (issue 9, point 6).
 * From purge, one full sequential fill, then one sequential overwrite pass, 1 MiB writes at
 * queue depth 32 (what `ssdlab io --rw write --bs 1m --qd 32` does). A sequential overwrite of
 * a full drive invalidates whole blocks in order, so GC finds them empty: the pass must cost
 * what the cache policy implies and run at the TLC program rate of the dies. Both figures are
 * computed here from the parsed model fields, never typed in. A second overwrite pass, the
 * cache's excess folded, must cost the policy's WA alone. On eb20673 client-tlc and no-idle-gc
 * wrote the first pass at WA 2.57 and 25.7 MB/s (the second half), and later passes worse: GC
 * left the cache blocks the host had emptied allocated and copied partly valid TLC blocks.
 */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/sim_model.h"
#include "sim_testlib.h"
#include "testutil.h"

#define QD 32
#define BS (1ULL << 20)

struct pass {
	double wa;	   /* NAND bytes / host bytes over the pass */
	double late_rate;  /* bytes per second over the second half of the pass */
	double gc_share;   /* GC copies / host bytes */
};

/* One sequential pass over the whole drive, QD writes of BS in a closed loop. */
static struct pass seq_pass(struct sim_ssd *s)
{
	struct sim_counters a, b;
	struct pass p;
	uint64_t cap = sim_capacity(s), done[QD] = {0}, t = sim_now(s), half_t = 0, last = 0;
	unsigned inflight = 0;

	sim_get_counters(s, &a);
	for (uint64_t o = 0; o < cap; o += BS) {
		unsigned slot = inflight;

		if (inflight == QD) {
			slot = tl_earliest(done, QD);
			t = done[slot];
			sim_advance(s, t);
		} else {
			inflight++;
		}
		if (o == cap / 2)
			half_t = t;
		assert_int_equal(sim_write(s, o, BS < cap - o ? BS : cap - o, t, &done[slot]), 0);
		last = done[slot] > last ? done[slot] : last;
	}
	sim_advance(s, last);
	sim_get_counters(s, &b);
	p.wa = (double)(b.nand_bytes_written - a.nand_bytes_written) /
	       (double)(b.host_bytes_written - a.host_bytes_written);
	p.gc_share = (double)(b.nand_bytes_written_gc - a.nand_bytes_written_gc) /
		     (double)(b.host_bytes_written - a.host_bytes_written);
	/* the second half was submitted from half_t on and is complete at `last` */
	p.late_rate = (double)(cap - cap / 2) * 1e9 / (double)(last - half_t);
	return p;
}

/*
 * The WA a sequential overwrite pass after a sequential fill must have, from the model:
 *   - post_cache fold: every host unit is written to SLC, then folded once into TLC: 2.
 *   - otherwise (direct, or no cache): 1, plus what the fill left in the cache above what a
 *     full drive lets it keep, folded once when space runs short. A dynamic cache may use a
 *     third of the blocks that the valid data (in TLC form), the GC reserve and the open blocks
 *     (one TLC and one SLC per die) leave (docs/virtual-ssd.md). The fill writes the cache
 *     while it may open blocks and goes on until the free pool is down to that reserve R, so
 *     it ends holding x SLC blocks where nb = (U - x u_s) / u + x + R (U user units, u and
 *     u_s = u / 3 units per TLC and SLC block): x = (nb - R - U / u) / (1 - u_s / u), at most
 *     the configured cache. A full drive lets it keep lim = (nb - ceil(U / u) - R) / 3 blocks;
 *     the excess x - lim, u_s units each, is folded: WA = 1 + (x - lim) u_s / U. This is an
 *     upper bound: cache blocks that the host overwrites before they are folded cost nothing.
 */
static double expected_wa(const struct sim_config *c)
{
	double mu = c->mapping_unit, u = (double)c->pages_per_block * c->page_size / mu;
	double us = (double)(c->pages_per_block / 3) * c->page_size / mu;
	double U = (double)c->user_capacity / mu, ndies = (double)c->channels * c->dies_per_channel;
	double nb = ceil((double)c->user_capacity / (1.0 - c->spare_factor) /
			 ((double)c->pages_per_block * c->page_size) - 1e-9);
	double wm = c->free_block_watermark > ndies + 2 ? c->free_block_watermark : ndies + 2;
	double R = wm + 2 * ndies, cache = ceil((double)c->slc.size / mu / us), x, lim;

	if (!c->slc.size)
		return 1.0;
	if (c->slc.post_cache == SIM_POST_FOLD)
		return 2.0;
	if (!c->slc.dynamic)
		return 1.0; /* a static cache is always allowed what it holds */
	x = fmin(cache, (nb - R - U / u) / (1.0 - us / u));
	lim = fmin(cache, floor((nb - ceil(U / u) - R) / 3.0));
	return 1.0 + fmax(0.0, x - lim) * us / U;
}

/*
 * TLC program rate of the dies, from the model: each die programs a unit of page_size bytes
 * per (program + its transfer over the channel) and, on a full drive, erases a block for every
 * pages_per_block of them; the channels carry at most 1 KiB per transfer_per_kib; the link
 * caps it all.
 */
static double expected_rate(const struct sim_config *c)
{
	double ndies = (double)c->channels * c->dies_per_channel;
	double xfer = (double)c->page_size * c->timing.transfer_per_kib / 1024.0;
	double cycle = (double)c->timing.program + xfer + (double)c->timing.erase / c->pages_per_block;
	double r = ndies * c->page_size / cycle * 1e9;
	double chan = (double)c->channels * 1024.0 / c->timing.transfer_per_kib * 1e9;

	r = fmin(r, chan);
	if (c->iface.max_bytes_per_s > 0)
		r = fmin(r, c->iface.max_bytes_per_s);
	return r;
}

static void check_model(const char *label, const struct sim_config *cfg)
{
	struct sim_ssd *s = NULL;
	struct pass fill, over, again;
	double want_wa = expected_wa(cfg), want_rate = expected_rate(cfg);
	double want_again = cfg->slc.size && cfg->slc.post_cache == SIM_POST_FOLD ? 2.0 : 1.0;

	assert_int_equal(sim_create(cfg, &s), 0);
	sim_purge(s);
	fill = seq_pass(s);
	over = seq_pass(s);
	again = seq_pass(s);
	printf("%-28s fill WA %.3f; overwrite WA %.3f (expected %.3f, GC %.3f), late %.1f MB/s (expected %.1f); again WA %.3f (expected %.3f)\n",
	       label, fill.wa, over.wa, want_wa, over.gc_share, over.late_rate / 1e6, want_rate / 1e6,
	       again.wa, want_again);
	fflush(stdout);
	tl_check(s);
	sim_free(s);
	assert_true(fabs(over.wa / want_wa - 1.0) <= 0.05);
	assert_true(fabs(again.wa / want_again - 1.0) <= 0.05);
	/* fold-while-writing adds SLC programs and reads to the TLC ones: not this figure */
	if (!cfg->slc.size || cfg->slc.post_cache == SIM_POST_DIRECT)
		assert_true(fabs(over.late_rate / want_rate - 1.0) <= 0.10);
}

static int is_yaml(const char *n)
{
	size_t l = strlen(n);

	return l > 5 && !strcmp(n + l - 5, ".yaml");
}

static void test_every_bundled_model(void **state)
{
	char dir[4096], path[4096 + 256], buf[1024];
	struct dirent **ents = NULL;
	int n, seen = 0;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/profiles/models", tu_srcdir());
	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		fail_msg("cannot read %s", dir);
	for (int i = 0; i < n; i++) {
		struct sim_model m;
		struct ydoc_error e;

		if (is_yaml(ents[i]->d_name)) {
			snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
			if (sim_model_load(path, NULL, &m, &e))
				fail_msg("%s: %s", path, ydoc_error_format(&e, buf, sizeof(buf)));
			check_model(m.name, &m.cfg);
			/* the other post-cache policy on the same drive */
			if (m.cfg.slc.size && m.cfg.slc.post_cache == SIM_POST_DIRECT) {
				m.cfg.slc.post_cache = SIM_POST_FOLD;
				snprintf(buf, sizeof(buf), "%s, post_cache fold", m.name);
				check_model(buf, &m.cfg);
			}
			seen++;
		}
		free(ents[i]);
	}
	free(ents);
	assert_true(seen >= 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_bundled_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
