/* SPDX-License-Identifier: MIT */
/*
 * results: the results directory of a run, a documented format (docs/results-format.md) that
 * users' scripts and `ssdlab analyze` read back, so it is built for crash safety first:
 *
 *   results/<profile>-<target safe name>-<UTC time>/
 *     manifest.json     written first, atomically (temp file + fsync + rename + fsync of the dir)
 *     records.jsonl     one JSON object per finished measurement, one line each, appended with a
 *                       single write(2) and fsync'ed before the next measurement starts, so that a
 *                       crash (kill -9, power loss) leaves at most a torn LAST line
 *     series/NAME.csv   time series, '.' as the decimal point whatever the locale
 *     snapshots/N-L.json counter snapshots (snapshot.h), one file each, in the order taken
 *     summary.json      analyze.h's output
 * Every JSON file and every record carries "schema": RESULTS_SCHEMA. Every whole-file write
 * (manifest, series, snapshots, summary) is atomic: a reader sees the old file or the new one.
 *
 * Numbers: JSON numbers are written locale-independently in the shortest form that reads back
 * to the same double (jsonnum.h; so the runner's steady-state decision and a later analyze see
 * the very same values); NaN and infinities are written as null.
 *
 * All functions return 0 or -errno; output parameters are untouched on failure. Nothing here
 * reads the wall clock: results_default_dir() is given the time by its caller.
 */
#ifndef SSDLAB_RESULTS_H
#define SSDLAB_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/records.h"
#include "results/series.h"
#include "results/snapshot.h"

struct json_object;

/* An open results directory (opaque). */
struct results;

/* ---- names ---------------------------------------------------------------------------------- */

/*
 * Turns any text into a name safe for a directory: [A-Za-z0-9._+-] are kept, every other run of
 * bytes becomes one '-', leading '-'/'.' and trailing '-' are dropped ("/dev/sdb" -> "dev-sdb",
 * "sim:client-tlc" -> "sim-client-tlc"). -EINVAL when nothing is left, -ENAMETOOLONG when it does
 * not fit in len (including the NUL).
 */
int results_safe_name(const char *in, char *out, size_t len);

/*
 * The default directory: "<base>/<safe profile>-<safe target>-<YYYYmmddTHHMMSSZ>" for the UTC
 * time unix_s (the caller reads the clock: this is the CLI edge's business). base NULL means
 * "results". -EINVAL / -ENAMETOOLONG as above.
 */
int results_default_dir(const char *base, const char *profile, const char *target, int64_t unix_s,
			char *out, size_t len);

/* ---- lifecycle ------------------------------------------------------------------------------ */

/*
 * Creates the directory (and missing parents, mode 0755) with series/ and snapshots/, for a new
 * run. -EEXIST when dir exists and is not empty (never mix two runs). On success *out is an open
 * handle (close with results_close).
 */
int results_create(const char *dir, struct results **out);

/*
 * Opens an existing results directory to append to it (resume). Reads records.jsonl (missing =
 * no records yet); when its last line is torn, truncates the file to the valid prefix and
 * fsyncs it, so that appends continue a clean file, and reports that in *rr. When rr is not
 * NULL it receives the records (release with results_records_release). -ENOENT when dir has no
 * manifest.json; -EBADMSG when a line other than the last is not a valid record (rr->bad_line
 * says which; the file is left as it is); -EBUSY when another handle (another process, e.g.
 * the run being resumed, still alive) has the directory open: one writer per directory, by an
 * flock on records.jsonl that results_create takes as well and results_close (or death) drops.
 */
int results_open(const char *dir, struct results **out, struct results_records *rr);

/* Closes the handle; accepts NULL. Everything written is already durable. */
void results_close(struct results *r);

/* The directory's path as given to create/open. */
const char *results_path(const struct results *r);

/* ---- whole files ---------------------------------------------------------------------------- */

/*
 * The host and device facts a manifest records (docs/results-format.md), gathered by the caller
 * (run/host_facts.h probes them), so that this layer reads no /proc or /sys itself.
 */
struct results_facts {
	struct json_object *host; /* the "host" object (hostinfo_to_json()), or NULL */
	struct json_object *link; /* a block device target's "link" object, or NULL */
};

/*
 * manifest.json: written first, before any measurement (see results_write_json_file). Adds
 * facts->host as "host" and facts->link as "link" where the manifest has no such key yet (a
 * reference is taken: the caller still owns its own). facts may be NULL.
 */
int results_write_manifest(struct results *r, struct json_object *manifest,
			   const struct results_facts *facts);

/* ---- records -------------------------------------------------------------------------------- */

/*
 * The keys every record has. Strings are borrowed for the call.
 * Record kinds (docs/results-format.md): "cell" (one cell of a round), "precondition",
 * "write_until", "idle", "trim", "purge", "resume" (a resume point: the gap, no I/O).
 * A record's I/O figures come from a job, which this layer does not know: the run layer adds
 * them (run/record.h, run_record_to_json).
 */
struct results_record {
	const char *kind;
	int phase;		   /* index in the resolved plan, 0-based */
	const char *phase_kind;	   /* the phase's kind ("rounds", "precondition", ...) */
	unsigned repeat;	   /* iteration of the enclosing repeat, 0-based; 0 when none */
	unsigned round;		   /* 1-based round of a rounds phase; 0 otherwise */
	const char *cell;	   /* cell key, e.g. "rwmix_read=0,bs=4k"; NULL = "" (not a cell) */
	uint64_t start_ns, end_ns; /* target clock at the start and the end */
	unsigned flags;		   /* enum results_flag */
};

/*
 * Builds the JSON object of a record's common keys, in this order: schema, kind, phase,
 * phase_kind, repeat, round, cell, start_ns, end_ns, flags (array of the names of rec->flags'
 * bits, in bit order). A record of a job gets its I/O figures appended after these by
 * run_record_to_json() (run/record.h). Returns a new object (the caller may add keys before
 * appending) or NULL on ENOMEM.
 */
struct json_object *results_record_to_json(const struct results_record *rec);

/*
 * Appends one record as one line: serialized compactly, a single write(2) of line + '\n' (so a
 * crash leaves at most a torn last line), then fsync. Adds "schema" when absent. -EIO/-ENOSPC
 * etc. from the kernel; a short write is retried for the rest, and a failed retry leaves a torn
 * last line that results_open() drops.
 */
int results_append_record(struct results *r, struct json_object *rec);

/* ---- series and snapshots ------------------------------------------------------------------- */

/*
 * Writes series/<name>.csv atomically (name is made safe with results_safe_name): a header line
 * and one line per row: t_ns,interval_ns, per direction ios,bytes,iops,bw_bps,lat_mean_ns,
 * lat_p99_ns,lat_max_ns, then total_bytes_written and round (0 here); rates computed over the
 * row's own interval (t_ns minus the previous row's t_ns). Rewriting the same name replaces the
 * file.
 */
int results_write_series(struct results *r, const char *name, const struct series_row *rows,
			 size_t n);
/*
 * The same for one step of a measurement recorded in steps (a precondition or write_until in
 * chunks, round = the chunk, 0 for a phase of one step): the rows go to the end of the phase's
 * one file with `round` in their last column, t_off_ns added to every t_ns and bytes_off to every
 * total_bytes_written (the chunks before it), while interval_ns and the rates stay those of the
 * chunk's own rows, so that the file reads as one continuous series. Resume-safe: rows of this
 * round or later already in the file (a chunk that ran before a crash but was not recorded) and
 * a torn last line are replaced, never duplicated; the usual append reads only the file's tail.
 */
int results_append_series(struct results *r, const char *name, unsigned round,
			  const struct series_row *rows, size_t n, uint64_t t_off_ns,
			  uint64_t bytes_off);

/*
 * Writes series/<name>.csv atomically with text as it is: a series whose columns are not a
 * time series' (a surface scan's per-chunk rows, engine/surface.h). 0 or -errno.
 */
int results_write_series_text(struct results *r, const char *name, const char *text, size_t len);

/*
 * Writes snapshots/NNNN-<label>.json atomically, NNNN being the next sequence number in the
 * directory (so files sort in the order taken, across resumes): snapshot_to_json(s) plus
 * "phase", "repeat" and "seq". Pass phase -1 for a snapshot outside any phase (run start/end).
 */
int results_write_snapshot(struct results *r, const struct snapshot *s, int phase, unsigned repeat);


#endif
