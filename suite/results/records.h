/* SPDX-License-Identifier: MIT */
/*
 * results/records: the format half of the results directory, what a READER needs: the schema
 * number, the record flags, reading records.jsonl, manifest.json and the snapshot files back,
 * a record's key and its metrics, and the JSON shapes of I/O figures. The analysis (analysis/)
 * includes only this header of the results layer, so that it sees no engine, target or host:
 * the writer side of a run (results.h: create/open, append, series, a record's common keys)
 * stays in results.h, which includes this one. Implemented in records.c (figures, keys),
 * records_read.c (records.jsonl), files.c (whole JSON files, manifest, summary), snapshot.c
 * (the snapshot files), records_metric.c (the table of metrics) and results.c
 * (results_record_metric, over that table's names).
 *
 * All functions return 0 or -errno; output parameters are untouched on failure.
 */
#ifndef SSDLAB_RESULTS_RECORDS_H
#define SSDLAB_RESULTS_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;
struct hist;

#define RESULTS_SCHEMA 1

/* Records read back from records.jsonl. */
struct results_records {
	struct json_object **rec; /* n owned objects, in file order */
	size_t n;
	bool torn_last;	      /* the last line was torn (incomplete) and was dropped */
	uint64_t torn_bytes;  /* its length in bytes */
	uint64_t valid_bytes; /* length of the valid prefix of the file */
	unsigned bad_line;    /* on -EBADMSG: the 1-based number of the bad line */
};

/*
 * Writes o to path atomically: path.tmp, fsync, rename over path, fsync of the directory.
 * Pretty-printed, '/' not escaped, a final newline. Adds "schema": RESULTS_SCHEMA to o when it
 * has no "schema" key (o is modified).
 */
int results_write_json_file(const char *path, struct json_object *o);

/* Reads a JSON file (any top-level type); -EBADMSG when it does not parse. *out is owned. */
int results_read_json_file(const char *path, struct json_object **out);

int results_read_manifest(const char *dir, struct json_object **manifest);

/* summary.json (analyze.h writes it; anybody may read it). */
int results_write_summary(const char *dir, struct json_object *summary);

enum results_flag {
	RESULTS_F_HOST_LIMITED = 1u << 0, /* the host (CPU), not the device, was the limit */
	RESULTS_F_IO_ERROR = 1u << 1,	  /* the job stopped at an I/O error (see "error") */
	RESULTS_F_RESUMED = 1u << 2,	  /* first measurement after a resume */
	RESULTS_F_SHORT = 1u << 3,	  /* ended early (stop flag); normally not recorded */
	RESULTS_F_NO_IO = 1u << 4,	  /* no I/O measured (see "no_io_reason"); no figures */
	/* a cell the target cannot run (see "not_applicable"): recorded with zero I/O, skipped */
	RESULTS_F_NOT_APPLICABLE = 1u << 5,
};

/*
 * The "lat_ns" object of a histogram, the same in records and in summary.json: {mean, min, p50,
 * p90, p95, p99, p99_9, p99_99, p99_999, max} in ns (nearest-rank percentiles from the bins).
 * NULL (JSON null) for an empty histogram, and on ENOMEM.
 */
struct json_object *results_lat_json(const struct hist *h);

/*
 * {ios, bytes, iops, bw_bps[, lat_ns]}: counts and rates over elapsed_ns (rates null when it is
 * 0), plus results_lat_json(h) when h is not NULL. New object or NULL on ENOMEM.
 */
struct json_object *results_figures_json(uint64_t ios, uint64_t bytes, uint64_t elapsed_ns,
					 const struct hist *h);

/*
 * Reads records.jsonl of dir into *rr without changing the file: a missing file is 0 records;
 * an incomplete or unparsable LAST line (no '\n', or not a JSON object) is torn: dropped and
 * reported in rr->torn_last / torn_bytes; an unparsable line before the last is -EBADMSG with
 * rr->bad_line set (and nothing else of *rr filled). Empty lines are errors too (never written).
 */
int results_read_records(const char *dir, struct results_records *rr);
void results_records_release(struct results_records *rr); /* accepts NULL and empty */

/*
 * A record's key "phase=P,repeat=R,round=N,cell=C,kind=K" into buf (resume compares the key sets
 * of two runs; a duplicate key is a bug). -EINVAL when the record lacks a key field,
 * -ENAMETOOLONG when buf is too small.
 */
int results_record_key(struct json_object *rec, char *buf, size_t len);

/*
 * A metric of a record, computed from its raw figures (ios, bytes, elapsed_ns, hist), never from
 * derived ones, so that every reader computes the same value:
 *   [read_|write_]iops       I/Os per second of the measured part (no prefix: both directions)
 *   [read_|write_]bw         bytes per second
 *   [read_|write_]lat_mean   mean latency, ns (no prefix: over both directions' histograms)
 *   [read_|write_]lat_pNN    percentile from the histogram(s), e.g. lat_p99, lat_p99_9 (or
 *                            lat_p99.9), ns
 *   [read_|write_]lat_max    ns
 * -EINVAL for an unknown metric, -ENODATA when the record has no such figures (no I/O, no
 * elapsed time, an empty histogram).
 */
int results_record_metric(struct json_object *rec, const char *metric, double *v);

/*
 * The metrics a profile can track to steady state and the per-round columns of summary.json:
 * ONE table, from which the profile's names, the runner's query, the summary's keys and the
 * headline's figures are all derived. Each metric has
 *   name     the profile's `track: {metric: ...}`, summary.json steady_state[].metric, and
 *            the word results_record_metric() computes it from a record by ("lat_p99")
 *   figure   its path in a figures object (results_figures_json: a record's "read"/"write",
 *            a summary cell's "read"/"write"/"total"), '/' between members ("lat_ns/p99")
 *   summary  its key in summary.json cells[].per_round[] and headline.results[]
 *            ("lat_p99_ns")
 * A new metric is one row here (records_metric.c) and one value below, at the end: the enum
 * values are the profile's enum indices and their order is the order of the summary's columns.
 */
enum results_metric {
	RESULTS_METRIC_IOPS = 0,
	RESULTS_METRIC_BW,
	RESULTS_METRIC_LAT_MEAN,
	RESULTS_METRIC_LAT_P99,
	RESULTS_NMETRICS
};

struct results_metric_def {
	const char *name, *figure, *summary;
};

/* The row of m (static, never freed); NULL when m is out of range. */
const struct results_metric_def *results_metric_def(enum results_metric m);

/* m's name ("iops"); "?" when m is out of range. */
const char *results_metric_name(enum results_metric m);

/* The metric called name into *m: 0, or -EINVAL (m untouched) for a name not in the table. */
int results_metric_find(const char *name, enum results_metric *m);

/* The names in enum order, NULL-terminated (static): a YAML enum key's list of values. */
const char *const *results_metric_names(void);

/*
 * The figure of m in a figures object (its `figure` path): NaN when a member on the path is
 * absent or null, or fig is NULL (a figures object without latency has no lat_ns).
 */
double results_metric_figure(struct json_object *fig, enum results_metric m);

/* Snapshots read back in file-name order: n owned JSON objects as written above. */
struct results_snapshots {
	struct json_object **snap;
	size_t n;
};
int results_read_snapshots(const char *dir, struct results_snapshots *out);
void results_snapshots_release(struct results_snapshots *s); /* accepts NULL and empty */

#endif
