/* SPDX-License-Identifier: MIT */
/*
 * runner_rules: the figures the runner decides by that need no walk (runner.h): a step's seed,
 * the duration scale, the chunk of a long write, a job's drain and the --time-scale that covers
 * it, the host-limited rule, a purge's settle. Pure functions of their arguments (and the
 * target's identity), apart from the walk so that tests and `ssdlab plan` use the very same.
 */
#include "run/runner.h"

#include <math.h>

#include "base/prng.h"

/* A cell is host-limited when the CPU time ssdlab used reaches this share of the time the
 * threads had (threads x elapsed): the device was waiting for us, not we for it. Not 1.0: a
 * saturated submitter still loses some time to preemption on a busy host, and kernel work done
 * by io_uring's own workers is not charged to us. */
#define HOST_LIMITED_SHARE 0.8
/* Headroom in the suggested --time-scale: a drain measured in round 1 grows as the drive
 * settles (4% from round 1 to 25 of snia-iops on sim:client-tlc). */
#define DRAIN_SCALE_HEADROOM 1.25

uint64_t runner_step_seed(uint64_t run_seed, const char *key)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64 */

	for (const unsigned char *c = (const unsigned char *)key; *c; c++) {
		h ^= *c;
		h *= 0x100000001b3ull;
	}
	/* splitmix64's finalizer spreads the FNV hash of the key over all 64 bits. */
	return prng_mix64(h ^ prng_mix64(run_seed));
}

double runner_time_scale(const struct target *t, const struct runner_opts *o)
{
	double user = o && o->time_scale > 0 ? o->time_scale : 1.0;
	double tgt = t ? target_info(t)->time_scale : 1.0;

	return user * (tgt > 0 ? tgt : 1.0);
}

uint64_t runner_drain_ns(unsigned outstanding, uint64_t elapsed_ns, uint64_t ios)
{
	if (!ios)
		return 0;
	return (uint64_t)((double)outstanding * (double)elapsed_ns / (double)ios + 0.5);
}

double runner_scale_for(double user_scale, double ratio)
{
	double v = (user_scale > 0 ? user_scale : 1.0) * ratio * DRAIN_SCALE_HEADROOM, e;

	if (!(v > 0))
		return 0;
	/* Up to two significant digits, so that the printed value is never below the need. */
	e = pow(10.0, floor(log10(v)) - 1);
	return ceil(v / e - 1e-9) * e;
}

bool runner_host_limited(const struct job_result *res, unsigned threads, bool virtual_time,
			 long ncpu)
{
	double wall = (double)res->elapsed_ns / 1e9; /* the span of the CPU time */
	double t = threads ? threads : 1;

	/* On a virtual-time target CPU time and device time are unrelated. */
	if (virtual_time || wall <= 0)
		return false;
	if (ncpu > 0 && t > (double)ncpu)
		t = (double)ncpu;
	return res->cpu_user_s + res->cpu_sys_s >= HOST_LIMITED_SHARE * t * wall;
}

/* A small virtual SSD standing for a big drive writes the same share of it per chunk; whole
 * MiB, so that a chunk ends on a whole I/O of any power-of-two block size up to 1 MiB. */
uint64_t runner_chunk_bytes(const struct target *t, const struct runner_opts *o)
{
	double ts = target_info(t)->time_scale;
	uint64_t c;

	if (o && o->chunk_bytes)
		return o->chunk_bytes;
	c = (uint64_t)((double)RUNNER_CHUNK_BYTES * (ts > 0 && ts < 1 ? ts : 1.0));
	c -= c % (1u << 20);
	return c ? c : 1u << 20;
}

uint64_t runner_purge_settle_ns(const struct target *t, const struct phase_purge *pp)
{
	return phase_purge_settle_ns(pp, target_caps(t) & TARGET_CAP_PURGE);
}

void runner_stop_init(struct runner_stop *s, double below_peak, uint64_t for_bytes)
{
	s->below = below_peak;
	s->peak = 0;
	s->for_bytes = for_bytes;
	s->low_bytes = 0;
}

bool runner_stop_update(struct runner_stop *s, uint64_t bytes, uint64_t elapsed_ns)
{
	double rate;

	if (!elapsed_ns)
		return false; /* no time: says nothing about the speed */
	rate = (double)bytes / (double)elapsed_ns;
	if (rate > s->peak)
		s->peak = rate;
	if (rate < s->below * s->peak)
		s->low_bytes += bytes;
	else
		s->low_bytes = 0;
	return s->low_bytes >= s->for_bytes;
}

uint64_t runner_stop_chunk(uint64_t for_bytes, uint64_t cbytes)
{
	uint64_t c = for_bytes / 4 / (1ull << 20) * (1ull << 20);

	if (c < (1ull << 20))
		c = 1ull << 20;
	return cbytes && cbytes < c ? cbytes : c;
}

struct phase_nand runner_target_nand(const struct target_info *ti, const struct profile *p)
{
	/* the write cache the run will have: the profile's, else the target's own (a target
	 * that cannot set it fails the run before any fill when the profile pins it, and one
	 * left as found that does not say is not two-state: ti says nothing then either) */
	bool cache_off = p->write_cache == PROFILE_OFF ||
			 (p->write_cache == PROFILE_AS_FOUND && !ti->write_cache_at_open);

	return (struct phase_nand){.gc_space_bytes = ti->gc_space_bytes,
				   .slc_known = ti->slc_known,
				   .gc_policy = ti->gc_policy[0] ? ti->gc_policy : NULL,
				   .slc_static = ti->slc_static,
				   .two_state = ti->slc_dynamic_no_plp && cache_off,
				   .blocks_per_die = ti->blocks_per_die,
				   .slc_cache_bytes = ti->slc_cache_bytes,
				   .raw_nand_bytes = ti->raw_nand_bytes,
				   .raw_nand_entry = ti->raw_nand_entry[0] ? ti->raw_nand_entry : NULL,
				   .model = ti->model,
				   .serial = ti->serial,
				   .wwn = ti->wwn};
}
