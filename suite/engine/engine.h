/* SPDX-License-Identifier: MIT */
/*
 * engine: runs one job (a workload for a time or an amount) on a target and measures it.
 *
 * A job is what fio calls a job and SNIA calls a cell: rw mode, mix, block-size split, queue
 * depth x threads, LBA range, access distribution, data pattern, length. The engine keeps `qd`
 * I/Os in flight per thread (one target queue per thread; a virtual-time target gets a single
 * queue of depth threads x qd), stamps each I/O just before submission and takes its latency
 * when the completion is seen, all in the target's clock. Nothing is allocated per I/O.
 *
 * It fills a job_result: per-direction counts and latency histograms (ramp excluded), a time
 * series per interval, CPU time, and the first I/O error (offset, length, errno) after which the
 * job stops cleanly.
 */
#ifndef SSDLAB_ENGINE_H
#define SSDLAB_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/hist.h"
#include "engine/jobspec.h"
#include "results/series.h" /* struct series_row: job_result.series */
#include "targets/target.h"


struct dir_stats {
	uint64_t ios;
	uint64_t bytes;
	struct hist lat;
};

/*
 * What a job's measured I/Os were, counted at completion, so that a mix can be checked from the
 * I/O itself (JESD219, issue 16): for a random job with a block-size split, zones or dropped
 * sizes only (`on`), completions per block size of the split (bs[] in the spec's order) and per
 * hundredth of the LBA range [range_start, range_end) by the I/O's first byte; and the sizes the
 * profile left out of the split (jobspec.h bs_dropped).
 */
#define IO_MIX_BUCKETS 100
struct io_mix {
	bool on;
	uint64_t range_start, range_end;
	unsigned nbs;
	uint32_t bs[JOB_MAX_BS];
	uint64_t bs_ios[JOB_MAX_BS];
	uint64_t lba_ios[IO_MIX_BUCKETS];
	unsigned ndropped;
	struct bs_split dropped[JOB_MAX_BS];
};

struct job_result {
	struct dir_stats d[2]; /* IO_READ, IO_WRITE; ramp excluded */
	uint64_t elapsed_ns;   /* measured part, target clock */
	uint64_t ramp_elapsed_ns;
	uint64_t time_ns; /* the spec's time_ns (the window asked for); 0 = amount-bound */
	uint64_t bytes_written_total; /* ramp included (what the drive saw) */
	uint64_t bytes_read_total;
	/* CPU time of the process over the measured part (from the moment it starts to the end of
	 * the job), the span of d[]: queue setup and the ramp are not in it. */
	double cpu_user_s, cpu_sys_s;
	struct series_row *series; /* owned */
	size_t nseries;
	uint64_t seq_next; /* sequential: next offset, for continuing a fill */

	/* Recorded context. */
	char clock_source[32]; /* "CLOCK_MONOTONIC (tsc)" or "virtual" */
	double clock_read_ns;  /* measured cost of one clock read */
	unsigned effective_qd; /* mean in-flight I/Os */
	uint64_t foreign_sectors_read, foreign_sectors_written; /* others' I/O: target_io_counters */

	/* The first error, after which the job stopped. */
	int error; /* 0 or -errno */
	uint64_t err_offset;
	uint32_t err_len;
	char errmsg[256];
	bool interrupted; /* the stop flag was raised */
	struct io_mix mix;
};

/* Progress, called about once per target second (or per series interval on a sim). */
struct engine_progress {
	uint64_t t_ns, total_ns; /* total_ns 0 when the job is amount-bound */
	uint64_t bytes, total_bytes;
	uint64_t written; /* bytes written so far, ramp included (reads not counted) */
	double iops;
};
typedef void (*engine_progress_fn)(const struct engine_progress *p, void *arg);
/*
 * Called once per job, when the measured part starts: after every queue is open and, with a
 * ramp, when the first worker leaves it, before the first measured I/O is submitted (t_ns: the
 * target's clock). It runs on a worker thread while other workers may still have ramp I/O in
 * flight; a snapshot taken here brackets the measured part (cmd_io, the runner's ramp-end).
 * Not called when setup fails.
 */
typedef void (*engine_measure_fn)(uint64_t t_ns, void *arg);

struct engine_hooks {
	engine_progress_fn progress;
	engine_measure_fn measure_start; /* may be NULL */
	void *arg;			 /* for both callbacks */
	volatile sig_atomic_t *stop; /* checked between batches; may be NULL */
};

/* Checks a spec against the target (block size vs logical block size, range, qd...). On -EINVAL
 * writes the reason into err. */
int job_validate(const struct job_spec *s, const struct target_info *ti, char *err, size_t len);

/*
 * Runs the job. Returns 0 when it ran (res->error may still report an I/O error; the caller
 * decides), -errno on setup failure with res->errmsg set. res must be released with
 * job_result_release().
 */
int engine_run(struct target *t, const struct job_spec *s, const struct engine_hooks *h,
	       struct job_result *res);
void job_result_release(struct job_result *res);

/*
 * A job that ran without error or interruption but measured no I/O (every I/O outlasted its
 * window): writes why into buf and returns buf; NULL when the job has figures (or stopped for
 * another reason, reported elsewhere). Such a job has no figures and must not be reported as
 * 0 IOPS.
 */
const char *job_no_io_reason(const struct job_result *r, char *buf, size_t len);

/* IOPS and bandwidth of the measured part. */
double job_iops(const struct job_result *r);
double job_bw(const struct job_result *r); /* bytes per second */

#endif
