/* SPDX-License-Identifier: MIT */
/*
 * drive_capacity: a SATA drive's accessible capacity against the kernel's (issue 13 point 2).
 * Linux sizes a SATA disk once: after a volatile HPA set (`ssdlab hpa --set`) the drive answers
 * for fewer sectors than the kernel believes, and a write past the drive's max fails. So ssdlab
 * limits its own I/O range to what IDENTIFY says (words 100-103), never asks the kernel to
 * revalidate (a revalidation that finds a smaller disk can take it offline), and re-reads
 * IDENTIFY at every phase boundary: a host reset drops a volatile HPA, after which the run's
 * capacity (and so its over-provisioning) is no longer the one it measured.
 */
#ifndef SSDLAB_TARGETS_DRIVE_CAPACITY_H
#define SSDLAB_TARGETS_DRIVE_CAPACITY_H

#include <stddef.h>
#include <stdint.h>

#include "host/drive_ident.h"
#include "host/ioctl_ops.h"
#include "targets/target.h"

/* The bytes ssdlab may address on a drive the kernel sizes at kernel_bytes: IDENTIFY's user
 * sectors x logical sector size when d is a SATA drive that answered and that is smaller,
 * else kernel_bytes. */
uint64_t drive_capacity_limit(const struct drive_ident *d, uint64_t kernel_bytes);

/*
 * At a phase boundary: re-sends IDENTIFY (ops; NULL: ioctl_ops_real) to a SATA block device
 * target that was identified at open, and compares its user sectors with those at open.
 * 0: the same, or not a SATA drive identified at open (nothing sent); 1: not checked (the
 * drive did not answer; err says why: the caller notes it); -ESTALE: changed, with both
 * sizes in err.
 */
int drive_capacity_recheck(const struct target_info *ti, const struct ioctl_ops *ops, char *err,
			   size_t errlen);

#endif
