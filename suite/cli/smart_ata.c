// SPDX-License-Identifier: MIT
/*
 * smart_ata: `ssdlab smart DEV` for a SATA drive (see smart_ata.h). The drive is read through
 * host/ata_live.h, which decodes what it read as a libatasmart blob, so this prints exactly
 * what `--load` of the saved blob would print, plus the Device Statistics the blob format has
 * no block for.
 */
#include "cli/smart_ata.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/jsonnum.h"
#include "cli/cli.h"
#include "host/ata_live.h"

#define DEVSTAT_PREFIX "ata:devstat."

int smart_ata_devstat_json(struct json_object *raw, const struct devcounters *dc, const char *note)
{
	struct json_object *o = json_object_new_object();
	int e = 0;

	if (!o)
		return -ENOMEM;
	for (size_t i = 0; i < dc->n && !e; i++)
		if (!strncmp(dc->c[i].key, DEVSTAT_PREFIX, strlen(DEVSTAT_PREFIX)))
			/* 48-bit values: exact in a double */
			jsonnum_build_num(o, dc->c[i].key + strlen(DEVSTAT_PREFIX), (double)dc->c[i].value, &e);
	jsonnum_build_add(raw, "device_statistics", o, &e);
	if (!e)
		e = jsonnum_add(raw, "device_statistics_note", note && *note ? json_object_new_string(note) : NULL);
	return e;
}

int smart_ata_devstat_snapshot(const struct devcounters *dc, uint32_t sector_bytes, struct snapshot *snap)
{
	const struct devcounter *w = devcounters_get(dc, "ata:devstat.1.0x18");
	const struct devcounter *r = devcounters_get(dc, "ata:devstat.1.0x28");
	const struct devcounter *pu = devcounters_get(dc, "ata:devstat.7.0x08");
	int ret = 0;

	/* Logical Sectors Written / Read count logical sectors (ACS-3 A.5.3.x): x sector size */
	if (w && sector_bytes)
		ret = snapshot_set(snap, "host_bytes_written", "bytes", (double)w->value * sector_bytes);
	if (!ret && r && sector_bytes)
		ret = snapshot_set(snap, "host_bytes_read", "bytes", (double)r->value * sector_bytes);
	/* Percentage Used Endurance Indicator: bits 7:0 */
	if (!ret && pu)
		ret = snapshot_set(snap, "percentage_used", "percent", (double)(pu->value & 0xff));
	return ret;
}

static void print_plan(const char *dev)
{
	struct ata_cmd cmds[8];
	size_t n = ata_live_plan(cmds, sizeof cmds / sizeof cmds[0]);
	char line[320];

	printf("%s: ATA PASS-THROUGH(16) through SG_IO, in this order:\n", dev);
	for (size_t i = 0; i < n; i++) {
		ata_cmd_describe(&cmds[i], line, sizeof line);
		printf("  %s%s\n", line,
		       cmds[i].command != ATA_OP_READ_LOG_EXT ? ""
		       : (cmds[i].lba >> 8 & 0xff) == 0 ? " (only if IDENTIFY reports GPL)"
							  : " (only if page 0x00 lists the page)");
	}
}

static int write_blob(const char *path, const void *blob, size_t len)
{
	FILE *f = fopen(path, "wb");
	int ret = 0;

	if (!f)
		return -errno;
	if (fwrite(blob, 1, len, f) != len)
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

static void print_devstat_text(const struct ata_live *l)
{
	if (!l->devstat_read) {
		printf("Device Statistics: none (%s)\n", l->devstat_note);
		return;
	}
	printf("Device Statistics (log 0x04; supported and valid qwords only):\n");
	for (size_t i = 0; i < l->dc.n; i++)
		if (!strncmp(l->dc.c[i].key, DEVSTAT_PREFIX, strlen(DEVSTAT_PREFIX)))
			printf("  %-16s %llu\n", l->dc.c[i].key + strlen(DEVSTAT_PREFIX),
			       (unsigned long long)l->dc.c[i].value);
	if (l->devstat_note[0])
		printf("  (%s)\n", l->devstat_note);
}

int smart_ata_cmd(const char *dev, bool json, bool dry, const char *save)
{
	struct ata_live *l = NULL;
	char err[256];
	int fd = -1, ret, rc = EXIT_FAILED;

	if (dry) {
		print_plan(dev);
		return EXIT_OK;
	}
	l = malloc(sizeof *l);
	if (!l) {
		fprintf(stderr, "ssdlab smart: out of memory\n");
		return EXIT_FAILED;
	}
	/* read-only and non-blocking, as smartctl opens it: SG_IO needs no write access */
	fd = open(dev, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "ssdlab smart: %s: %s\n", dev, strerror(errno));
		goto out;
	}
	ret = ata_live_read(&ioctl_ops_real, fd, l, err, sizeof err);
	if (ret) {
		fprintf(stderr, "ssdlab smart: %s: %s%s\n", dev, err,
			ret == -EPERM || ret == -EACCES ? " (ATA PASS-THROUGH needs CAP_SYS_RAWIO: run as root)"
							: "");
		/* no SMART, or a device that takes no SG_IO / ATA PASS-THROUGH: a capability */
		if (ret == -EOPNOTSUPP || ret == -ENOTTY || ret == -EINVAL)
			rc = EXIT_CAPABILITY;
		goto out;
	}
	if (save) {
		ret = write_blob(save, l->blob, l->blob_len);
		if (ret) {
			fprintf(stderr, "ssdlab smart: %s: %s\n", save, strerror(-ret));
			goto out;
		}
	}
	if (json) {
		ret = smart_print_ata_json(&l->smart, "now", &l->dc, l->ident.logical_sector, l->devstat_note);
		if (ret) {
			fprintf(stderr, "ssdlab smart: %s\n", strerror(-ret));
			goto out;
		}
	} else {
		smart_print_ata_text(&l->smart);
		print_devstat_text(l);
	}
	rc = EXIT_OK;
out:
	if (fd >= 0)
		close(fd);
	free(l);
	return rc;
}
