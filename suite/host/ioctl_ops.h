/* SPDX-License-Identifier: MIT */
/*
 * ioctl_ops: the one boundary through which ssdlab sends commands to a drive (issue 11 point 7):
 * NVMe admin commands (NVME_IOCTL_ADMIN_CMD), SCSI generic requests (SG_IO, which carries ATA
 * PASS-THROUGH(16) to SATA drives) and block-layer ioctls (BLK*). The real table talks to the
 * kernel; tests pass their own table that answers from a script, so nothing needs LD_PRELOAD
 * (which clashes with ASan). Every module that sends a drive command takes a table, never calls
 * ioctl() itself.
 */
#ifndef SSDLAB_HOST_IOCTL_OPS_H
#define SSDLAB_HOST_IOCTL_OPS_H

#include <linux/nvme_ioctl.h>
#include <scsi/sg.h>

struct ioctl_ops {
	/* One NVMe admin command; 0, a positive NVMe status (completion dword 3 bits 31:17 as the
	 * kernel returns it), or -errno for a transport failure. */
	int (*admin)(void *ctx, int fd, struct nvme_admin_cmd *cmd);
	/* One SG_IO request; 0 when the ioctl went through (the SCSI/ATA outcome is in hdr's
	 * status, host_status, driver_status and sense buffer), or -errno. */
	int (*sg_io)(void *ctx, int fd, struct sg_io_hdr *hdr);
	/* Any other ioctl on a block device (BLKGETSIZE64, BLKDISCARD, BLKFLSBUF ...): 0 or -errno. */
	int (*blk)(void *ctx, int fd, unsigned long req, void *arg);
	void *ctx;
};

/* The table that talks to the kernel. */
extern const struct ioctl_ops ioctl_ops_real;

#endif
