// SPDX-License-Identifier: MIT
/*
 * smart_ata: `ssdlab smart DEV` for a SATA drive (see smart_ata.h). The drive is read through
 * host/ata_live.h, which decodes what it read as a libatasmart blob, so this prints exactly
 * what `--load` of the saved blob would print, plus the Device Statistics the blob format has
 * no block for.
 */
#include "cli/smart_ata.h"
#include "cli/smart_print.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/jsonnum.h"
#include "cli/cli.h"
#include "host/ata_live.h"
#include "targets/drive_snapshot.h"

/* The drive database's entry for model (NULL: none, or no database: the mapping then says
 * "no entry", which is still a snapshot). Loaded through drive_snapshot_open so that the path
 * is found as the runner finds it. */
int smart_ata_load_json(const struct ata_smart *s, char *err, size_t errlen)
{
	struct drive_snapshot_cfg cfg = {.fd = -1, .transport = DRIVEDB_ATA, .model = s->model};
	struct drive_snapshot *ds = NULL;
	struct devcounters *dc = malloc(sizeof(*dc));
	struct snapshot snap;
	int ret;

	snapshot_init(&snap, "ata-smart");
	snprintf(snap.label, sizeof snap.label, "load");
	if (!dc) {
		ret = -ENOMEM;
		goto fail;
	}
	devcounters_init(dc);
	ret = ata_smart_counters(s, dc);
	if (ret)
		goto fail;
	ret = drive_snapshot_open(&cfg, &ds, err, errlen);
	if (ret)
		goto out;
	ret = drive_snapshot_build(dc, DRIVEDB_ATA, s->model, 0, drive_snapshot_entry(ds), &snap);
	if (!ret)
		ret = smart_print_ata_json(s, &snap, NULL, NULL);
	if (ret)
		goto fail;
	goto out;
fail:
	snprintf(err, errlen, "%s", strerror(-ret));
out:
	drive_snapshot_free(ds);
	snapshot_release(&snap);
	free(dc);
	return ret;
}

/*
 * The live snapshot: the same module the runner calls at every phase boundary (reads until two
 * agree; no flush and no settle wait, nothing of ours is in flight), so `smart --json` and a
 * run's snapshots map counters one way. The sector size is IDENTIFY's (l, read just before);
 * the attribute table and Device Statistics in raw are that read's.
 */
static int live_json(int fd, const char *dev, const struct ata_live *l, char *err, size_t errlen)
{
	struct drive_snapshot_cfg cfg = {
		.fd = fd, .transport = DRIVEDB_ATA, .model = l->smart.model,
		.sector_bytes = l->ident.logical_sector, .opts = {.settle_ns = UINT64_MAX},
	};
	struct snapshot snap;
	int ret;

	snapshot_init(&snap, "ata-smart");
	ret = smart_take_now(&cfg, dev, &snap, err, errlen);
	if (ret)
		goto out;
	ret = smart_print_ata_json(&l->smart, &snap, &l->dc, l->devstat_note);
	if (ret)
		snprintf(err, errlen, "%s", strerror(-ret));
out:
	snapshot_release(&snap);
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
		ret = live_json(fd, dev, l, err, sizeof err);
		if (ret) {
			fprintf(stderr, "ssdlab smart: %s: %s\n", dev, err);
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
