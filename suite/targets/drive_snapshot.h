/* SPDX-License-Identifier: MIT */
/*
 * drive_snapshot: a real drive's counters as a counter snapshot (results/snapshot.h), the one
 * place where both `ssdlab smart DEV --json` and the runner's phase-boundary hook (target_uring)
 * get them, so the two cannot drift apart (issue 11 point 2).
 *
 * Reading goes through a small table of reader rows per transport (NVMe: the SMART/Health log
 * and the extra logs; ATA: the live reader, SMART attributes and Device Statistics over SG_IO); every row of the drive's
 * transport adds its keys to one devcounters list (host/devcounters.h). The list is then mapped
 * to the snapshot's named counters through the drive database (host/drivedb.h): host and NAND
 * writes in bytes (or Micron's page counters), each counter's resolution (one unit of it, in
 * bytes), temperature and wear where the source has them. The raw part keeps every devcounters
 * key, the model, the database entry used and, for a drive the database does not know, the
 * candidate host-write counters, so that the analysis (analysis/wa.c) can infer a unit.
 *
 * Drives count in batches: a counter read right after a burst of writes may still move. So a
 * snapshot at a phase boundary flushes, waits a short settle time, and re-reads until two
 * consecutive reads agree (bounded; reads, settle time and whether it settled go into raw).
 */
#ifndef SSDLAB_DRIVE_SNAPSHOT_H
#define SSDLAB_DRIVE_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host/devcounters.h"
#include "host/drivedb.h"
#include "host/ioctl_ops.h"
#include "results/snapshot.h"

/*
 * The standard host-write counter of a SATA drive: Device Statistics page 0x01 "Logical
 * Sectors Written" (ACS-3 9.5.4.x, table A.5), in logical sectors. The snapshot's host writes
 * come from it (x the logical sector size, so good to one sector) where the drive's database
 * entry names no host counter, names one the drive does not report, or names one whose unit no
 * source confirms (the "ATA default" entry's 241 in 512-byte sectors is such a guess).
 */
#define DRIVE_SNAPSHOT_ATA_HOST_WRITES "ata:devstat.1.0x18"
#define DRIVE_SNAPSHOT_ATA_HOST_READS "ata:devstat.1.0x28"

/* One reader of a transport: adds its keys to dc; 0 or -errno with a message in err. */
typedef int (*drive_snapshot_read_fn)(const struct ioctl_ops *ops, int fd, uint32_t nsid,
				      struct devcounters *dc, char *err, size_t errlen);

struct drive_snapshot_reader {
	enum drivedb_transport transport;
	const char *name;   /* "nvme-smart-log" (messages and raw.reader_errors) */
	const char *source; /* the snapshot's source when this row is the transport's first */
	/* a required row failing fails the read; an optional one (a log the drive may lack) is
	 * noted in raw.reader_errors and skipped */
	bool required;
	drive_snapshot_read_fn read;
};

/* The reader rows of a transport, in order; *n = 0 (and NULL) when there is none. */
const struct drive_snapshot_reader *drive_snapshot_readers(enum drivedb_transport t, size_t *n);

/* Defaults of the settle loop (drive_snapshot_opts fields left 0 take these). */
#define DRIVE_SNAPSHOT_SETTLE_NS 500000000ull   /* after the flush, before the first read */
#define DRIVE_SNAPSHOT_INTERVAL_NS 200000000ull /* between reads */
#define DRIVE_SNAPSHOT_MAX_READS 5u

struct drive_snapshot_opts {
	uint64_t settle_ns;   /* UINT64_MAX: no wait at all (0 takes the default) */
	uint64_t interval_ns; /* UINT64_MAX: no wait at all (0 takes the default) */
	unsigned max_reads;   /* 0: the default; 1: a single read, nothing compared */
};

struct drive_snapshot_cfg {
	const struct ioctl_ops *ops; /* NULL: ioctl_ops_real */
	int fd;			     /* the drive, open (read-only is enough) */
	enum drivedb_transport transport;
	uint32_t nsid;	   /* NVMe: the nsid logs are read with (0: the controller, 0xffffffff) */
	const char *model; /* as the drive reports it (target_info.model) */
	/* ATA: the logical sector size in bytes (target_info.logical_block_size), the unit of the
	 * Device Statistics sector counters; 0: unknown, those counters are then not mapped */
	uint32_t sector_bytes;
	/* the drive database: a path (NULL: profiles/drives/drives.yaml of the source tree, else
	 * of the installed data dir), or db (borrowed; wins over the path) */
	const char *drivedb_path;
	const struct drivedb *db;
	struct drive_snapshot_opts opts;
};

struct drive_snapshot;

/*
 * Prepares the snapshots of one drive: loads the drive database once (the entry for cfg->model
 * is looked up here) and copies the model. -EOPNOTSUPP when the transport has no reader row
 * (err: the reason, for a snapshot of source "none"); -ENOENT/-EINVAL when the database cannot
 * be loaded (err: file:line:col); -ENOMEM. *out is set only on success; drive_snapshot_free().
 */
int drive_snapshot_open(const struct drive_snapshot_cfg *cfg, struct drive_snapshot **out, char *err,
			size_t errlen);
void drive_snapshot_free(struct drive_snapshot *ds); /* accepts NULL */

/* The database entry used for this drive (NULL: none matched); lives as long as ds. */
const struct drivedb_entry *drive_snapshot_entry(const struct drive_snapshot *ds);

/* One pass over the transport's reader rows into dc (initialised here). 0 or -errno + err. */
int drive_snapshot_read(struct drive_snapshot *ds, struct devcounters *dc, char *err, size_t errlen);

/*
 * A settled snapshot into s (which the caller has snapshot_init()ed; s->raw is replaced). The
 * caller flushes first (target_flush: what sits in the host's and the drive's caches has not
 * been counted yet); this waits the settle time, then reads every interval until two
 * consecutive reads agree on every counter except those that move on their own (temperatures,
 * time counters), at most max_reads reads. during_io: the engine's I/O is running (a snapshot
 * from inside a job): one read, no wait, so as not to stall it; raw.during_io says so. raw gets
 * "reads", "settle_ns", "interval_ns", "max_reads" and "settled" (false: the bound was reached,
 * or during_io; the last read is used). Returns 0, or -errno with err (a failed read; s is then
 * left as it was).
 */
int drive_snapshot_take(struct drive_snapshot *ds, bool during_io, struct snapshot *s, char *err,
			size_t errlen);

/*
 * Pure: maps dc to s's counters and raw part for a drive of `model` and `transport` whose
 * database entry is e (NULL: none); sector_bytes: an ATA drive's logical sector size (0:
 * unknown, the Device Statistics sector counters are then left out). s must be snapshot_init()ed with its source; s->raw is
 * replaced. Counters (docs/results-format.md): host_bytes_written and nand_bytes_written
 * (bytes: raw x unit), or for a pages_ratio entry host_pages_written and ftl_pages_written
 * ("pages") beside host_bytes_written; host_bytes_written_resolution and
 * nand_bytes_written_resolution (bytes in one counter unit); nand_bytes_written_slc / _tlc
 * where the entry names the parts; host_bytes_read, temperature_c, power_on_ns, percentage_used,
 * available_spare, thermal_transitions, warning_temp_minutes where the source has them.
 * raw: "transport", "model", "counters" {key: value}, "host_counter" (the key host_bytes_written
 * came from), "drivedb" ({name, source, unverified,
 * compresses} or null), "no_nand_reason" where no NAND counter was read,
 * "host_write_candidates" for a drive without an entry, and NVMe's SMART/Health fields under
 * the names `smart --json` always printed. 0, -ENOSPC or -ENOMEM.
 */
int drive_snapshot_build(const struct devcounters *dc, enum drivedb_transport transport,
			 const char *model, uint32_t sector_bytes, const struct drivedb_entry *e,
			 struct snapshot *s);

#endif
