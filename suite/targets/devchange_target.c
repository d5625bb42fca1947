/* SPDX-License-Identifier: MIT */
/*
 * devchange_target: the devchange context of an open target (see devchange_target.h).
 */
#include "targets/devchange_target.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/errmsg.h"

static int add_str(struct json_object *o, const char *key, const char *v)
{
	struct json_object *s = json_object_new_string(v ? v : "");

	if (!s || json_object_object_add(o, key, s)) {
		json_object_put(s);
		return -1;
	}
	return 0;
}

struct json_object *devchange_target_identity(const struct target_info *ti)
{
	struct json_object *o = json_object_new_object();
	const struct drive_ident *d = ti->has_drive ? &ti->drive : NULL;

	if (!o)
		return NULL;
	/* The drive's own serial when it answered (what a swapped drive changes), else sysfs's. */
	if (add_str(o, "path", ti->path) ||
	    add_str(o, "serial", d ? drive_ident_serial(d) : ti->serial) ||
	    add_str(o, "wwn", ti->wwn) ||
	    add_str(o, "model", d ? drive_ident_model(d) : ti->model) ||
	    add_str(o, "transport", d ? d->transport : "") ||
	    (d && d->kind == DRIVE_IDENT_NVME &&
	     json_object_object_add(o, "nsid", json_object_new_int64(d->nsid)))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* The SATA host's link_power_management_policy for the block device at path: the "hostN"
 * directory on the device's sysfs path (as devinfo finds it for `info`). 0 or -ENOENT. */
static int alpm_path_of(const char *path, char out[DEVCHANGE_ALPM_PATH_MAX])
{
	char link[64], *real, *h;
	struct stat st;
	unsigned long n;
	int rc = -ENOENT;

	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return -ENOENT;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	real = realpath(link, NULL);
	if (!real)
		return -ENOENT;
	for (h = strstr(real, "/host"); h; h = strstr(h + 1, "/host")) {
		char *end;

		n = strtoul(h + 5, &end, 10);
		if (end != h + 5 && *end == '/') {
			snprintf(out, DEVCHANGE_ALPM_PATH_MAX,
				 "/sys/class/scsi_host/host%lu/link_power_management_policy", n);
			rc = access(out, F_OK) ? -ENOENT : 0;
			break;
		}
	}
	free(real);
	return rc;
}

int devchange_target_ctx(const struct target_info *ti, int fd, struct json_object *identity,
			 struct journal *j, uint64_t (*wall_ns)(void), struct devchange_ctx *c,
			 char alpm[DEVCHANGE_ALPM_PATH_MAX], char *err, size_t errlen)
{
	const struct drive_ident *d = &ti->drive;

	if (ti->kind != TARGET_KIND_BLOCKDEV || !ti->has_drive)
		return errmsg_set(err, errlen, -EOPNOTSUPP,
				  "%s is not a drive ssdlab can send commands to", ti->path);
	if (d->kind == DRIVE_IDENT_OTHER || !d->read)
		return errmsg_set(err, errlen, -EOPNOTSUPP,
				  "%s: no NVMe or ATA drive answered (%s)", ti->path,
				  d->reason[0] ? d->reason : "transport unknown");
	memset(c, 0, sizeof(*c));
	c->ops = &ioctl_ops_real;
	c->fd = fd;
	c->path = ti->path;
	c->transport = d->kind == DRIVE_IDENT_NVME ? DRIVEDB_NVME : DRIVEDB_ATA;
	c->nsid = d->kind == DRIVE_IDENT_NVME ? d->nsid : 0;
	/* the kernel's disk: the namespace kind sends its commands to the controller named in
	 * sysfs and rescans it afterwards (without it, through the namespace's own block device,
	 * which the delete removes, and the kernel would keep the old size) */
	c->sysfs_disk = d->kind == DRIVE_IDENT_NVME && ti->nvme.ns[0] ? ti->nvme.ns : NULL;
	c->identity = identity;
	c->journal = j;
	c->wall_ns = wall_ns;
	if (d->kind == DRIVE_IDENT_SATA && !alpm_path_of(ti->path, alpm))
		c->alpm_path = alpm;
	return 0;
}
