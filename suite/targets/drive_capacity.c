// SPDX-License-Identifier: MIT
/*
 * drive_capacity: the accessible capacity of a SATA drive, at open and at phase boundaries
 * (see drive_capacity.h).
 */
#include "targets/drive_capacity.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "host/ata_identify.h"

static bool sata_identified(const struct drive_ident *d)
{
	return d->kind == DRIVE_IDENT_SATA && d->ata.read && d->ata.id.user_sectors &&
	       d->ata.id.logical_sector;
}

uint64_t drive_capacity_limit(const struct drive_ident *d, uint64_t kernel_bytes)
{
	uint64_t acc;

	if (!sata_identified(d))
		return kernel_bytes;
	acc = d->ata.id.user_sectors * d->ata.id.logical_sector;
	return acc < kernel_bytes ? acc : kernel_bytes;
}

int drive_capacity_recheck(const struct target_info *ti, const struct ioctl_ops *ops, char *err,
			   size_t errlen)
{
	uint8_t id[ATA_IDENTIFY_LEN];
	struct ata_identity now;
	uint64_t was;
	int fd, ret;

	if (ti->kind != TARGET_KIND_BLOCKDEV || !ti->has_drive || !sata_identified(&ti->drive))
		return 0;
	/* a second descriptor: the target's own is O_DIRECT|O_EXCL and private to target_uring */
	fd = open(ti->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: capacity not re-checked: %s", ti->path, strerror(errno));
		return 1;
	}
	ret = ata_identify_read(ops ? ops : &ioctl_ops_real, fd, id, err, errlen);
	close(fd);
	if (ret)
		return 1;
	ata_identify_decode(id, &now);
	was = ti->drive.ata.id.user_sectors;
	if (now.user_sectors != was) {
		snprintf(
		    err, errlen,
		    "%s: the drive's accessible capacity changed during the run, from %llu to %llu "
		    "sectors (a host reset drops a volatile HPA): the capacity and "
		    "over-provisioning "
		    "the run measures are no longer the ones it started with",
		    ti->path, (unsigned long long)was, (unsigned long long)now.user_sectors);
		return -ESTALE;
	}
	return 0;
}
