/* SPDX-License-Identifier: MIT */
/*
 * trim_fresh: how much of the fresh behaviour a discard brings back (issue 14, trim-check;
 * docs/trim-check.md "Fresh behaviour"). The trim_check phase's second part, run when the phase
 * has `fresh`: the same job (4 KiB random writes at QD32 over one region, same seed, same time)
 * before and after discarding that region, on the same device state otherwise.
 *
 * Why before/after on one region and not a discarded region against an untouched one: what a
 * discard gives back is free space, and an FTL spends free space globally (GC picks victims in
 * the whole drive), so an untouched region written after the discard gets the same benefit and
 * the comparison would show nothing. Before/after the discard is the difference the discard
 * made. The job writes the region before the discard too, so that on a drive which never had it
 * written the "before" is not a write into unmapped space either.
 *
 * On a target with counters (the virtual SSD) the snapshots just before and just after the
 * discard are kept: valid_bytes falls by the region a drive unmapped, free_blocks shows what
 * the discard freed at once (the rest comes back as GC finds victims without valid data).
 */
#ifndef SSDLAB_RUN_TRIM_FRESH_H
#define SSDLAB_RUN_TRIM_FRESH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "targets/target.h"

struct json_object;

struct trim_fresh_side {
	double iops, mbps;
	uint64_t bytes, elapsed_ns, p50_ns, p99_ns;
};

struct trim_fresh {
	uint64_t offset, len, time_ns;
	struct trim_fresh_side before, after;
	bool has_counters; /* the target's snapshot had valid_bytes and free_blocks */
	double valid_before, valid_after, free_before, free_after;
};

/*
 * Runs the measurement on t over [offset, offset + len) (offset and len multiples of 1 MiB,
 * inside the capacity) with jobs of time_ns each (already scaled). 0 and *out; -EINTR when stop
 * was raised; -errno with a reason in err (a discard the target rejects: -EOPNOTSUPP).
 */
int trim_fresh_run(struct target *t, uint64_t offset, uint64_t len, uint64_t time_ns, uint64_t seed,
		   volatile sig_atomic_t *stop, struct trim_fresh *out, char *err, size_t errlen);

/* The record's trim_check "fresh" object (docs/results-format.md), NULL on ENOMEM. */
struct json_object *trim_fresh_to_json(const struct trim_fresh *f);

#endif
