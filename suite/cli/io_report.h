/* SPDX-License-Identifier: MIT */
/*
 * io_report: what `ssdlab io` prints about the job it ran: the text summary (IOPS, bandwidth,
 * latency percentiles per direction, CPU, the setup, foreign I/O, write amplification) or one
 * JSON object ("schema": 1) with the same figures under the names of the results files
 * (records.jsonl, series CSV), the time series and the counters' deltas. Rendering only: the
 * figures come from the engine's job_result, the results helpers and analysis/wa.
 */
#ifndef SSDLAB_CLI_IO_REPORT_H
#define SSDLAB_CLI_IO_REPORT_H

struct job_spec;
struct job_result;
struct snapshot;
struct target_info;

/*
 * Both take the job as run (s, resolved), the target, the engine's result and three snapshots
 * (snap[0] at the start, snap[1] at the end of the ramp where the figures start, snap[2] at the
 * end); snapshots without the written counters give no deltas and no WA.
 *
 * io_print_json prints the JSON object on stdout: 0, or -ENOMEM (nothing printed).
 */
int io_print_json(const struct job_spec *s, const struct target_info *ti,
		  const struct job_result *r, const struct snapshot *snap);

/* Prints the text summary on stdout. */
void io_print_text(const struct job_spec *s, const struct target_info *ti,
		   const struct job_result *r, const struct snapshot *snap);

#endif
