/* SPDX-License-Identifier: MIT */
/*
 * safety: the one gate every destructive path goes through (DESIGN.md, "Safety").
 *
 * A destructive action (write, discard, purge, capacity or write-cache change) on a real target
 * is allowed only when
 *   1. the target is not in use: no mounted filesystem on it or on any of its partitions, not
 *      swap, no holders (md/dm/bcache: sysfs holders/), not the disk holding the root
 *      filesystem, and it can be opened O_EXCL; and
 *   2. the user confirmed for that device: --yes-destroy=SERIAL (or WWN) where the device
 *      reports one, =PATH where it reports neither or for a regular file; or answered an
 *      interactive prompt showing model, serial and size. With no terminal: refuse.
 * The virtual SSD and files that ssdlab created in this run need no confirmation (step 2), and
 * are never "in use" in the sense of step 1.
 *
 * Refusals return -EPERM with a reason a user can act on; the CLI maps that to exit code 3.
 * sysfs and proc roots are parameters so that tests can point them at a fake tree.
 *
 * What "in use" covers, for a block device (partition or whole disk): the whole disk and every
 * one of its partitions are examined, whichever of them was named, because a benchmark that
 * writes a partition for hours is not safe next to a mounted sibling either. A device is in use
 * when (checked in this order, first hit is the reason):
 *   - the root filesystem lives on it: the device of "/" (mountinfo and stat), its parent disk,
 *     and through dm/md slaves/ down to the physical disks;
 *   - it is mounted (mountinfo by major:minor, and by the mount source's device number, which
 *     catches btrfs whose mountinfo shows an anonymous 0:N);
 *   - it is active swap (/proc/swaps, by device number);
 *   - it has holders (sysfs holders/: md, dm, bcache, ...);
 *   - with probe_excl: an O_EXCL open fails with EBUSY.
 * A regular file is in use when it is the backing file of an attached loop device or an active
 * swap file. Nothing else: a file on a mounted filesystem is fine.
 *
 * Recommended order for a caller about to write a real target: safety_check_in_use(path) with
 * probe_excl before opening it writable (a mounted device otherwise fails the O_EXCL open with a
 * bare EBUSY instead of a reason), then target_open(writable), then
 * safety_confirm_destructive(target_info) with probe_excl false (the caller's own O_EXCL open
 * would make the probe fail; holding it is the guarantee the probe stands for).
 */
#ifndef SSDLAB_SAFETY_H
#define SSDLAB_SAFETY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "host/devinfo.h"
#include "host/drive_ident.h"

/* What the gate needs to know about a target (targets fill it in: target_safety_identity()). */
enum safety_kind {
	SAFETY_BLOCKDEV = 0,
	SAFETY_FILE,
	SAFETY_VIRTUAL, /* the virtual SSD: nothing real at stake */
};

struct safety_target {
	enum safety_kind kind;
	const char *path;		 /* as opened: /dev/sdb, ./t.img */
	const char *model, *serial, *wwn; /* "" (not NULL) when unknown */
	uint64_t capacity;		 /* bytes, for the prompt */
	bool created_by_ssdlab;		 /* a file this run created: no confirmation needed */
	const struct devinfo_nvme *nvme; /* an NVMe namespace's placement, or NULL */
	/* who the drive says it is (firmware, transport, HPA or namespace and LBA format), shown
	 * in the prompt and the refusal; NULL when not read */
	const struct drive_ident *drive;
};

/*
 * The kernel boundary, replaceable by tests (a fake /dev has no device nodes). NULL in
 * safety_opts, or a NULL hook here, means the real call. Hooks return 0 or -errno.
 */
struct safety_sys {
	void *ctx;
	/* stat(2), following symlinks */
	int (*stat)(void *ctx, const char *path, struct stat *st);
	/* open(path, O_RDONLY | O_EXCL) and close it again: -EBUSY when someone holds it */
	int (*probe_excl)(void *ctx, const char *path);
	/* isatty(fd) */
	bool (*isatty)(void *ctx, int fd);
	/* shows prompt (on stderr) and reads one line into answer (from the terminal) */
	int (*ask)(void *ctx, const char *prompt, char *answer, size_t len);
};

struct safety_opts {
	const char *sysfs_root;	 /* NULL = "/sys" */
	const char *proc_root;	 /* NULL = "/proc" */
	const char *yes_destroy; /* value of --yes-destroy, or NULL */
	bool allow_prompt;	 /* may ask on /dev/tty when stdin and stderr are terminals */
	bool probe_excl;	 /* step 1 also tries an O_EXCL open (caller does not hold one) */
	/* the action reaches every namespace of the target's NVMe subsystem (a sanitize, a format
	 * with secure erase): step 1 then checks each of them, not only the one named */
	bool whole_subsystem;
	const struct safety_sys *sys; /* NULL = the real kernel */
};

/*
 * Step 1 only: is the device or file at `path` in use? 0 when free, -EPERM with a reason when
 * in use, other -errno when it cannot be checked (which callers treat as a refusal too; the
 * reason says what could not be checked). A path that is neither a block device nor a regular
 * file is refused with -EPERM. `reason` is always NUL-terminated ("" on success).
 */
int safety_check_in_use(const char *path, const struct safety_opts *o, char *reason, size_t len);

/*
 * Steps 1 and 2 for a destructive action on an opened target, described by `what` ("write",
 * "purge", ...) for the prompt and messages. 0 = go ahead. SAFETY_VIRTUAL, and SAFETY_FILE with
 * created_by_ssdlab, pass at once. An NVMe namespace's prompt names its controller and
 * subsystem; with o->whole_subsystem every namespace of the subsystem must be free. Serials
 * compare trimmed and case-sensitive; WWNs trimmed, case-insensitive, with an optional "0x",
 * "naa.", "eui." or "nguid." prefix ignored; paths canonical (realpath). A wrong or missing value
 * refuses with the value that was expected.
 */
int safety_confirm_destructive(const struct safety_target *ti, const char *what,
			       const struct safety_opts *o, char *reason, size_t len);

/*
 * The reach check on its own, for a command sent later in a run (a purge's format or sanitize,
 * targets/purge_chain.h): every other namespace of ti's NVMe subsystem must pass step 1, as
 * with whole_subsystem (the named one passed the gate and is held open by the caller). 0 when
 * ti is not an NVMe namespace or all are free; -EPERM with the namespace and reason otherwise.
 */
int safety_check_reach(const struct safety_target *ti, const char *what,
		       const struct safety_opts *o, char *reason, size_t len);

#endif
