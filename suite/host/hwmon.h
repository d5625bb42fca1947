/* SPDX-License-Identifier: MIT */
/*
 * hwmon: a drive's temperature from the kernel's hwmon sensor files, through the one sysfs
 * reader, so that a target can report it without sending a command of its own.
 *
 * Where the kernel puts a drive's sensor (Documentation/hwmon/sysfs-interface.rst: temp1_input
 * in millidegrees Celsius, `name` the driver):
 *   - NVMe (drivers/nvme/host/hwmon.c, name "nvme"): registered on the controller's class device,
 *     <sysfs>/class/nvme/nvmeX/hwmonN, which is also <sysfs>/block/nvmeXnY/device/hwmonN for a
 *     namespace whose device link is the controller. Reading temp1_input makes the kernel send a
 *     Get Log Page 0x02 on the admin queue: it does not touch the I/O queues.
 *   - SATA with the drivetemp module (drivers/hwmon/drivetemp.c, name "drivetemp"): registered on
 *     the SCSI device, <sysfs>/block/sdX/device/hwmon/hwmonN. Reading it sends SMART READ DATA or
 *     an SCT status command, which are not NCQ commands: the drive finishes every queued I/O
 *     first. hwmon_temp_drains_queue() says so, and the engine then leaves it alone while it
 *     measures.
 */
#ifndef SSDLAB_HOST_HWMON_H
#define SSDLAB_HOST_HWMON_H

#include <limits.h>
#include <stdbool.h>

struct hwmon_temp {
	char dir[PATH_MAX]; /* the hwmonN directory holding temp1_input */
	char name[32];	    /* its `name` attribute: "nvme", "drivetemp" ("" when unreadable) */
};

/*
 * Finds the temperature sensor of the disk `disk` ("nvme0n1", "sda"; a whole disk, not a
 * partition) under sysfs (NULL = "/sys"): <sysfs>/block/DISK/device/hwmon*, then
 * <sysfs>/block/DISK/device/hwmon/hwmon*, then, when ctrl is given ("nvme0": a multipath head's
 * device link is the subsystem), <sysfs>/class/nvme/CTRL/hwmon*. The first directory with a
 * temp1_input wins. 0 and *out filled; -ENOENT when there is none (*out untouched).
 */
int hwmon_temp_find(const char *sysfs, const char *disk, const char *ctrl, struct hwmon_temp *out);

/* temp1_input of h in degrees Celsius. 0, or sysfs_read_u64()'s -errno (*celsius untouched).
 * A sensor reading below 0 degrees is read too (the attribute is signed). */
int hwmon_temp_read(const struct hwmon_temp *h, double *celsius);

/* Whether reading h costs a drive command that drains the queue (drivetemp: SATA SMART/SCT). */
bool hwmon_temp_drains_queue(const struct hwmon_temp *h);

#endif
