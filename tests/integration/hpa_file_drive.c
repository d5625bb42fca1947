// SPDX-License-Identifier: MIT
/*
 * hpa_file_drive: cli/drive_open.h for the TEST-ONLY program ssdlab-hpa-scripted (the cli
 * sources with this file in place of suite/cli/drive_open.c): DEV is a state file holding a
 * scripted SATA drive (tests/unit/hpa_drive.h), so that `hpa --set` and `restore` can run as two
 * processes, one of them killed, and the second still find the HPA the first one set, as a real
 * drive would keep it. The file, one "key value" a line after the line "hpa-drive 1":
 *   native_max_lba current_max_lba last_volatile nv_set_this_cycle amac amac_frozen no_hpa_bit
 *   dco dco_max_lba frozen locked fail_op no_passthrough last_op   the drive (hpa_drive.h)
 *   transport   "sata" (default) or "usb": what sysfs would say
 *   stall_op    an opcode: once the drive has carried it out (state saved), the process writes
 *               DEV.stalled and waits forever, for the test to kill -9 it
 * It is rewritten atomically after every command, and every CDB is appended to DEV.cdbs as 16
 * hex bytes a line. Nothing of this is in the shipped ssdlab.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../unit/hpa_drive.h"
#include "base/fileio.h"
#include "cli/clock.h"
#include "cli/drive_open.h"
#include "results/files.h"

struct file_drive {
	struct hpa_drive d;
	char transport[16];
	unsigned stall_op; /* 0: none */
	char path[4096];
	struct ioctl_ops ops;
};

#define FIELDS(X)                                                                                 \
	X(native_max_lba) X(current_max_lba) X(last_volatile) X(nv_set_this_cycle) X(amac)      \
	    X(amac_frozen) X(no_hpa_bit) X(dco) X(dco_max_lba) X(frozen) X(locked) X(fail_op)     \
		X(no_passthrough) X(last_op)

static int load(struct file_drive *f, char *err, size_t errlen)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len;
	int rc = fileio_read_file(f->path, 1 << 16, &buf, &len);

	if (rc) {
		snprintf(err, errlen, "%s: %s", f->path, strerror(-rc));
		return rc;
	}
	if (strncmp(buf, "hpa-drive 1\n", 12)) {
		snprintf(err, errlen, "%s is not a scripted drive (no \"hpa-drive 1\" line)", f->path);
		free(buf);
		return -ENODEV;
	}
	snprintf(f->transport, sizeof f->transport, "sata");
	for (line = strtok_r(buf + 12, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char key[32], val[32];
		unsigned long long v;

		if (sscanf(line, "%31s %31s", key, val) != 2)
			continue;
		if (!strcmp(key, "transport")) {
			snprintf(f->transport, sizeof f->transport, "%.15s", val);
			continue;
		}
		v = strtoull(val, NULL, 0);
		if (!strcmp(key, "stall_op"))
			f->stall_op = (unsigned)v;
#define LOAD(k)                                                                                   \
	else if (!strcmp(key, #k)) f->d.k = (__typeof__(f->d.k))v;
		FIELDS(LOAD)
#undef LOAD
	}
	free(buf);
	return 0;
}

static int save(const struct file_drive *f)
{
	char buf[2048];
	int n = snprintf(buf, sizeof buf, "hpa-drive 1\ntransport %s\nstall_op %u\n", f->transport,
			 f->stall_op);

#define SAVE(k)                                                                                   \
	n += snprintf(buf + n, sizeof buf - (size_t)n, #k " %llu\n", (unsigned long long)f->d.k);
	FIELDS(SAVE)
#undef SAVE
	return files_atomic_write(f->path, buf, (size_t)n);
}

static int file_sg_io(void *ctx, int fd, struct sg_io_hdr *h)
{
	struct file_drive *f = ctx;
	const uint8_t *c = h->cmdp;
	char p[4200], line[64];
	int rc, lf, n = 0;

	snprintf(p, sizeof p, "%s.cdbs", f->path);
	for (unsigned i = 0; i < 16 && h->cmd_len >= 16; i++)
		n += snprintf(line + n, sizeof line - (size_t)n, i ? " %02x" : "%02x", c[i]);
	line[n++] = '\n';
	lf = open(p, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (lf < 0 || files_write_all(lf, line, (size_t)n)) {
		if (lf >= 0)
			close(lf);
		return -EIO;
	}
	close(lf);
	rc = hpa_drive_sg_io(&f->d, fd, h);
	if (rc)
		return rc;
	rc = save(f);
	if (rc)
		return rc;
	if (f->stall_op && h->cmd_len >= 16 && c[14] == f->stall_op) {
		/* the drive carried the command out; the process dies here, under kill -9 */
		snprintf(p, sizeof p, "%s.stalled", f->path);
		if (files_atomic_write(p, "stalled\n", 8))
			return -EIO;
		for (;;)
			pause();
	}
	return 0;
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
	f->ops = (struct ioctl_ops){.sg_io = file_sg_io, .ctx = f};
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
		/* what devchange_target_identity writes for this drive: IDENTIFY's serial and model */
		o = json_object_new_object();
		if (!o || json_object_object_add(o, "path", json_object_new_string(path)) ||
		    json_object_object_add(o, "serial", json_object_new_string("HPA0001")) ||
		    json_object_object_add(o, "wwn", json_object_new_string("")) ||
		    json_object_object_add(o, "model",
					   json_object_new_string("SCRIPTED HPA DRIVE")) ||
		    json_object_object_add(o, "transport", json_object_new_string("sata"))) {
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
	c->transport = DRIVEDB_ATA;
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
