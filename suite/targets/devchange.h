/* SPDX-License-Identifier: MIT */
/*
 * devchange: every change ssdlab makes to a drive's settings or layout (issue 13), made the one
 * way: read the current value, journal it with the new one (results/journal.h, fsync'ed), send
 * the command through the ioctl table, read the value back and journal the outcome; and undone
 * the one way: for each outstanding journal entry, newest first, find the same drive again
 * (identity in the entry), re-read the value, send the restoring command unless the drive is
 * already at the original value, read back, journal the outcome. The runner restores at the end
 * of a run and after SIGINT/SIGTERM; `ssdlab restore DIR` after a crash or a power loss.
 *
 * A kind is one row of a table (devchange_kinds.c): its name, its journal id prefix and three
 * functions over the drive. Each kind lives in a file of its own (devchange_<kind>.c) and
 * documents the JSON shape of its values there and in docs/results-format.md (journal section):
 *   write_cache      {"enabled": bool}                      ATA SET FEATURES 0x02/0x82, NVMe
 *                                                           Set Features 0x06 (no save bit)
 *   hpa              {"max_lba": N, "native_max_lba": N, "volatile": bool}
 *                                                           SET MAX ADDRESS EXT / AMAC
 *   nvme_namespace   {"nsid": N, "nsze": N, "ncap": N, "flbas": N, ...}
 *   power_state      {"apst": bool, "table": "hex"} (NVMe FID 0x0C) or {"alpm": "policy",
 *                    "devslp": bool|null} (SATA sysfs)
 *   security         {"password_set": bool, "locked": bool, "password": "..."}
 *                                                           ATA SECURITY (erase)
 * Purges are not settings (nothing to restore), but the ones that set something first (the ATA
 * security password of SECURITY ERASE) journal that setting as a kind.
 *
 * No kind function sends anything when ctx->dry_run is set: it prints the command (opcode and
 * fields, as `info --dry-run` does) to ctx->dry_out and returns 0.
 */
#ifndef SSDLAB_TARGETS_DEVCHANGE_H
#define SSDLAB_TARGETS_DEVCHANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "host/drivedb.h"
#include "host/ioctl_ops.h"
#include "results/journal.h"

struct json_object;

/* The drive a change is made to. */
struct devchange_ctx {
	const struct ioctl_ops *ops; /* NULL: ioctl_ops_real */
	int fd;			     /* the block device, open (O_RDWR where a kind needs it) */
	const char *path;	     /* as given: /dev/sdb, /dev/nvme0n1 */
	enum drivedb_transport transport;
	uint32_t nsid;		     /* NVMe: the namespace (0 for SATA) */
	const char *sysfs_disk;	     /* the kernel's name: "sdb", "nvme0n1" (sysfs attributes) */
	const char *alpm_path;	     /* SATA: the host's link_power_management_policy file
				      * (/sys/class/scsi_host/hostN/...); NULL unknown */
	struct json_object *identity; /* borrowed: the journal's "device" (path, serial, wwn,
				       * model, transport, nsid) */
	struct journal *journal;     /* where changes go; NULL only with dry_run */
	bool dry_run;
	FILE *dry_out;		     /* where dry_run prints the commands (stdout when NULL) */
	uint64_t (*wall_ns)(void);   /* the wall clock, ns since the epoch (tests pass a fixed one) */
	/* The kinds to look names up in; NULL: the built-in table (devchange_kind()). Tests pass
	 * a scripted kind here. */
	const struct devchange_kind *const *kinds;
	size_t nkinds;
};

struct devchange_kind {
	const char *name;      /* "write_cache": the journal's kind */
	const char *id_prefix; /* "wc": journal ids "wc-1", ... */
	/* The drive's current value as the kind's JSON (a new object), or -errno with err
	 * (-EOPNOTSUPP: the drive cannot have this setting, with the reason). */
	int (*read)(const struct devchange_ctx *c, struct json_object **value, char *err, size_t errlen);
	/* Sends the command(s) that set `to`; cmd gets a one-line description for the journal
	 * (written to it BEFORE the send: the kind fills cmd first, then devchange journals,
	 * then calls send). Split in two so that the journal line names the exact command. */
	int (*describe)(const struct devchange_ctx *c, struct json_object *to, char *cmd, size_t cmdlen);
	int (*send)(const struct devchange_ctx *c, struct json_object *to, char *err, size_t errlen);
	/* true when value a and b mean the same setting (the read-back check and "already at the
	 * original value"). */
	bool (*same)(struct json_object *a, struct json_object *b);
	/* Optional: true when setting `to` survives a power cycle (the journal's "persistent");
	 * NULL: never (a volatile setting). */
	bool (*persistent)(struct json_object *to);
};

/* The kind named name, or NULL (devchange_kinds.c's table). */
const struct devchange_kind *devchange_kind(const char *name);

/*
 * Sets the drive's `kind` setting to `to` (borrowed): read, journal "change", describe+send,
 * read back, journal "done". -EIO (err: the drive's answer) when the read-back differs from
 * `to`; the journal keeps the entry either way, so the restore undoes whatever happened. With
 * dry_run: prints what it would send, journals nothing, changes nothing.
 */
int devchange_set(const struct devchange_ctx *c, const char *kind, struct json_object *to, char *err,
		  size_t errlen);

/* The outcome of one entry's restore, for the user and the runner's note. */
struct devchange_restore_result {
	char id[JOURNAL_ID_MAX];
	char kind[JOURNAL_KIND_MAX];
	bool ok;
	char what[512]; /* "write cache back on (read back: on)", "refused: /dev/sdb is now serial X" */
};

/*
 * Restores every outstanding entry of `entries` (journal_read) whose device is the drive of c,
 * newest first, journaling each outcome. results (room for n) and *nres say what happened.
 * Returns 0 when all were restored, -EIO when any failed (each failure in results).
 */
int devchange_restore(const struct devchange_ctx *c, const struct journal_entry *entries, size_t n,
		      struct devchange_restore_result *results, size_t *nres);

/* True when entry e was made to the drive whose identity is `identity` (serial and wwn, or
 * path when the drive has neither). */
bool devchange_same_drive(const struct journal_entry *e, struct json_object *identity);

#endif
