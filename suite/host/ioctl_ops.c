// SPDX-License-Identifier: MIT
#include "host/ioctl_ops.h"

#include <errno.h>
#include <stddef.h>
#include <sys/ioctl.h>

static int real_admin(void *ctx, int fd, struct nvme_admin_cmd *cmd)
{
	(void)ctx;
	int r = ioctl(fd, NVME_IOCTL_ADMIN_CMD, cmd);
	/* ioctl answers -1/errno for a transport failure, a positive NVMe status otherwise. */
	return r < 0 ? -errno : r;
}

static int real_sg_io(void *ctx, int fd, struct sg_io_hdr *hdr)
{
	(void)ctx;
	return ioctl(fd, SG_IO, hdr) < 0 ? -errno : 0;
}

static int real_blk(void *ctx, int fd, unsigned long req, void *arg)
{
	(void)ctx;
	return ioctl(fd, req, arg) < 0 ? -errno : 0;
}

const struct ioctl_ops ioctl_ops_real = {.admin = real_admin, .sg_io = real_sg_io, .blk = real_blk, .ctx = NULL};
