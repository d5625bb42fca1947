// SPDX-License-Identifier: MIT
/*
 * drive_dry: the drive commands a writing command would send (see drive_dry.h).
 */
#include "cli/drive_dry.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/info_ata.h"
#include "cli/nvme_report.h"
#include "cli/smart_ata.h"
#include "host/drive_ident.h"
#include "targets/drive_snapshot.h"
#include "targets/target.h"

/* The snapshot group: what drive_snapshot_take() sends per read, when its transport has reader
 * rows (the rows say which; a transport without one takes no counter snapshot at all). */
static void snapshot_dry(const char *spec, const struct drive_ident *d, const char *points)
{
	enum drivedb_transport t = d->kind == DRIVE_IDENT_NVME ? DRIVEDB_NVME : DRIVEDB_ATA;
	size_t n = 0;

	drive_snapshot_readers(t, &n);
	if (!n) {
		printf("counter snapshots (%s): none: ssdlab reads no counters of a %s drive yet, so "
		       "they record source none\n",
		       points, d->kind == DRIVE_IDENT_NVME ? "NVMe" : "SATA");
		return;
	}
	printf("counter snapshots, %s: a flush, then these, repeated (at most %u reads) until two "
	       "reads agree; a snapshot during I/O is one read without the flush:\n",
	       points, DRIVE_SNAPSHOT_MAX_READS);
	if (d->kind == DRIVE_IDENT_NVME) {
		printf("%s: NVMe admin commands, in order:\n", spec);
		nvme_report_smart_dry(stdout, d->nsid);
	} else {
		(void)smart_ata_cmd(spec, false, true, NULL); /* dry: prints ata_live_plan() */
	}
}

int cli_drive_dry(const char *cmd, const char *spec, const char *points)
{
	struct target_spec ts;
	struct drive_ident d;
	struct stat st;
	int rc;

	target_spec_parse(spec, &ts);
	if (ts.sim) {
		printf("%s: the virtual SSD: no ATA or NVMe command is sent\n", spec);
		return 0;
	}
	if (stat(spec, &st)) {
		rc = -errno;
		if (rc == -ENOENT) {
			printf("%s: does not exist yet (a file target): no ATA or NVMe command is sent\n", spec);
			return 0;
		}
		cli_error(cmd, "%s: %s", spec, strerror(-rc));
		return rc;
	}
	if (!S_ISBLK(st.st_mode)) {
		printf("%s: not a block device: no ATA or NVMe command is sent\n", spec);
		return 0;
	}
	rc = drive_ident_sysfs(NULL, st.st_rdev, &d);
	if (rc || d.kind == DRIVE_IDENT_OTHER) {
		printf("%s: no ATA or NVMe command is sent (%s)\n", spec, d.reason);
		return 0;
	}
	printf("identity at open (the manifest's target.drive), sent once:\n");
	if (d.kind == DRIVE_IDENT_NVME) {
		printf("%s: NVMe admin commands, in order:\n", spec);
		nvme_report_ident_dry(stdout, d.nsid);
	} else {
		info_ata_dry(spec);
	}
	snapshot_dry(spec, &d, points);
	printf("nothing was sent (dry run)\n");
	return 0;
}
