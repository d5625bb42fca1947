/* SPDX-License-Identifier: MIT */
/*
 * run/record: the JSON record of a measurement, a job's I/O figures added to the common keys
 * that results_record_to_json() writes. It lives in the run layer because it reads a
 * struct job_result (engine.h), which the results layer below must not know; the format of
 * the keys is still docs/results-format.md's.
 */
#ifndef SSDLAB_RUN_RECORD_H
#define SSDLAB_RUN_RECORD_H

#include "engine/engine.h"
#include "results/results.h"

struct json_object;

/*
 * Builds the JSON object of a record: results_record_to_json(rec)'s keys (schema ... flags) and,
 * with a job, after them: elapsed_ns, ramp_ns, bytes_written_total, bytes_read_total (ramp
 * included), seq_next, cpu_user_s, cpu_sys_s, effective_qd, clock_source, clock_read_ns,
 * foreign_sectors_read/written, "total" {ios, bytes, iops, bw_bps}, per direction
 * "read"/"write" {ios, bytes, iops, bw_bps, lat_ns {mean, min, p50, p90, p95, p99, p99_9,
 * p99_99, p99_999, max} (null without I/O), hist (hist_to_json)}, and "error" {errno (its name,
 * e.g. "EIO"), offset, len, message} when the job failed. A job that measured no I/O without an
 * error gets the flag no_io (set here, whatever rec->flags says), "no_io_reason"
 * (job_no_io_reason()) and null rates and latencies: never 0 IOPS. job NULL: a record without
 * I/O, the same as results_record_to_json(rec). Returns a new object (the caller may add keys
 * before appending) or NULL on ENOMEM.
 */
struct json_object *run_record_to_json(const struct results_record *rec,
				       const struct job_result *job);

/*
 * The record of a cell the target cannot run (profile_workload_not_applicable(), issue 15 point
 * 1): results_record_to_json(rec)'s keys with the flag not_applicable (set here), then
 * "not_applicable": why, elapsed_ns 0 and zero figures ("total", "read", "write" with null rates
 * and latencies and empty bins), so that a reader takes it as a measurement of zero I/O. Not
 * flagged no_io: nothing went wrong. A new object or NULL on ENOMEM.
 */
struct json_object *run_record_not_applicable(const struct results_record *rec, const char *why);

#endif
