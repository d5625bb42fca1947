/* SPDX-License-Identifier: MIT */
/*
 * devchange_target: a devchange context (devchange.h) for an open target, so that the runner
 * and `ssdlab restore` name a drive in the journal the same way: the journal's "device" is the
 * target's identity (path, serial, wwn, model, transport, nsid), and the context's transport and
 * namespace come from the drive's own identity (target_info.drive, read at open).
 */
#ifndef SSDLAB_TARGETS_DEVCHANGE_TARGET_H
#define SSDLAB_TARGETS_DEVCHANGE_TARGET_H

#include "targets/devchange.h"
#include "targets/target.h"

/* The journal's "device" for ti: a new object, or NULL (no memory). */
struct json_object *devchange_target_identity(const struct target_info *ti);

#define DEVCHANGE_ALPM_PATH_MAX 128

/*
 * Fills c for the target ti, whose block device is open on fd, with identity (borrowed: keep it
 * while c is used) and journal j (may be NULL only for a dry run). A SATA drive's ALPM policy
 * file is found through sysfs into alpm (the caller's buffer, kept while c is used; c->alpm_path
 * NULL when there is none). An NVMe namespace's kernel name (ti->nvme.ns) becomes c->sysfs_disk
 * (borrowed from ti), so that a namespace change reaches the controller and rescans it. 0, or
 * -EOPNOTSUPP with the reason in err when ti is not an NVMe or
 * SATA drive that answered its identify command (a file, a loop device, a USB bridge without
 * pass-through: ssdlab changes nothing there).
 */
int devchange_target_ctx(const struct target_info *ti, int fd, struct json_object *identity,
			 struct journal *j, uint64_t (*wall_ns)(void), struct devchange_ctx *c,
			 char alpm[DEVCHANGE_ALPM_PATH_MAX], char *err, size_t errlen);

#endif
