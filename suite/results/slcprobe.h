/* SPDX-License-Identifier: MIT */
/*
 * results/slcprobe: the SLC cache size an earlier slc-cache run measured, read back from its
 * results directory, with the identity of the drive it was measured on. The sprandom fill's
 * `slc_cache: {from: DIR}` input (profile/phases.h, docs/sprandom.md) uses it, so that a drive
 * whose model states no cache size gets the probe's figure, with where it came from recorded.
 *
 * Which figure: summary.json's `slc_cache` list holds one entry per probe (the bundled profile
 * probes at fills 0, 50 and 85 %). The entry at the lowest fill is taken: the cache of an
 * emptied drive, the size a dynamic cache has at most and the one a static cache always has,
 * which is what the virtual SSD's model states for `slc_cache: auto`.
 */
#ifndef SSDLAB_RESULTS_SLCPROBE_H
#define SSDLAB_RESULTS_SLCPROBE_H

#include <stddef.h>
#include <stdint.h>

struct results_slc_probe {
	uint64_t cache_bytes; /* the knee: host bytes written before the speed dropped */
	double fill;	      /* the drive's fill when it was probed (0 = empty) */
	int phase;	      /* the probe's phase in that run */
	/* the drive the run measured, from its manifest's target ("" when absent) */
	char model[64];
	char serial[256];
	char wwn[1025];
	char path[256];
};

/*
 * Reads DIR/summary.json and DIR/manifest.json. Returns 0 and fills *out; errors, with a
 * message naming the file and key in err: -ENOENT (no summary.json or manifest.json: not a
 * results directory, or not analyzed), -EBADMSG (a file that does not parse), -EINVAL (the
 * summary has no `slc_cache` list, so the run was not an slc-cache probe; its lowest-fill entry
 * found no knee, `cache_detected` false; or it lacks `cache_bytes`), -ENOMEM. *out untouched on
 * failure.
 */
int results_slc_probe_read(const char *dir, struct results_slc_probe *out, char *err,
			   size_t errlen);

#endif
