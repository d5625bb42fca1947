/* SPDX-License-Identifier: MIT */
/*
 * surface_step: the runner's surface phase (profile/phases.h, struct phase_surface): runs the
 * scan (engine/surface.h) on the target, writes its per-chunk series and fills the step's
 * record. Kept out of runner.c, which calls it from its execute hook: the record's layout and
 * the series belong to this phase alone (docs/results-format.md, "surface").
 */
#ifndef SSDLAB_RUN_SURFACE_STEP_H
#define SSDLAB_RUN_SURFACE_STEP_H

#include <signal.h>
#include <stddef.h>

#include "profile/phases.h"
#include "results/results.h"
#include "targets/target.h"

struct json_object;

/*
 * Scans t as p says. With rec (a recorded step): writes series/<series>.csv through res and adds
 * the record's `surface` object (rw, chunk_bytes, bs, qd, capacity, lbs, slow_below, series,
 * chunks, errors_total, error_lbas, chunk_mbps, chunk_max_lat_ns, and chunk_unmapped_bytes
 * where the target knows its map). Without rec (a replay on the virtual SSD, which only has to
 * bring the target to the same state) only scans. stop: engine/surface.h's (-EINTR between
 * chunks). Returns 0, or -errno with a reason in err (an I/O error of the device is a finding
 * in the record, not a failure). on_chunk and arg: engine/surface.h's progress hook (NULL: none).
 */
int surface_step_run(struct target *t, const struct phase_surface *p, struct results *res,
		     const char *series, struct json_object *rec, volatile sig_atomic_t *stop,
		     void (*on_chunk)(size_t done, size_t n, void *arg), void *arg, char *err,
		     size_t errlen);

#endif
