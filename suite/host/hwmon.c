/* SPDX-License-Identifier: MIT */
/*
 * hwmon: a drive's temperature sensor (hwmon.h). The directories are searched with glob-free
 * readdir so that a fake tree in a test works the same as /sys.
 */
#include "host/hwmon.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/sysfs.h"

/* The first hwmonN under dir with a temp1_input, lowest N first (readdir's order is not
 * stable; a drive with two sensor devices is unknown to us, but be deterministic). */
static int scan(const char *dir, struct hwmon_temp *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	long best = -1;
	char val[32];

	if (!d)
		return -ENOENT;
	while ((e = readdir(d))) {
		char sub[PATH_MAX], *end;
		long n;

		if (strncmp(e->d_name, "hwmon", 5) || !e->d_name[5])
			continue;
		n = strtol(e->d_name + 5, &end, 10);
		if (*end || n < 0 || (best >= 0 && n >= best))
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name) >= (int)sizeof(sub))
			continue;
		if (sysfs_read(sub, "temp1_input", val, sizeof(val)) <= 0)
			continue;
		best = n;
		snprintf(out->dir, sizeof(out->dir), "%s", sub);
	}
	closedir(d);
	if (best < 0)
		return -ENOENT;
	if (sysfs_read(out->dir, "name", out->name, sizeof(out->name)) < 0)
		out->name[0] = 0;
	return 0;
}

int hwmon_temp_find(const char *sysfs, const char *disk, const char *ctrl, struct hwmon_temp *out)
{
	char dir[PATH_MAX];
	struct hwmon_temp h;
	const char *root = sysfs ? sysfs : "/sys";

	if (!disk || !*disk || strchr(disk, '/'))
		return -ENOENT;
	snprintf(dir, sizeof(dir), "%s/block/%s/device", root, disk);
	if (!scan(dir, &h))
		goto found;
	snprintf(dir, sizeof(dir), "%s/block/%s/device/hwmon", root, disk);
	if (!scan(dir, &h))
		goto found;
	if (ctrl && *ctrl && !strchr(ctrl, '/')) {
		snprintf(dir, sizeof(dir), "%s/class/nvme/%s", root, ctrl);
		if (!scan(dir, &h))
			goto found;
	}
	return -ENOENT;
found:
	*out = h;
	return 0;
}

int hwmon_temp_read(const struct hwmon_temp *h, double *celsius)
{
	char buf[32], *end;
	long long v;
	ssize_t n = sysfs_read(h->dir, "temp1_input", buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	if (!n)
		return -ENOENT;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (*end || errno)
		return -EINVAL;
	*celsius = (double)v / 1000.0; /* millidegrees (sysfs-interface.rst) */
	return 0;
}

bool hwmon_temp_drains_queue(const struct hwmon_temp *h)
{
	/* Only the NVMe sensor is known to go through a queue of its own (the admin queue). Any
	 * other driver (drivetemp, an unknown one) may send a non-queued command: assume it does. */
	return strcmp(h->name, "nvme") != 0;
}
