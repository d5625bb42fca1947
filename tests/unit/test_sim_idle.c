/* SPDX-License-Identifier: MIT */
/*
 * test_sim_idle: the virtual SSD after an idle interval, as a client drive with a dynamic SLC
 * cache, folding on idle and rate-limited idle GC (the shape of the bundled client-tlc model,
 * shrunk) shows it. Rest can only free blocks and fold SLC data, so the first burst of 4 KiB
 * random writes after an idle interval must not get slower as the interval gets longer, and
 * the background work must give way to the host: what is left of it on the NAND when the host
 * comes back is at most what a die cannot interrupt (a page program and an erase), never a
 * whole victim block; and a rested cache takes the burst up to its limit. All three were
 * broken: idle GC relocated a victim block in one go, so the host found up to tens of
 * milliseconds of relocation in its way, depending on where the idle interval happened to end
 * (docs/virtual-ssd.md, "Idle work gives way to the host"), and host writes left the cache for
 * TLC as soon as the next page's die had no open SLC block.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "sim/sim.h"
#include "sim_testlib.h"
#include "testutil.h"

#define MS 1000000ULL
#define BS 4096ULL
#define QD 32

/* 512 MiB TLC client drive: the default 4 dies on 2 channels, read and erase times and idle GC
 * rate (100 MB/s, here after 10 ms), with client-tlc's 64 KiB program unit, program times and
 * link, 3 MiB blocks and a dynamic SLC cache folded on idle. */
static void client_config(struct sim_config *c)
{
	sim_config_default(c);
	c->user_capacity = 512ULL << 20;
	c->spare_factor = 0.127;
	c->page_size = 65536;
	c->pages_per_block = 48;
	c->timing.program = 2920000;
	c->timing.program_slc = 360000;
	c->slc.size = 64ULL << 20;
	c->slc.dynamic = true;
	c->slc.fold_on_idle = true;
	c->idle_gc.enabled = true;
	c->idle_gc.delay = 10 * MS;
	c->iface.max_bytes_per_s = 550e6;
	c->iface.command_overhead = 5000;
	c->seed = 7;
}

/*
 * A closed loop of QD writes of BS bytes (random over the drive, or sequential) from the
 * sim's clock. Stops after n writes, or at the first completion past `until` (0: no time
 * limit). Returns the writes completed by then; the clock is left at the end.
 */
static uint64_t writes(struct sim_ssd *s, bool random, uint64_t n, uint64_t until, uint64_t *x)
{
	uint64_t done[QD], t0 = sim_now(s), units = sim_capacity(s) / BS, seq = 0, completed = 0,
			   last = t0;
	unsigned inflight = 0;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t t = t0, off, d;
		unsigned slot = inflight;

		if (inflight == QD) {
			slot = tl_earliest(done, QD);
			t = done[slot];
			if (until && t > until)
				break;
			completed++;
		} else {
			inflight++;
		}
		off = random ? tl_below(x, units) * BS : (seq++ % units) * BS;
		assert_int_equal(sim_write(s, off, BS, t, &d), 0);
		done[slot] = d;
		last = d > last ? d : last;
	}
	for (unsigned i = 0; i < inflight; i++)
		completed += !until || done[i] <= until;
	sim_advance(s, until ? until : last);
	return completed;
}

struct after_idle {
	uint64_t steady_queue_ns; /* NAND work queued by the host when the rest begins */
	double iops;	    /* in the first window after the idle interval */
	uint64_t queue_ns;  /* NAND work still queued when the host comes back */
	int64_t free_rise;  /* free blocks gained during the idle interval (a victim being copied
			     * holds one: it can be -1) */
	uint64_t free_after; /* free blocks at its end */
	uint64_t slc_left;  /* bytes still in the SLC cache at its end */
	uint64_t slc_after, slc_limit; /* SLC cache in use and its limit after the burst */
};

/* Steady state (sequential fill, random fill, 1.5 drive writes of random writes), `idle` ns of
 * rest, then `window` ns of random writes. Same seed every time: only the rest differs. */
static struct after_idle idle_then_burst(uint64_t idle, uint64_t window)
{
	struct sim_config c;
	struct sim_ssd *s = NULL;
	struct sim_counters a, b;
	struct after_idle r;
	uint64_t x = 11, units, n, end;

	client_config(&c);
	assert_int_equal(sim_create(&c, &s), 0);
	units = c.user_capacity / BS;
	writes(s, false, units, 0, &x);
	writes(s, true, units + units / 2, 0, &x);
	sim_get_counters(s, &a);
	r.steady_queue_ns = sim_quiesce_time(s) - sim_now(s);
	end = sim_now(s) + idle;
	sim_advance(s, end);
	sim_get_counters(s, &b);
	r.queue_ns = sim_quiesce_time(s) - end;
	r.free_rise = (int64_t)b.free_blocks - (int64_t)a.free_blocks;
	r.free_after = b.free_blocks;
	r.slc_left = b.slc_cache_used_bytes;
	n = writes(s, true, UINT64_MAX, end + window, &x);
	r.iops = (double)n * 1e9 / (double)window;
	sim_get_counters(s, &b);
	r.slc_after = b.slc_cache_used_bytes;
	r.slc_limit = b.slc_cache_limit_bytes;
	tl_check(s);
	sim_free(s);
	return r;
}

static void test_first_burst_monotone(void **state)
{
	/* rest from shorter than the idle delay to long enough to fold and collect everything */
	static const uint64_t idles[] = {5 * MS, 50 * MS, 250 * MS, 600 * MS, 1500 * MS, 3000 * MS};
	const size_t n = sizeof(idles) / sizeof(idles[0]);
	struct sim_config c;
	struct after_idle r[sizeof(idles) / sizeof(idles[0])];
	uint64_t bound, wm, slc_block;
	size_t checked = 0, slc_checked = 0;

	(void)state;
	client_config(&c);
	/* What a die cannot give up when the host arrives: the copy program it has started (its
	 * transfer included) and the erase of the victim it has just emptied, after the reads of
	 * the victim pages being copied. */
	bound = c.timing.program + c.timing.erase + c.page_size * c.timing.transfer_per_kib / 1024 +
		4 * c.timing.read;
	wm = sim_config_watermark(&c);
	slc_block = (uint64_t)c.pages_per_block / 3 * c.page_size;
	for (size_t i = 0; i < n; i++) {
		/* a window of several block fills: a block more or less of free space (a victim
		 * being copied holds one until its erase) must not decide the comparison */
		r[i] = idle_then_burst(idles[i], 50 * MS);
		printf("idle %5.0f ms: free %+3lld, SLC left %5.1f MiB, NAND queue %6.2f ms, first 50 ms %7.0f IOPS, SLC then %.1f of %.1f MiB\n",
		       idles[i] / 1e6, (long long)r[i].free_rise, r[i].slc_left / 1048576.0,
		       r[i].queue_ns / 1e6, r[i].iops, r[i].slc_after / 1048576.0, r[i].slc_limit / 1048576.0);
	}
	for (size_t i = 0; i < n; i++) {
		/* once the host's own queue has drained and the delay has passed, what is left is
		 * idle work, and little of it */
		if (idles[i] >= r[i].steady_queue_ns + c.idle_gc.delay) {
			assert_true(r[i].queue_ns <= bound);
			checked++;
		}
		if (i)
			assert_true(r[i].iops >= 0.95 * r[i - 1].iops);
		/* rested long enough to fold the cache and to free the blocks it takes above the
		 * GC reserve, the burst fills it to its limit before writing TLC (not only the
		 * blocks open on the dies the cursor happens to visit); only units rewritten during
		 * the burst are missing */
		if (r[i].slc_left == 0 && r[i].free_after > wm + r[i].slc_limit / slc_block) {
			assert_true(r[i].slc_after >= 0.9 * (double)r[i].slc_limit);
			slc_checked++;
		}
	}
	/* the table spans the effect: rest after the delay recovers a lot, and the longest rest
	 * leaves more free blocks than the shortest useful one (not a flat, vacuous table) */
	assert_true(checked >= n - 1 && slc_checked >= 2);
	assert_true(r[n - 1].iops > 3 * r[0].iops);
	assert_true(r[n - 1].free_rise > r[1].free_rise);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_burst_monotone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
