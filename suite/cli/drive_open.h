/* SPDX-License-Identifier: MIT */
/*
 * drive_open: how the commands that change a drive (`hpa`, `restore`) reach it: the device, the
 * ioctl table its commands go through (host/ioctl_ops.h) and the devchange context that names it
 * in the journal (targets/devchange_target.h). The shipped program links drive_open.c (a
 * block device through the kernel); a test-only program links its own implementation instead,
 * a scripted drive whose state lives in a file, so that a test can run `hpa --set` and `restore`
 * as separate processes with nothing in the shipped program reading a test's environment.
 */
#ifndef SSDLAB_CLI_DRIVE_OPEN_H
#define SSDLAB_CLI_DRIVE_OPEN_H

#include <stddef.h>

#include "host/ioctl_ops.h"
#include "results/journal.h"
#include "targets/devchange.h"
#include "targets/devchange_target.h"

struct cli_drive {
	int fd;				/* open read-only, -1 when closed */
	const struct ioctl_ops *ops;	/* where its commands go */
	char transport[16];		/* sysfs's: "sata", "usb", "nvme"; "" unknown */
	struct json_object *identity;	/* the journal's "device" (cli_drive_ctx), owned */
	char alpm[DEVCHANGE_ALPM_PATH_MAX];
	void *impl;			/* the implementation's own state */
};

/*
 * Opens the drive at path for commands. -ENOTBLK (not a block device) or -errno, with the
 * message in err; on failure d is closed (cli_drive_close is still safe).
 */
int cli_drive_open(const char *path, struct cli_drive *d, char *err, size_t errlen);

/*
 * Fills c for a change to (or a restore of) the drive d: its identity as the journal records it,
 * the ioctl table, journal j (NULL only for a dry run). -EOPNOTSUPP with the reason when the
 * drive did not identify itself (targets/devchange_target.h).
 */
int cli_drive_ctx(struct cli_drive *d, const char *path, struct journal *j, struct devchange_ctx *c,
		  char *err, size_t errlen);

void cli_drive_close(struct cli_drive *d);

#endif
