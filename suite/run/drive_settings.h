/* SPDX-License-Identifier: MIT */
/*
 * drive_settings: the drive settings a profile pins for a run (issue 13 point 6: `write_cache:
 * on | off | as-found`), applied before the first phase, re-checked at every phase boundary and
 * restored when the run ends, however it ends short of kill -9 or a power loss (then `ssdlab
 * restore DIR` reads the journal). Every change goes through targets/devchange.h, so it is in
 * the results directory's journal.jsonl before the drive sees it.
 *
 *   open ──> apply ──> recheck (each phase boundary; re-sets after an NVMe reset) ──> restore
 *
 * As found is always read (the manifest records it); nothing is journaled or sent for a setting
 * left as found. On the virtual SSD the write cache is the model's (target_set_write_cache), with
 * nothing to journal.
 */
#ifndef SSDLAB_RUN_DRIVE_SETTINGS_H
#define SSDLAB_RUN_DRIVE_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"
#include "targets/target.h"

struct json_object;
struct drive_settings;

/*
 * Reads the settings of target t as found; dir is the run's results directory (the journal goes
 * there when a setting is to change). wall_ns: the CLI's wall clock for the journal. ops: the
 * ioctl table the commands go through (NULL: ioctl_ops_real; tests pass a scripted drive).
 * -EOPNOTSUPP (err says why) when the profile pins a setting this target cannot have (a file, a
 * loop device, a drive without a volatile write cache), -ENOMEM.
 */
int drive_settings_open(struct target *t, const char *dir, const struct profile *p,
			uint64_t (*wall_ns)(void), const struct ioctl_ops *ops,
			struct drive_settings **out, char *err, size_t errlen);
void drive_settings_free(struct drive_settings *s); /* accepts NULL */

/* Sets what the profile pins and reads it back: 0, or -errno with err (the journal keeps what
 * was tried; drive_settings_restore() undoes it). */
int drive_settings_apply(struct drive_settings *s, char *err, size_t errlen);

/* At a phase boundary: reads the settings again and sets any that went back (an NVMe controller
 * reset restores the default cache setting). 0 with note "" when all held, 0 with a note saying
 * what was set again, or -errno with err. */
int drive_settings_recheck(struct drive_settings *s, char *note, size_t notelen, char *err,
			   size_t errlen);

/*
 * Restores every change journaled for this drive in the results directory (newest first),
 * each outcome journaled. 0 when nothing was outstanding or all came back (msg says what, ""
 * for nothing), -EIO when any did not (msg says which and why).
 */
int drive_settings_restore(struct drive_settings *s, char *msg, size_t msglen);
/* The same for the changes of one kind only ("hpa": a variants phase gives the capacity back
 * before the next phase; the pinned settings stay until the run's end). NULL kind: all. */
int drive_settings_restore_kind(struct drive_settings *s, const char *kind, char *msg,
				size_t msglen);

/* The devchange context of the drive with the journal open (opened here on first use), for a
 * change made outside the pinned settings (an ATA security erase's password, run by the purge
 * phase); the restore at the end covers it like the others. NULL (err says why) on a target
 * that is not a drive or when the journal cannot be opened. */
struct devchange_ctx;
const struct devchange_ctx *drive_settings_change_ctx(struct drive_settings *s, char *err,
						      size_t errlen);

/* The write cache as read back after drive_settings_apply(): 1 on, 0 off, -1 unknown (not
 * read: a file or loop device, or left as found on a target that cannot report it). */
int drive_settings_write_cache(const struct drive_settings *s);
/* Why a write cache setting asked by a pts: variant was left as found ("" when it was not). */
const char *drive_settings_note(const struct drive_settings *s);

/* The manifest's "drive_settings": {"write_cache": {"profile", "as_found", "readback"}, "journal"}
 * (docs/results-format.md). A new object, or NULL (no memory). */
struct json_object *drive_settings_to_json(const struct drive_settings *s);

#endif
