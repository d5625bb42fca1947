// SPDX-License-Identifier: MIT
/*
 * ns_file_drive: cli/drive_open.h for the TEST-ONLY program ssdlab-ns-scripted (the cli sources
 * with this file in place of suite/cli/drive_open.c): DEV is a state file holding a scripted NVMe
 * controller with one namespace (nsid 1, attached to controller CNTLID 0x41), so that `namespace
 * --set` and `restore` can run as two processes, one of them killed -9 between the delete and the
 * create, and the second still find the namespace as the first left it, as a real controller
 * would. The file, one "key value" a line after the line "ns-drive 1":
 *   exists attached nsze ncap flbas dps nmic   the namespace (nsze/ncap in blocks; FLBAS bits 3:0
 *                                             index two formats: 0 = 512 B, 1 = 4096 B)
 *   tnvmcap                                   the controller's capacity in bytes; UNVMCAP is
 *                                             tnvmcap less what the namespace allocates
 *   oacs effects                              OACS; the log 0x05: 0 absent, 1 lists 0x0D and 0x15,
 *                                             2 lists only 0x15 (QEMU 7.2)
 *   transport                                 "nvme" (default): what sysfs would say
 *   stall_op                                  an admin opcode: once the controller has carried
 *                                             it out (state saved), the process writes
 *                                             DEV.stalled and waits for the test's kill -9
 * It is rewritten atomically after every command. Every admin command is appended to DEV.cmds as
 * "OPCODE NSID CDW10" in hex, and for Namespace Management and Attachment the first 32 data bytes.
 * Nothing of this is in the shipped ssdlab.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../unit/nvme_script.h"
#include "base/fileio.h"
#include "cli/clock.h"
#include "cli/drive_open.h"
#include "host/nvme_admin.h"
#include "results/files.h"

#define CNTLID 0x41

struct ns_state {
	unsigned long long exists, attached, nsze, ncap, flbas, dps, nmic, tnvmcap, oacs, effects,
	    stall_op;
};

struct file_drive {
	struct ns_state s;
	char transport[16];
	char path[4096];
	struct ioctl_ops ops;
};

#define FIELDS(X)                                                                                  \
	X(exists)                                                                                  \
	X(attached) X(nsze) X(ncap) X(flbas) X(dps) X(nmic) X(tnvmcap) X(oacs) X(effects)          \
	    X(stall_op)

static int load(struct file_drive *f, char *err, size_t errlen)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len;
	int rc = fileio_read_file(f->path, 1 << 16, &buf, &len);

	if (rc) {
		snprintf(err, errlen, "%s: %s", f->path, strerror(-rc));
		return rc;
	}
	if (strncmp(buf, "ns-drive 1\n", 11)) {
		snprintf(err, errlen, "%s is not a scripted drive (no \"ns-drive 1\" line)",
			 f->path);
		free(buf);
		return -ENODEV;
	}
	snprintf(f->transport, sizeof f->transport, "nvme");
	for (line = strtok_r(buf + 11, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char key[32], val[32];

		if (sscanf(line, "%31s %31s", key, val) != 2)
			continue;
		if (!strcmp(key, "transport"))
			snprintf(f->transport, sizeof f->transport, "%.15s", val);
#define LOAD(k) else if (!strcmp(key, #k)) f->s.k = strtoull(val, NULL, 0);
		FIELDS(LOAD)
#undef LOAD
	}
	free(buf);
	return 0;
}

static int save(const struct file_drive *f)
{
	char buf[2048];
	int n = snprintf(buf, sizeof buf, "ns-drive 1\ntransport %s\n", f->transport);

#define SAVE(k) n += snprintf(buf + n, sizeof buf - (size_t)n, #k " %llu\n", f->s.k);
	FIELDS(SAVE)
#undef SAVE
	return files_atomic_write(f->path, buf, (size_t)n);
}

static int log_cmd(const struct file_drive *f, const struct nvme_admin_cmd *cmd)
{
	const uint8_t *p = (const uint8_t *)(uintptr_t)cmd->addr;
	char path[4200], line[256];
	int lf, n;

	n = snprintf(line, sizeof line, "%02x %x %08x", cmd->opcode, cmd->nsid, cmd->cdw10);
	if ((cmd->opcode == 0x0d || cmd->opcode == 0x15) && p && cmd->data_len >= 32)
		for (int i = 0; i < 32; i++)
			n += snprintf(line + n, sizeof line - (size_t)n, " %02x", p[i]);
	line[n++] = '\n';
	snprintf(path, sizeof path, "%s.cmds", f->path);
	lf = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (lf < 0)
		return -errno;
	n = files_write_all(lf, line, (size_t)n);
	close(lf);
	return n;
}

/* The namespace's Identify page (CNS 0x00 and 0x11 answer the same here). */
static void ns_page(const struct ns_state *s, uint8_t *p)
{
	nvme_put_le(p, s->nsze, 8);
	nvme_put_le(p + 8, s->ncap, 8);
	nvme_put_le(p + 16, s->ncap, 8); /* NUSE: all of it written */
	p[25] = 1;			 /* NLBAF 0's: two formats */
	p[26] = (uint8_t)s->flbas;
	p[29] = (uint8_t)s->dps;
	p[30] = (uint8_t)s->nmic;
	nvme_put_le(p + 102, 1, 2);	     /* ENDGID 1 */
	nvme_put_le(p + 128, 0x00090000, 4); /* LBAF 0: LBADS 9 */
	nvme_put_le(p + 132, 0x000c0000, 4); /* LBAF 1: LBADS 12 */
}

static uint64_t block_bytes(const struct ns_state *s)
{
	return (s->flbas & 0xf) ? 4096 : 512;
}

/* The controller: status (> 0) or 0, as the kernel's admin ioctl returns it. */
static int controller(struct ns_state *s, struct nvme_admin_cmd *cmd)
{
	uint8_t *p = (uint8_t *)(uintptr_t)cmd->addr;

	switch (cmd->opcode) {
	case 0x02: /* Get Log Page: only 0x05, whole */
		if (cmd->cdw10 != 0x03ff0005 || !s->effects)
			return 0x4002;
		memset(p, 0, cmd->data_len);
		p[4 * 0x15] = 1;
		if (s->effects == 1)
			p[4 * 0x0d] = 1;
		return 0;
	case 0x06:
		memset(p, 0, cmd->data_len);
		if (cmd->cdw10 == 1) {
			uint64_t used = s->exists ? s->nsze * block_bytes(s) : 0;

			memcpy(p + 4, "SCRIPTEDNS01", 12);
			memcpy(p + 24, "SCRIPTED NVME CONTROLLER", 24);
			nvme_put_le(p + 78, CNTLID, 2);
			nvme_put_le(p + 256, s->oacs, 2);
			nvme_put_le(p + 280, s->tnvmcap, 8);
			nvme_put_le(p + 296, s->tnvmcap - used, 8);
			return 0;
		}
		if (cmd->nsid != 1)
			return 0x400b;
		if (cmd->cdw10 == 0x11 || cmd->cdw10 == 0) {
			/* CNS 0 answers zeros for a namespace not attached (NVMe 2.0 5.17.2.1) */
			if (!s->exists)
				return 0x400b;
			if (cmd->cdw10 == 0x11 || s->attached)
				ns_page(s, p);
			return 0;
		}
		if (cmd->cdw10 == 0x12) {
			if (s->exists && s->attached) {
				p[0] = 1;
				p[2] = CNTLID;
			}
			return 0;
		}
		return 0x4002;
	case 0x15:
		if (!s->exists || cmd->nsid != 1 || p[0] != 1 || p[2] != CNTLID)
			return 0x4002;
		if ((cmd->cdw10 == 0) == (bool)s->attached)
			return cmd->cdw10 ? 0x4119 : 0x4118; /* not attached / already attached */
		s->attached = cmd->cdw10 == 0;
		return 0;
	case 0x0d:
		if (s->effects == 2)
			return 0x4001; /* Invalid Opcode, as QEMU 7.2 */
		if (cmd->cdw10 == 1) {
			if (!s->exists || cmd->nsid != 1)
				return 0x400b;
			s->exists = s->attached = 0;
			return 0;
		}
		if (cmd->cdw10 != 0 || cmd->nsid != 0 || s->exists)
			return 0x4002;
		s->exists = 1;
		s->nsze = nvme_le(p, 8);
		s->ncap = nvme_le(p + 8, 8);
		s->flbas = p[26];
		s->dps = p[29];
		s->nmic = p[30];
		cmd->result = 1;
		return 0;
	}
	return 0x4001;
}

static int file_admin(void *ctx, int fd, struct nvme_admin_cmd *cmd)
{
	struct file_drive *f = ctx;
	char p[4200];
	int rc, st;

	(void)fd;
	rc = log_cmd(f, cmd);
	if (rc)
		return rc;
	st = controller(&f->s, cmd);
	rc = save(f);
	if (rc)
		return rc;
	if (!st && f->s.stall_op && cmd->opcode == f->s.stall_op) {
		/* the controller carried the command out; the process dies here, under kill -9 */
		snprintf(p, sizeof p, "%s.stalled", f->path);
		if (files_atomic_write(p, "stalled\n", 8))
			return -EIO;
		for (;;)
			pause();
	}
	return st;
}

int cli_drive_open(const char *path, struct cli_drive *d, char *err, size_t errlen)
{
	struct file_drive *f;
	int rc;

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	f = calloc(1, sizeof(*f));
	if (!f) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	d->impl = f;
	snprintf(f->path, sizeof f->path, "%s", path);
	rc = load(f, err, errlen);
	if (rc)
		return rc;
	f->ops = (struct ioctl_ops){.admin = file_admin, .ctx = f};
	d->ops = &f->ops;
	snprintf(d->transport, sizeof d->transport, "%s", f->transport);
	/* a real descriptor, so that nothing mistakes it for a closed one; never read */
	d->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (d->fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return rc;
	}
	return 0;
}

int cli_drive_ctx(struct cli_drive *d, const char *path, struct journal *j, struct devchange_ctx *c,
		  char *err, size_t errlen)
{
	struct json_object *o;

	if (!d->identity) {
		/* what devchange_target_identity writes for this namespace */
		o = json_object_new_object();
		if (!o || json_object_object_add(o, "path", json_object_new_string(path)) ||
		    json_object_object_add(o, "serial", json_object_new_string("SCRIPTEDNS01")) ||
		    json_object_object_add(o, "wwn", json_object_new_string("")) ||
		    json_object_object_add(o, "model",
					   json_object_new_string("SCRIPTED NVME CONTROLLER")) ||
		    json_object_object_add(o, "transport", json_object_new_string("nvme")) ||
		    json_object_object_add(o, "nsid", json_object_new_int(1))) {
			json_object_put(o);
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		d->identity = o;
	}
	memset(c, 0, sizeof(*c));
	c->ops = d->ops;
	c->fd = d->fd;
	c->path = path;
	c->transport = DRIVEDB_NVME;
	c->nsid = 1;
	c->identity = d->identity;
	c->journal = j;
	c->wall_ns = cli_wall_ns;
	return 0;
}

void cli_drive_close(struct cli_drive *d)
{
	if (!d)
		return;
	json_object_put(d->identity);
	d->identity = NULL;
	free(d->impl);
	d->impl = NULL;
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}
