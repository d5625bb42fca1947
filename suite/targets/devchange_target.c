/* SPDX-License-Identifier: MIT */
/*
 * devchange_target: the devchange context of an open target (see devchange_target.h).
 */
#include "targets/devchange_target.h"

#include <errno.h>
#include <string.h>

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
	if (add_str(o, "path", ti->path) || add_str(o, "serial", d ? drive_ident_serial(d) : ti->serial) ||
	    add_str(o, "wwn", ti->wwn) || add_str(o, "model", d ? drive_ident_model(d) : ti->model) ||
	    add_str(o, "transport", d ? d->transport : "") ||
	    (d && d->kind == DRIVE_IDENT_NVME &&
	     json_object_object_add(o, "nsid", json_object_new_int64(d->nsid)))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

int devchange_target_ctx(const struct target_info *ti, int fd, struct json_object *identity,
			 struct journal *j, uint64_t (*wall_ns)(void), struct devchange_ctx *c, char *err,
			 size_t errlen)
{
	const struct drive_ident *d = &ti->drive;

	if (ti->kind != TARGET_KIND_BLOCKDEV || !ti->has_drive)
		return errmsg_set(err, errlen, -EOPNOTSUPP, "%s is not a drive ssdlab can send commands to",
				  ti->path);
	if (d->kind == DRIVE_IDENT_OTHER || !d->read)
		return errmsg_set(err, errlen, -EOPNOTSUPP, "%s: no NVMe or ATA drive answered (%s)", ti->path,
				  d->reason[0] ? d->reason : "transport unknown");
	memset(c, 0, sizeof(*c));
	c->ops = &ioctl_ops_real;
	c->fd = fd;
	c->path = ti->path;
	c->transport = d->kind == DRIVE_IDENT_NVME ? DRIVEDB_NVME : DRIVEDB_ATA;
	c->nsid = d->kind == DRIVE_IDENT_NVME ? d->nsid : 0;
	c->identity = identity;
	c->journal = j;
	c->wall_ns = wall_ns;
	return 0;
}
