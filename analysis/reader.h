/* SPDX-License-Identifier: MIT */
/*
 * reader: the analysis's side of the results reader. It turns what results/records.h reads
 * (records.jsonl as JSON objects, the snapshot files) into the typed keys and arrays that the
 * pure modules take (wa.h, recovery.h, ss.h), so that they never see JSON or files. It is the only
 * code that walks records.jsonl and the snapshots: the passes (pass_*.c) build summary.json from
 * the typed values below, and the layers test fails on a pass that walks records itself.
 */
#ifndef SSDLAB_ANALYSIS_READER_H
#define SSDLAB_ANALYSIS_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/cells.h"
#include "analysis/hir.h"
#include "analysis/recovery.h"
#include "analysis/snia_xsr.h"
#include "analysis/thermal.h"
#include "analysis/wa.h"
#include "analysis/wsat.h"
#include "results/records.h"
#include "results/snapshot.h"

struct json_object;

/* The key fields every record has (results_record_to_json). Strings are borrowed from rec. */
struct reader_key {
	int64_t phase, repeat, round;
	const char *kind, *cell;
	const char *phase_kind; /* "" when absent (records of older builds) */
};

/* Fills *k from rec; -EBADMSG when a key field is missing or of the wrong type. */
int reader_key(struct json_object *rec, struct reader_key *k);

/* Whether rec's "flags" array holds flag. */
bool reader_has_flag(struct json_object *rec, const char *flag);

/*
 * The index of the first record of (phase, repeat) with round `round` (the last one when last),
 * resume markers left out; -1 when there is none.
 */
long reader_round_record(const struct results_records *rr, int64_t phase, int64_t repeat,
			 int64_t round, bool last);

/*
 * The I/O figures of a measurement record (one with "elapsed_ns") into *f: elapsed_ns, per
 * direction ios, bytes and the histogram (parsed into h[0] and h[1], the caller's, which f
 * then points to), cpu_user_s and cpu_sys_s (0 when absent), the host_limited flag, whether it
 * has an "error", and its round. -EBADMSG when a figure is missing or malformed (*f untouched).
 */
int reader_figures(struct json_object *rec, struct hist *h0, struct hist *h1,
		   struct cells_figures *f);

/* A counter that may hold host writes, from a snapshot of a drive with no database entry. */
struct reader_candidate {
	const char *counter; /* its devcounters key, "ata:241" (borrowed from the snapshot) */
	double raw;	     /* its raw value (a decimal string or a number in the file) */
};

/*
 * What a drive snapshot's raw part says for the WA (docs/results-format.md, the runner's drive
 * snapshot): the database entry used, why there is no NAND counter, and the candidates for the
 * host-write counter. Strings are borrowed from the snapshot's raw.
 */
struct reader_drive {
	bool has_drivedb;	    /* raw.drivedb is an object (null or absent: no entry) */
	const char *drivedb_name;   /* raw.drivedb.name; NULL when absent */
	bool compresses;	    /* raw.drivedb.compresses */
	size_t unverified;	    /* how many names raw.drivedb.unverified lists */
	const char *no_nand_reason; /* raw.no_nand_reason; NULL when absent */
	struct reader_candidate *cand; /* raw.host_write_candidates, in file order (owned) */
	size_t ncand;
};

/* The snapshot files, typed: parallel arrays of n entries, in file order. */
struct reader_snaps {
	size_t n;
	struct wa_point *at; /* phase, repeat, ramp end (from "phase", "repeat", "label") */
	uint64_t *t;	     /* "target_ns", valid where has_t */
	bool *has_t;
	int64_t *seq; /* "seq", -1 when absent */
	bool *parsed; /* snapshot_from_json() took the file: s[i] is valid */
	struct snapshot *s;
	struct reader_drive *drive; /* from the raw part of s[i] (zeroed where not parsed) */
};

/* Loads *out from the snapshot files in; 0 or -ENOMEM. A file that snapshot_from_json()
 * refuses is kept, with parsed false (it still counts as a snapshot, as before). */
int reader_snaps_load(const struct results_snapshots *in, struct reader_snaps *out);
void reader_snaps_release(struct reader_snaps *s); /* accepts NULL and empty */

/* A tracked series: the metric of one cell's records, in file order (which is round order). */
struct reader_series {
	double *y;	/* n values, NaN where a record lacks the figure (owned, free()) */
	int64_t *round; /* their rounds (owned, free()) */
	size_t n;
};

/*
 * The "cell" records of (phase, repeat, cell) with their value of `metric`
 * (results_record_metric; NaN when the record has no such figure). 0; -EINVAL for a metric
 * no record understands (only found when a record matches); -ENOMEM. *out untouched on failure.
 */
int reader_series(const struct results_records *rr, int64_t phase, int64_t repeat, const char *cell,
		  const char *metric, struct reader_series *out);
void reader_series_release(struct reader_series *s); /* accepts NULL and empty */

/*
 * The WA guard's per-round WA (analysis/wa_guard.h) of the same records reader_series() takes
 * for (phase, repeat, cell), in the same order: nand_bytes / host_bytes of each record's
 * "wa_guard_counters" (the target's counter deltas over the job, docs/results-format.md), NaN
 * where a record has none, a null or no host bytes. wa has room for n; records past n are left
 * out. Returns how many records carried the key.
 */
size_t reader_guard_wa(const struct results_records *rr, int64_t phase, int64_t repeat,
		       const char *cell, double *wa, size_t n);

/* The chunks of a write_until phase (wsat.h), with the first one's time scale. */
struct reader_chunks {
	struct wsat_chunk *c; /* owned (free()) */
	size_t n;
	double first_scale; /* the first chunk's "time_scale"; NaN when it has none */
};

/*
 * The write_until records of (phase, repeat) in file order, those with bytes_written_total,
 * elapsed_ns and total.ios (others are left out). 0 or -ENOMEM; n may be 0.
 */
int reader_write_until(const struct results_records *rr, int64_t phase, int64_t repeat,
		       struct reader_chunks *out);

/*
 * The write_until records of (phase, repeat) in file order as XSR samples (snia_xsr.h; those
 * without elapsed_ns, bytes_written_total or total.ios/bytes are left out; ramp_ns 0 and the
 * response times NaN where absent), into *out (owned, free()) and *n, and the first one's
 * "time_scale" into *first_scale (NaN when none). 0 or -ENOMEM (outputs untouched).
 */
int reader_xsr_samples(const struct results_records *rr, int64_t phase, int64_t repeat,
		       struct snia_xsr_sample **out, size_t *n, double *first_scale);

/* The measurements after an idle (recovery.h), with what the headline reports about them. */
struct reader_recovery {
	struct recovery_point *p; /* owned (free()) */
	size_t n;
	int64_t first_phase; /* the first measurement's phase */
	double first_scale;  /* its "time_scale"; NaN when it has none */
};

/*
 * The measurements after record `idle` up to the next idle record: the cell records of `cell`
 * and every write_until record, each with the value of `metric` (results_record_metric; one
 * without it is left out). 0 or -ENOMEM; n may be 0.
 */
int reader_recovery(const struct results_records *rr, size_t idle, const char *cell,
		    const char *metric, struct reader_recovery *out);

/*
 * What summary.json's flags say of one record (pass_flags): one entry per record with a key
 * (reader_key), in file order. Strings are borrowed from the records.
 */
struct reader_note {
	struct reader_key k;
	bool error;		  /* it has an "error" */
	bool no_io;		  /* its "flags" hold "no_io": a measurement without figures */
	const char *no_io_reason; /* its "no_io_reason"; NULL when absent */
	bool host_limited;	  /* its "flags" hold "host_limited" */
};

/* The notes of every keyed record into *out (owned, free()) and *n; 0 or -ENOMEM (then *out and
 * *n untouched). *out may be NULL when *n is 0. */
int reader_notes(const struct results_records *rr, struct reader_note **out, size_t *n);

/* A resume marker (kind "resume"): where the walk picked up and how long the drive rested. */
struct reader_resume {
	int64_t phase, repeat, round;
	bool has_gap_wall, has_gap_target, has_sim_replayed, has_steps_replayed;
	uint64_t gap_wall_ns, gap_target_ns, steps_replayed; /* valid where has_* */
	bool sim_replayed;				     /* valid where has_sim_replayed */
};

/* The resume markers in file order into *out (owned, free()) and *n; 0 or -ENOMEM (then *out and
 * *n untouched). */
int reader_resumes(const struct results_records *rr, struct reader_resume **out, size_t *n);

/* A purge record (kind "purge"). The method string is borrowed from the record. */
struct reader_purge {
	int64_t phase, repeat;
	const char *method; /* NULL when absent */
	int pts_purge;	    /* the record's pts_purge (0 or 1); -1 when absent (older builds) */
	int64_t settle_ns;  /* 0 when absent */
};

/* The purge records in file order into *out (owned, free()) and *n; 0 or -ENOMEM (then *out and
 * *n untouched). */
int reader_purges(const struct results_records *rr, struct reader_purge **out, size_t *n);

/* The reads of unmapped LBAs summed over the records that count them ("reads_unmapped" with
 * "bytes" and "of_bytes"; any record, keyed or not). records is 0 when none does. */
struct reader_unmapped {
	uint64_t bytes, of_bytes;
	uint64_t records;		/* records that count them */
	uint64_t records_with_unmapped; /* of those, records with bytes > 0 */
};

void reader_reads_unmapped(const struct results_records *rr, struct reader_unmapped *out);

/*
 * The time span of rounds lo..hi of (phase, repeat): *t0 the "start_ns" of the first record of
 * round lo, *t1 the "end_ns" of the last record of round hi (reader_round_record; resume
 * markers left out). 0, or -ENOENT when either record or figure is missing (*t0, *t1 untouched).
 */
int reader_round_span(const struct results_records *rr, int64_t phase, int64_t repeat, int64_t lo,
		      int64_t hi, uint64_t *t0, uint64_t *t1);

/* An idle record (kind "idle"), with its index in the records (the recovery after it starts
 * there: reader_recovery). */
struct reader_idle {
	size_t index;
	int64_t phase, repeat;
	uint64_t idle_ns;  /* 0 when absent */
	double time_scale; /* 1 when absent */
};

/* The idle records in file order into *out (owned, free()) and *n; 0 or -ENOMEM (then *out and
 * *n untouched). */
int reader_idles(const struct results_records *rr, struct reader_idle **out, size_t *n);

/*
 * The bytes ssdlab wrote over a span of snapshots, as the host-write counter should see them:
 * "bytes_written_total" (ramp included) of every record with one, of (phase, repeat) or of every
 * record when all. A record that started before from_t (the span starts at its ramp's end: a
 * "ramp-end" snapshot, has_from_t) counts only its measured "write.bytes". *bytes and *records
 * (how many records counted); 0, or -ENODATA when no record counted (outputs untouched).
 */
int reader_bytes_written(const struct results_records *rr, int64_t phase, int64_t repeat, bool all,
			 bool has_from_t, uint64_t from_t, double *bytes, size_t *records);

/*
 * The early steady-state guard's count (docs/early-verdict.md), as the runner keeps it: the
 * bytes_written_total + pre_write_bytes of every record after the last "purge" record before
 * the end of round `round` of (phase, repeat) (its last record), that record included. *bytes
 * and *purged (a purge record came before); 0, or -ENODATA when the round has no record
 * (outputs untouched).
 */
int reader_written_since_purge(const struct results_records *rr, int64_t phase, int64_t repeat,
			       int64_t round, double *bytes, bool *purged);

/* A (phase, repeat) pair. */
struct reader_phase {
	int64_t phase, repeat;
};

/* The (phase, repeat) of the write_until records, each once, in the order of their first record,
 * into *out (owned, free()) and *n; 0 or -ENOMEM (then *out and *n untouched). */
int reader_write_until_phases(const struct results_records *rr, struct reader_phase **out,
			      size_t *n);

/*
 * A measurement: a keyed record with I/O figures ("elapsed_ns"; not idle, trim, purge, resume).
 * metric[m] is the record's value of the table's metric m (results_metric_def, in its order;
 * results_record_metric), NaN where it has none (no I/O, no latency).
 */
struct reader_measurement {
	size_t index; /* in the records (its line in records.jsonl is index + 1) */
	struct reader_key k;
	double metric[RESULTS_NMETRICS];
	/* Its "not_applicable" (a cell the target cannot run, recorded with zero I/O; borrowed from
	 * the record); NULL for a cell that ran. */
	const char *not_applicable;
};

/* The measurements in file order into *out (owned, free()) and *n; 0 or -ENOMEM (then *out and
 * *n untouched). */
int reader_measurements(const struct results_records *rr, struct reader_measurement **out,
			size_t *n);

/* reader_figures() of record `index` (a measurement's index); -EBADMSG also when index is out of
 * range. */
int reader_figures_at(const struct results_records *rr, size_t index, struct hist *h0,
		      struct hist *h1, struct cells_figures *f);

/* ---- thermal (reader_thermal.c) ---- */
/* The heat and wear values of snapshot i (thermal.h) from its counters and raw part; all has_*
 * false for a snapshot that did not parse or an index out of range. */
void reader_thermal_snap(const struct reader_snaps *s, size_t i, struct thermal_snap *out);
/* The index of column name in a series file's header line [l, e); -1 when absent. */
int reader_csv_column(const char *l, const char *e, const char *name);
/* The hottest temperature_c in the series files of (phase, repeat) under dir
 * (series/phase-PP-rep-RR-*.csv); NaN when there is none. */
double reader_series_max_temp(const char *dir, int64_t phase, int64_t repeat);
/* The hottest temperature_c of the step records of (phase, repeat): the runner's reading after
 * each job on a real drive, between cells (how a SATA drive's temperature is known inside a
 * phase); NaN when none has it. */
double reader_records_max_temp(const struct results_records *rr, int64_t phase, int64_t repeat);
/* A cool-down record (kind "cooldown": the runner's gate before a phase). */
struct reader_cooldown {
	int64_t phase, repeat;
	uint64_t waited_ns;
	double start_c, end_c, below_c; /* NaN where absent */
	bool reached;
};
/* The cool-down records in file order into *out (owned, free()) and *n; 0 or -ENOMEM (then *out
 * and *n untouched). */
int reader_cooldowns(const struct results_records *rr, struct reader_cooldown **out, size_t *n);
/* ---- an SLC-cache probe's series (reader_slc.c) ---- */
/* A write_until's series file as the slc fit takes it (analysis/slc.h): n rows with t_ns
 * increasing (a row whose t_ns does not exceed the one before is left out), the cumulative
 * bytes and the temperature (NaN where the row has none). */
struct reader_slc_series {
	uint64_t *t_ns, *bytes; /* owned */
	double *temp_c;		/* owned */
	size_t n;
};

/*
 * Reads series/phase-PP-rep-RR-write_until.csv under dir (columns t_ns, total_bytes_written,
 * temperature_c). 0; -ENOENT when there is no such file; -EBADMSG when a column is missing or a
 * row is malformed; -ENOMEM. *out untouched on failure.
 */
int reader_slc_series(const char *dir, int64_t phase, int64_t repeat,
		      struct reader_slc_series *out);
void reader_slc_series_release(struct reader_slc_series *s); /* accepts NULL and empty */

/* ---- the gc-passes experiment's passes (reader_gcpasses.c) ---- */

struct reader_gc_pass {
	int64_t phase, repeat;
	double rest_ns; /* idle records' time (target) since the previous pass's records */
};

/*
 * The passes of a run: the (phase, repeat) of the write_until records whose phase is marked in
 * is_pass[0 .. nphases), each once, in the order of their first record, each with the idle time
 * recorded between the previous pass's records and its own (before the first pass: since the
 * run's start). *out (owned, free(); NULL when none) and *n; 0 or -ENOMEM (outputs untouched).
 */
int reader_gc_passes(const struct results_records *rr, const bool *is_pass, size_t nphases,
		     struct reader_gc_pass **out, size_t *n);

/* ---- trim_check steps (reader_trimcheck.c) ---- */

/* A trim_check record's result (its "trim_check" object, run/runner.c; targets/trimcheck.h
 * says what each figure is). has_* false where the record has no such figure. */
struct reader_trim_check {
	int64_t phase, repeat;
	bool no_data;	      /* the target keeps no data: the record's "unsupported", no result */
	bool supported;	      /* every discard returned 0 */
	const char *reason;   /* why not, borrowed from the records; NULL when supported */
	uint64_t region, granularity;
	unsigned ranges, ranges_aligned;
	bool has_limits, has_stat, has_ata, has_latency, has_first_bad;
	uint64_t discard_max_bytes, discard_granularity, stat_ios, stat_bytes;
	bool drat, rzat;
	uint64_t read_zero, read_pattern, read_other;
	uint64_t lat_trimmed_ns, lat_mapped_ns;
	uint64_t neighbours, neighbours_bad, first_bad;
	/* NVMe Identify Namespace: NSZE, NUSE around the discards, DLFEAT (bits 2:0 in words) */
	bool has_nvme, has_nuse_after;
	uint64_t nsze, nuse_before, nuse_after;
	const char *read_after_deallocate; /* borrowed; NULL without has_nvme */
	/* NVMe Get LBA Status over the discarded ranges ("nvme_get_lba_status"): has_lbas when
	 * asked; without lbas_supported, lbas_reason says why; per action type (allocated 02h,
	 * tracked unrecoverable 11h) its blocks (has_*) or its error (borrowed strings) */
	bool has_lbas, lbas_supported, has_lbas_alloc, has_lbas_unrec;
	const char *lbas_reason, *lbas_alloc_error, *lbas_unrec_error;
	uint64_t lbas_range_blocks, lbas_alloc_blocks, lbas_unrec_blocks;
	/* the record's "fresh" (run/trim_fresh.h): 4 KiB random writes before and after
	 * discarding a region; counters where the target had them (the virtual SSD) */
	bool has_fresh, has_fresh_counters;
	uint64_t fresh_offset, fresh_bytes, fresh_time_ns;
	double fresh_iops[2], fresh_mbps[2], fresh_p99_ns[2]; /* [0] before, [1] after */
	double fresh_valid[2], fresh_free[2];
};

/* The trim_check steps in file order into *out (owned, free(); strings borrowed from rr) and
 * *n; 0, -ENOMEM or -EBADMSG (a result without its figures); *out, *n untouched on failure. */
int reader_trim_checks(const struct results_records *rr, struct reader_trim_check **out,
		       size_t *n);
/* One surface scan's record (reader_surface.c; run/surface_step.h writes it). Arrays owned;
 * series points into the record (valid while the records live). */
struct reader_surface_scan {
	int64_t phase, repeat;
	bool write;
	uint64_t chunk_bytes, capacity, lbs, errors_total;
	double slow_below;
	const char *series;
	double *mbps, *max_lat_ns; /* n each, per chunk */
	size_t n;
	double *error_lbas; /* nerror_lbas, ascending (exact up to 2^53) */
	size_t nerror_lbas;
};

/* The surface records in file order: 0 with *out (reader_surface_free()) and *n, -EINVAL for a
 * surface record without its figures, or -ENOMEM. */
int reader_surface_scans(const struct results_records *rr, struct reader_surface_scan **out,
			 size_t *n);
void reader_surface_free(struct reader_surface_scan *v, size_t n); /* accepts NULL */
/* ---- op variants (reader_opvariants.c) ---- */
/* The measurements of (phase, repeat) summed into *out (cells_sum_init'ed here; none: n 0).
 * 0, -ENOMEM or -EBADMSG (a malformed record; *out then partial). */
int reader_phase_sum(const struct results_records *rr, int64_t phase, int64_t repeat,
		     struct cells_sum *out);

/* ---- SNIA host idle recovery (reader_hir.c) ---- */
/*
 * The records of a HIR run from its first burst on (hir.h): every "burst" record and every
 * write_until record after the first burst, in file order, those with I/O figures. *out owned
 * (free()); 0 or -ENOMEM (outputs untouched).
 */
int reader_hir_points(const struct results_records *rr, struct hir_point **out, size_t *n);

#endif
