/* SPDX-License-Identifier: MIT */
/*
 * ss_track: the steady-state tracks of a manifest, the "steady_state" array that tells the
 * analysis which series to judge and how (the steady_state pass reads it back). The runner
 * declares them before the manifest is written; the format is the analysis's, so it lives here.
 */
#ifndef SSDLAB_ANALYSIS_SS_TRACK_H
#define SSDLAB_ANALYSIS_SS_TRACK_H

#include "analysis/ss.h"

struct json_object;

/*
 * Declares a steady-state tracked series in the manifest (call before results_write_manifest):
 * appends {"phase":P,"repeat":R,"cell":CELL,"metric":METRIC,"params":{...}} to the manifest's
 * "steady_state" array (created if absent). analyze judges the records of that phase and cell
 * with those params. metric: see results_record_metric(). -EINVAL for invalid params, an
 * unknown metric or a "steady_state" key that is not an array; -ENOMEM.
 */
int ss_track_add(struct json_object *manifest, int phase, unsigned repeat, const char *cell,
		 const char *metric, const struct ss_params *params);

#endif
