// SPDX-License-Identifier: MIT
/*
 * devchange_nvme_ns: the `nvme_namespace` devchange kind (devchange_nvme_ns.h says what it does
 * and why in that order).
 */
#include "targets/devchange_nvme_ns.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/errmsg.h"
#include "host/devinfo.h"
#include "host/nvme_admin.h"
#include "host/nvme_format.h"
#include "host/nvme_ident.h"

/* Identify CNS 0x11: the namespace data of an allocated (also detached) namespace. */
#define CNS_NS_ALLOCATED 0x11
/* Status "Invalid Namespace or Format" (SCT 0, SC 0x0B): no such namespace. */
#define NVME_SC_INVALID_NS 0x0b

static const struct ioctl_ops *ops_of(const struct devchange_ctx *c)
{
	return c->ops ? c->ops : &ioctl_ops_real;
}

/*
 * The controller whose serial is the journal identity's: the namespace's block device is gone
 * after a change that failed between its delete and its create, and the restore still has to
 * reach the controller. 0 with its name in out, else -ENODEV.
 */
static int ctrl_by_serial(const struct devchange_ctx *c, char *out, size_t len)
{
	struct json_object *s = NULL;
	const char *want;
	struct dirent *e;
	char path[300], got[64];
	int rc = -ENODEV;
	DIR *d;

	if (!c->identity || !json_object_object_get_ex(c->identity, "serial", &s) ||
	    !(want = json_object_get_string(s)) || !*want)
		return -ENODEV;
	d = opendir("/sys/class/nvme");
	if (!d)
		return -ENODEV;
	while (rc && (e = readdir(d))) {
		FILE *f;

		if (strncmp(e->d_name, "nvme", 4))
			continue;
		snprintf(path, sizeof path, "/sys/class/nvme/%s/serial", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(got, sizeof got, f)) {
			got[strcspn(got, " \n")] = 0; /* sysfs pads the serial with spaces */
			if (!strcmp(got, want) && strlen(e->d_name) < len) {
				memcpy(out, e->d_name, strlen(e->d_name) + 1);
				rc = 0;
			}
		}
		fclose(f);
	}
	closedir(d);
	return rc;
}

/* The controller's character device, open; or c->fd when there is no kernel device (tests). */
static int ctrl_open(const struct devchange_ctx *c, char *err, size_t errlen)
{
	struct devinfo_nvme nv;
	char path[64];
	int fd, rc;

	if (!c->sysfs_disk) {
		fd = dup(c->fd); /* closed like an opened one */
		return fd < 0 ? errmsg_set(err, errlen, -errno, "dup: %s", strerror(errno)) : fd;
	}
	rc = devinfo_nvme_topology(NULL, c->sysfs_disk, &nv);
	if ((rc || !nv.controller[0]) && ctrl_by_serial(c, nv.controller, sizeof nv.controller))
		return errmsg_set(
		    err, errlen, rc ? rc : -ENODEV,
		    "%s: sysfs names no NVMe controller for it, nor one with its serial",
		    c->sysfs_disk);
	snprintf(path, sizeof path, "/dev/%s", nv.controller);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return errmsg_set(err, errlen, -errno, "%s: %s", path, strerror(errno));
	return fd;
}

/*
 * A controller outside an NVM subsystem may not list a namespace's controllers (QEMU without
 * nvme-subsys answers CNS 0x12 with Invalid Field): then the namespace is attached to this
 * controller (CNTLID: Identify Controller bytes 79:78) when it is active here (CNS 0x00 has it).
 */
static int attached_here(const struct devchange_ctx *c, int fd, uint32_t nsid,
			 struct nvme_ns_layout *l, char *err, size_t errlen)
{
	_Alignas(4096) uint8_t page[NVME_IDENTIFY_LEN];
	struct nvme_admin_cmd cmd;
	int rc;

	nvme_identify_cmd(&cmd, nsid, NVME_CNS_NS, page);
	rc = nvme_admin_send(ops_of(c), fd, &cmd, "Identify Namespace (CNS 0x00)", err, errlen);
	if (rc)
		return rc;
	l->nctrl = 0;
	if (!nvme_le(page, 8))
		return 0; /* allocated, not attached here */
	nvme_identify_cmd(&cmd, 0, NVME_CNS_CTRL, page);
	rc = nvme_admin_send(ops_of(c), fd, &cmd, "Identify Controller", err, errlen);
	if (rc)
		return rc;
	l->nctrl = 1;
	l->ctrl[0] = (uint16_t)nvme_le(page + 78, 2);
	return 0;
}

/* The namespace's layout (CNS 0x11) and the controllers it is attached to (CNS 0x12); nsze 0
 * when the namespace does not exist. */
static int layout_read(const struct devchange_ctx *c, int fd, uint32_t nsid,
		       struct nvme_ns_layout *l, char *err, size_t errlen)
{
	_Alignas(4096) uint8_t page[NVME_IDENTIFY_LEN];
	struct nvme_admin_cmd cmd;
	int rc;

	memset(page, 0, sizeof page);
	nvme_identify_cmd(&cmd, nsid, CNS_NS_ALLOCATED, page);
	rc = ops_of(c)->admin(ops_of(c)->ctx, fd, &cmd);
	if (rc > 0 && (rc & 0x7ff) == NVME_SC_INVALID_NS) {
		memset(l, 0, sizeof *l);
		return 0;
	}
	if (rc < 0)
		return errmsg_set(err, errlen, rc, "Identify allocated namespace (CNS 0x11): %s",
				  strerror(-rc));
	if (rc)
		return errmsg_set(err, errlen, -EIO,
				  "Identify allocated namespace (CNS 0x11): NVMe status 0x%04x",
				  rc);
	nvme_ns_layout_decode(page, l);
	if (!l->nsze)
		return 0;
	nvme_identify_cmd(&cmd, nsid, NVME_CNS_NS_CTRL_LIST, page);
	rc = nvme_admin_send(ops_of(c), fd, &cmd, "Identify attached controller list (CNS 0x12)",
			     err, errlen);
	if (rc == -EOPNOTSUPP)
		return attached_here(c, fd, nsid, l, err, errlen);
	if (rc)
		return rc;
	nvme_ctrl_list_decode(page, l);
	return 0;
}

static int to_json(uint32_t nsid, const struct nvme_ns_layout *l, struct json_object **out,
		   char *err, size_t errlen)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	int bad = !o || !a;

	bad = bad || json_object_object_add(o, "nsid", json_object_new_int64(nsid));
	bad = bad || json_object_object_add(o, "nsze", json_object_new_uint64(l->nsze));
	bad = bad || json_object_object_add(o, "ncap", json_object_new_uint64(l->ncap));
	bad = bad || json_object_object_add(o, "flbas", json_object_new_int(l->flbas));
	bad = bad || json_object_object_add(o, "dps", json_object_new_int(l->dps));
	bad = bad || json_object_object_add(o, "nmic", json_object_new_int(l->nmic));
	for (uint16_t i = 0; !bad && i < l->nctrl; i++)
		bad = json_object_array_add(a, json_object_new_int(l->ctrl[i]));
	if (!bad) {
		bad = json_object_object_add(o, "controllers", a);
		a = NULL;
	}
	if (bad) {
		json_object_put(a);
		json_object_put(o);
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	}
	*out = o;
	return 0;
}

static bool num(struct json_object *o, const char *key, uint64_t *v)
{
	struct json_object *x;

	if (!o || !json_object_object_get_ex(o, key, &x) || !json_object_is_type(x, json_type_int))
		return false;
	*v = json_object_get_uint64(x);
	return true;
}

static int from_json(struct json_object *o, uint32_t *nsid, struct nvme_ns_layout *l, char *err,
		     size_t errlen)
{
	uint64_t id, f, d, m;
	struct json_object *a;

	memset(l, 0, sizeof *l);
	if (!num(o, "nsid", &id) || !num(o, "nsze", &l->nsze) || !num(o, "ncap", &l->ncap) ||
	    !num(o, "flbas", &f) || !num(o, "dps", &d) || !num(o, "nmic", &m) ||
	    !json_object_object_get_ex(o, "controllers", &a) ||
	    !json_object_is_type(a, json_type_array))
		return errmsg_set(err, errlen, -EINVAL,
				  "an nvme_namespace value needs nsid, nsze, ncap, flbas, dps, "
				  "nmic and controllers");
	*nsid = (uint32_t)id;
	l->flbas = (uint8_t)f;
	l->dps = (uint8_t)d;
	l->nmic = (uint8_t)m;
	for (size_t i = 0; i < json_object_array_length(a) && i < 16; i++)
		l->ctrl[l->nctrl++] =
		    (uint16_t)json_object_get_int(json_object_array_get_idx(a, i));
	return 0;
}

/*
 * Whether the controller really does namespace management: OACS bit 3, and, where the drive has
 * the Commands Supported and Effects log (0x05), Namespace Management (0x0D) and Attachment (0x15)
 * listed as supported there. QEMU 7.2 advertises OACS bit 3 and answers a delete with Invalid
 * Opcode: without this check the change would detach the namespace and then fail.
 */
static int mgmt_supported(const struct devchange_ctx *c, int fd, char *err, size_t errlen)
{
	_Alignas(4096) uint8_t page[NVME_IDENTIFY_LEN];
	struct nvme_admin_cmd cmd;
	int rc;

	nvme_identify_cmd(&cmd, 0, NVME_CNS_CTRL, page);
	rc = nvme_admin_send(ops_of(c), fd, &cmd, "Identify Controller", err, errlen);
	if (rc)
		return rc == -EOPNOTSUPP ? -EIO : rc;
	if (!(nvme_le(page + 256, 2) & NVME_OACS_NS_MGMT))
		return errmsg_set(err, errlen, -EOPNOTSUPP,
				  "%s: the controller has no namespace management (OACS bit 3 "
				  "clear)",
				  c->path);
	memset(page, 0, sizeof page);
	nvme_get_log_cmd(&cmd, 0, NVME_LOG_CMD_EFFECTS, page, sizeof page);
	rc = nvme_admin_send(ops_of(c), fd, &cmd,
			     "Get Log Page 0x05 (Commands Supported and Effects)", err, errlen);
	if (rc == -EOPNOTSUPP)
		return 0; /* no such log: OACS is all the drive says */
	if (rc)
		return rc;
	/* ACS: one dword per admin opcode from byte 0, bit 0 CSUPP */
	if (!(page[4 * NVME_ADMIN_NS_MGMT] & 1) || !(page[4 * NVME_ADMIN_NS_ATTACH] & 1))
		return errmsg_set(err, errlen, -EOPNOTSUPP,
				  "%s: the controller advertises namespace management (OACS bit 3) "
				  "but its Commands "
				  "Supported and Effects log does not list Namespace Management "
				  "(0x0D) and Attachment "
				  "(0x15) as supported",
				  c->path);
	return 0;
}

int devchange_nvme_ns_supported(const struct devchange_ctx *c, char *err, size_t errlen)
{
	int fd, rc;

	if (c->transport != DRIVEDB_NVME || !c->nsid)
		return errmsg_set(err, errlen, -EOPNOTSUPP, "%s is not an NVMe namespace", c->path);
	fd = ctrl_open(c, err, errlen);
	if (fd < 0)
		return fd;
	rc = mgmt_supported(c, fd, err, errlen);
	close(fd);
	return rc;
}

static int ns_read(const struct devchange_ctx *c, struct json_object **value, char *err,
		   size_t errlen)
{
	struct nvme_ns_layout l;
	int fd, rc;

	if (c->transport != DRIVEDB_NVME || !c->nsid)
		return errmsg_set(err, errlen, -EOPNOTSUPP, "%s is not an NVMe namespace", c->path);
	fd = ctrl_open(c, err, errlen);
	if (fd < 0)
		return fd;
	rc = mgmt_supported(c, fd, err, errlen);
	if (!rc)
		rc = layout_read(c, fd, c->nsid, &l, err, errlen);
	close(fd);
	return rc ? rc : to_json(c->nsid, &l, value, err, errlen);
}

static int ns_describe(const struct devchange_ctx *c, struct json_object *to, char *cmd,
		       size_t cmdlen)
{
	struct nvme_ns_layout l;
	uint32_t nsid;
	int rc = from_json(to, &nsid, &l, cmd, cmdlen);

	(void)c;
	if (rc)
		return rc;
	snprintf(cmd, cmdlen,
		 "NVMe Namespace Attachment (0x15) detach nsid %u; Namespace Management (0x0D) "
		 "delete nsid %u; "
		 "create NSZE %llu NCAP %llu FLBAS 0x%02x DPS 0x%02x NMIC 0x%02x; attach to %u "
		 "controller(s); "
		 "NVME_IOCTL_RESCAN",
		 nsid, nsid, (unsigned long long)l.nsze, (unsigned long long)l.ncap, l.flbas, l.dps,
		 l.nmic, l.nctrl);
	return 0;
}

/* Sends cmd, or prints it on a dry run. */
static int step(const struct devchange_ctx *c, int fd, struct nvme_admin_cmd *cmd, const char *what,
		char *err, size_t errlen)
{
	char line[640];

	if (c->dry_run) {
		nvme_cmd_describe(cmd, line, sizeof line);
		fprintf(c->dry_out ? c->dry_out : stdout, "would send: %s\n", line);
		return 0;
	}
	return nvme_admin_send(ops_of(c), fd, cmd, what, err, errlen);
}

static int attach(const struct devchange_ctx *c, int fd, uint32_t nsid,
		  const struct nvme_ns_layout *want, uint8_t *buf, char *err, size_t errlen)
{
	struct nvme_admin_cmd cmd;

	if (!want->nctrl)
		return 0;
	nvme_ns_attach_cmd(&cmd, nsid, true, want, buf);
	return step(c, fd, &cmd, "Namespace Attachment (attach)", err, errlen);
}

/* The kernel learns the new size only from a rescan of the controller. */
static int rescan(const struct devchange_ctx *c, int fd, char *err, size_t errlen)
{
	int rc;

	if (c->dry_run) {
		fprintf(c->dry_out ? c->dry_out : stdout,
			"would send: NVME_IOCTL_RESCAN to the controller\n");
		return 0;
	}
	if (!c->sysfs_disk)
		return 0; /* no kernel device (tests) */
	rc = ops_of(c)->blk ? ops_of(c)->blk(ops_of(c)->ctx, fd, NVME_IOCTL_RESCAN, NULL)
			    : (ioctl(fd, NVME_IOCTL_RESCAN) < 0 ? -errno : 0);
	return rc ? errmsg_set(err, errlen, rc, "NVME_IOCTL_RESCAN: %s", strerror(-rc)) : 0;
}

static int ns_send(const struct devchange_ctx *c, struct json_object *to, char *err, size_t errlen)
{
	_Alignas(4096) uint8_t buf[NVME_IDENTIFY_LEN];
	struct nvme_ns_layout want, now;
	struct nvme_admin_cmd cmd;
	uint32_t nsid;
	int fd, rc;

	rc = from_json(to, &nsid, &want, err, errlen);
	if (rc)
		return rc;
	if (!want.nsze || want.ncap > want.nsze)
		return errmsg_set(err, errlen, -EINVAL,
				  "namespace size %llu (capacity %llu) blocks",
				  (unsigned long long)want.nsze, (unsigned long long)want.ncap);
	fd = ctrl_open(c, err, errlen);
	if (fd < 0)
		return fd;
	rc = mgmt_supported(c, fd, err, errlen);
	if (rc)
		goto out;
	/* What is there now: a change that failed after the delete left nothing to delete, one that
	 * failed after the detach left the namespace as it was, only detached. */
	rc = layout_read(c, fd, nsid, &now, err, errlen);
	if (rc)
		goto out;
	if (now.nsze == want.nsze && now.ncap == want.ncap && now.flbas == want.flbas &&
	    now.dps == want.dps && now.nmic == want.nmic) {
		rc = now.nctrl ? 0 : attach(c, fd, nsid, &want, buf, err, errlen);
		if (!rc)
			rc = rescan(c, fd, err, errlen);
		goto out;
	}
	if (now.nsze) {
		if (now.nctrl) {
			nvme_ns_attach_cmd(&cmd, nsid, false, &now, buf);
			rc = step(c, fd, &cmd, "Namespace Attachment (detach)", err, errlen);
			if (rc)
				goto out;
		}
		nvme_ns_delete_cmd(&cmd, nsid);
		rc = step(c, fd, &cmd, "Namespace Management (delete)", err, errlen);
		if (rc)
			goto out;
	}
	nvme_ns_create_cmd(&cmd, &want, buf);
	rc = step(c, fd, &cmd, "Namespace Management (create)", err, errlen);
	if (rc)
		goto out;
	if (!c->dry_run && cmd.result != nsid) {
		/* the controller chose another id: the journal's identity (nsid) no longer names it
		 */
		rc = errmsg_set(err, errlen, -EIO, "the namespace came back as nsid %u, not %u",
				cmd.result, nsid);
		goto out;
	}
	rc = attach(c, fd, nsid, &want, buf, err, errlen);
	if (!rc)
		rc = rescan(c, fd, err, errlen);
out:
	close(fd);
	return rc;
}

static bool ns_same(struct json_object *a, struct json_object *b)
{
	struct nvme_ns_layout la, lb;
	uint32_t na, nb;
	char err[8];

	if (from_json(a, &na, &la, err, sizeof err) || from_json(b, &nb, &lb, err, sizeof err))
		return false;
	return na == nb && la.nsze == lb.nsze && la.ncap == lb.ncap && la.flbas == lb.flbas &&
	       la.dps == lb.dps && la.nmic == lb.nmic && la.nctrl == lb.nctrl &&
	       !memcmp(la.ctrl, lb.ctrl, sizeof la.ctrl);
}

/* A namespace's size is kept by the controller across power cycles until it is changed again. */
static bool ns_persistent(struct json_object *to)
{
	(void)to;
	return true;
}

const struct devchange_kind devchange_kind_nvme_namespace = {
    .name = "nvme_namespace",
    .id_prefix = "ns",
    .read = ns_read,
    .describe = ns_describe,
    .send = ns_send,
    .same = ns_same,
    .persistent = ns_persistent,
};

int devchange_nvme_ns_shrunk(const struct devchange_ctx *c, uint64_t bytes, struct json_object **to,
			     char *err, size_t errlen)
{
	_Alignas(4096) uint8_t page[NVME_IDENTIFY_LEN];
	struct nvme_admin_cmd cmd;
	struct nvme_id_ns ns;
	struct nvme_ns_layout l;
	uint64_t bs, blocks;
	int fd, rc;

	if (c->transport != DRIVEDB_NVME || !c->nsid)
		return errmsg_set(err, errlen, -EOPNOTSUPP, "%s is not an NVMe namespace", c->path);
	fd = ctrl_open(c, err, errlen);
	if (fd < 0)
		return fd;
	rc = layout_read(c, fd, c->nsid, &l, err, errlen);
	if (!rc && !l.nsze)
		rc = errmsg_set(err, errlen, -ENODEV, "namespace %u does not exist", c->nsid);
	if (!rc) {
		nvme_identify_cmd(&cmd, c->nsid, CNS_NS_ALLOCATED, page);
		rc = nvme_admin_send(ops_of(c), fd, &cmd, "Identify allocated namespace (CNS 0x11)",
				     err, errlen);
	}
	close(fd);
	if (rc)
		return rc;
	nvme_id_ns_decode(page, &ns);
	bs = 1ull << ns.lbaf[ns.lbaf_in_use].lbads;
	blocks = bytes / bs;
	if (!blocks || blocks > l.nsze)
		return errmsg_set(err, errlen, -EINVAL,
				  "%llu bytes is %llu blocks of %llu, the namespace has %llu",
				  (unsigned long long)bytes, (unsigned long long)blocks,
				  (unsigned long long)bs, (unsigned long long)l.nsze);
	l.nsze = l.ncap = blocks;
	return to_json(c->nsid, &l, to, err, errlen);
}
