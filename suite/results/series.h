/* SPDX-License-Identifier: MIT */
/*
 * results/series: one row of a time series, what series/NAME.csv holds per line (results.h
 * writes the files, docs/results-format.md documents the columns). The row is defined here,
 * in the results layer that owns the CSV format, so that results.h includes nothing from a
 * layer above: a job's result holds these rows (struct job_result includes this header) and
 * the runner hands them to results_write_series()/results_append_series().
 */
#ifndef SSDLAB_RESULTS_SERIES_H
#define SSDLAB_RESULTS_SERIES_H

#include <stdbool.h>
#include <stdint.h>

/* One time-series row: per direction (IO_READ, IO_WRITE), figures of the completions in
 * (t_ns - interval, t_ns] (the last row ends at the end of the job). */
struct series_row {
	uint64_t t_ns; /* since the job's start (after ramp) */
	struct {
		uint64_t ios, bytes;
		double lat_mean_ns;
		uint64_t lat_p99_ns, lat_max_ns;
	} d[2];
	uint64_t total_bytes_written; /* since the job's start, ramp included */
	/* the drive's temperature when the interval was closed (target_temperature with
	 * TARGET_TEMP_CHEAP); has_temp false where the target has none or it costs I/O */
	bool has_temp;
	double temperature_c;
};

#endif
