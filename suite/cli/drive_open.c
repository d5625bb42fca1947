// SPDX-License-Identifier: MIT
/*
 * drive_open: cli/drive_open.h for the shipped program: a block device through the kernel
 * (ioctl_ops_real), its transport from sysfs, its journal identity from target_open's drive
 * identity (targets/devchange_target.h).
 */
#include "cli/drive_open.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/clock.h"
#include "host/devinfo.h"
#include "targets/target.h"

int cli_drive_open(const char *path, struct cli_drive *d, char *err, size_t errlen)
{
	struct devinfo_link x;
	struct stat sb;

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	d->ops = &ioctl_ops_real;
	if (stat(path, &sb)) {
		int e = errno;

		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	if (!S_ISBLK(sb.st_mode)) {
		snprintf(err, errlen, "%s is not a block device", path);
		return -ENOTBLK;
	}
	/* the transport decides what a command may be sent through; unknown when sysfs lacks it */
	if (!devinfo_link_read(NULL, sb.st_rdev, &x))
		snprintf(d->transport, sizeof(d->transport), "%s", x.transport);
	/* SG_IO needs no write access for these commands under CAP_SYS_RAWIO, and O_NONBLOCK
	 * keeps a drive that is busy elsewhere from holding us */
	d->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (d->fd < 0) {
		int e = errno;

		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	return 0;
}

int cli_drive_ctx(struct cli_drive *d, const char *path, struct journal *j, struct devchange_ctx *c,
		  char *err, size_t errlen)
{
	struct target_open_opts to = {.drive_ident = true};
	struct target *t = NULL;
	int rc;

	if (!d->impl) {
		rc = target_open(path, &to, &t, err, errlen);
		if (rc)
			return rc;
		d->impl = t;
	}
	t = d->impl;
	if (!d->identity) {
		d->identity = devchange_target_identity(target_info(t));
		if (!d->identity) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
	}
	return devchange_target_ctx(target_info(t), d->fd, d->identity, j, cli_wall_ns, c, d->alpm,
				    err, errlen);
}

void cli_drive_close(struct cli_drive *d)
{
	if (!d)
		return;
	json_object_put(d->identity);
	d->identity = NULL;
	target_close(d->impl);
	d->impl = NULL;
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}
