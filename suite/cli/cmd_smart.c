// SPDX-License-Identifier: MIT
/*
 * ssdlab smart: prints a drive's SMART attributes, decoded with our own unit table
 * (host/ata_smart.h). `--load FILE` decodes a blob saved by `skdump --save` offline; `--json`
 * prints it as a counter snapshot (results/snapshot.h, source "ata-smart") whose raw part keeps
 * every attribute so that a later analysis can re-decode what we decode wrongly today.
 * Reading a live drive answers 4 (no capability) for devices that have no SMART.
 */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/jsonnum.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "cli/nvme_report.h"
#include "cli/smart_ata.h"
#include "cli/smart_print.h"
#include "host/ata_smart.h"
#include "host/devinfo.h"
#include "host/nvme_admin.h"
#include "results/snapshot.h"
#include "targets/drive_snapshot.h"

/* A blob is under 2 KiB (four blocks of at most 512 bytes); refuse anything absurd. */
#define BLOB_MAX (64u << 10)

static void usage(FILE *f)
{
	fprintf(f, "usage: ssdlab smart --load FILE [--json]\n"
		   "       ssdlab smart DEV [--json] [--dry-run] [--save FILE]\n\n"
		   "Prints the SMART attributes (id, name, flags, normalized current/worst/threshold,\n"
		   "the raw 48-bit value and that value decoded by ssdlab's own unit table; \"raw\"\n"
		   "where no unit is known). --load decodes a blob saved by `skdump --save` offline.\n"
		   "A device without SMART (loop device, file, virtio disk) exits 4 with the reason.\n"
		   "For an NVMe namespace it reads the controller's SMART/Health log (Get Log Page 0x02)\n"
		   "and, where the drive has them, Endurance Group 0x09, OCP 0xC0 and Intel 0xCA;\n"
		   "for a SATA drive IDENTIFY, SMART RETURN STATUS, SMART READ DATA and THRESHOLDS and\n"
		   "the Device Statistics log (pages 0x01, 0x07) through ATA PASS-THROUGH (SG_IO).\n\n"
		   "  --load FILE  decode a saved libatasmart blob instead of reading a device\n"
		   "  --json       print a counter snapshot (source \"ata-smart\" or \"nvme-smart\";\n"
		   "               docs/results-format.md)\n"
		   "  --dry-run    print the NVMe admin or ATA commands it would send, without sending\n"
		   "  --save FILE  SATA: also write what was read as a blob `skdump --load` reads\n"
		   "  -h, --help   this text\n");
}

/* Why DEV has no SMART ssdlab can read, or NULL when it is a drive that may have it. */
static const char *no_smart_reason(const char *dev, char *buf, size_t len)
{
	static const struct {
		const char *prefix, *what;
	} virt[] = {
		{"loop", "a loop device"}, {"zram", "a zram device"}, {"ram", "a RAM disk"},
		{"vd", "a virtio disk"},   {"md", "a software RAID"}, {"dm-", "a device-mapper device"},
		{"nbd", "a network block device"},
	};
	struct devinfo di;
	struct stat st;

	if (stat(dev, &st)) {
		snprintf(buf, len, "%s: %s", dev, strerror(errno));
		return buf;
	}
	if (S_ISREG(st.st_mode)) {
		snprintf(buf, len, "%s is a regular file: files have no SMART", dev);
		return buf;
	}
	if (!S_ISBLK(st.st_mode)) {
		snprintf(buf, len, "%s is not a block device: no SMART", dev);
		return buf;
	}
	if (devinfo_read(NULL, st.st_rdev, &di)) {
		snprintf(buf, len, "%s: its identity in sysfs cannot be read, so no SMART", dev);
		return buf;
	}
	for (size_t i = 0; i < sizeof virt / sizeof virt[0]; i++)
		if (!strncmp(di.disk, virt[i].prefix, strlen(virt[i].prefix))) {
			snprintf(buf, len, "%s is %s (%s): it has no SMART", dev, virt[i].what, di.disk);
			return buf;
		}
	return NULL;
}

/*
 * NVMe: the snapshot the runner stores at a phase boundary, from the same module
 * (targets/drive_snapshot.h): counters mapped through the drive database, reads until two agree
 * (no flush and no settle wait: nothing of ours is in flight here).
 */
static int nvme_print_json(int fd, const char *dev, const char *model, uint32_t nsid,
			   const struct nvme_report_logs *lg, char *err, size_t errlen)
{
	struct drive_snapshot_cfg cfg = {
		.fd = fd, .transport = DRIVEDB_NVME, .model = model, .nsid = nsid,
		.opts = {.settle_ns = UINT64_MAX},
	};
	struct snapshot snap;
	int ret;

	snapshot_init(&snap, "nvme-smart");
	ret = smart_take_now(&cfg, dev, &snap, err, errlen);
	if (ret)
		goto out;
	/* which extra logs the drive has and why the others are absent (cli/nvme_report.h) */
	ret = nvme_report_logs_json(snap.raw, lg);
	ret = ret ? ret : smart_print_snapshot(&snap);
	if (ret)
		snprintf(err, errlen, "%s", strerror(-ret));
out:
	snapshot_release(&snap);
	return ret;
}

static void nvme_print_text(const struct nvme_smart *m, const char *dev)
{
	printf("NVMe SMART/Health log (0x02) of %s's controller\n", dev);
	printf("critical warning       0x%02x\n", m->critical_warning);
	printf("temperature            %.2f C\n", m->temperature_c);
	printf("available spare        %u%% (threshold %u%%)\n", m->available_spare, m->spare_threshold);
	printf("percentage used        %u%%\n", m->percentage_used);
	printf("data units read        %llu%s (%.0f bytes)\n", (unsigned long long)m->data_units_read,
	       m->data_units_read_overflow ? " (past 64 bits: low 64 shown)" : "",
	       (double)m->data_units_read * NVME_DATA_UNIT_BYTES);
	printf("data units written     %llu%s (%.0f bytes)\n", (unsigned long long)m->data_units_written,
	       m->data_units_written_overflow ? " (past 64 bits: low 64 shown)" : "",
	       (double)m->data_units_written * NVME_DATA_UNIT_BYTES);
	printf("host read commands     %llu%s\n", (unsigned long long)m->host_read_cmds,
	       m->host_read_cmds_overflow ? " (past 64 bits: low 64 shown)" : "");
	printf("host write commands    %llu%s\n", (unsigned long long)m->host_write_cmds,
	       m->host_write_cmds_overflow ? " (past 64 bits: low 64 shown)" : "");
	printf("warning temp time      %u min\n", m->warning_temp_minutes);
	printf("critical temp time     %u min\n", m->critical_temp_minutes);
	printf("thermal mgmt 1         %u transitions, %u s\n", m->thm_transitions[0], m->thm_seconds[0]);
	printf("thermal mgmt 2         %u transitions, %u s\n", m->thm_transitions[1], m->thm_seconds[1]);
}

/*
 * Reads an NVMe namespace's SMART/Health log. The nsid sent is 0xffffffff (the controller as a
 * whole): per-namespace SMART is optional (Identify Controller LPA bit 0) and the counters that
 * matter for write amplification are the controller's anyway.
 */
static int nvme_smart_cmd(const char *dev, const char *ns, uint32_t nsid, const char *model, bool json,
			  bool dry)
{
	struct nvme_report_logs *lg = NULL;
	struct nvme_smart m;
	char err[256];
	int fd = -1, ret, rc = EXIT_FAILED;

	if (dry) {
		/* the SMART/Health log, then Identify and the extra logs (cli/nvme_report.c) */
		printf("%s (%s): would send these NVMe admin commands, in order:\n", dev, ns);
		nvme_report_smart_dry(stdout, nsid);
		return EXIT_OK;
	}
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "ssdlab smart: %s: %s\n", dev, strerror(errno));
		goto out;
	}
	lg = malloc(sizeof *lg); /* 128 counters: not on the stack */
	if (!lg) {
		fprintf(stderr, "ssdlab smart: out of memory\n");
		goto out;
	}
	nvme_report_logs_read(&ioctl_ops_real, fd, nsid, lg);
	if (json) {
		ret = nvme_print_json(fd, dev, model, nsid, lg, err, sizeof err);
		if (ret) {
			fprintf(stderr, "ssdlab smart: %s: %s\n", dev, err);
			goto out;
		}
		rc = EXIT_OK;
		goto out;
	}
	ret = nvme_smart_read(&ioctl_ops_real, fd, NVME_NSID_ALL, &m, err, sizeof err);
	if (ret) {
		fprintf(stderr, "ssdlab smart: %s: %s\n", dev, err);
		goto out;
	}
	nvme_print_text(&m, dev);
	nvme_report_logs_text(stdout, lg);
	rc = EXIT_OK;
out:
	free(lg);
	if (fd >= 0)
		close(fd);
	return rc;
}

int cmd_smart(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"load", required_argument, NULL, 'l'},
	    {"json", no_argument, NULL, 'j'},
	    {"dry-run", no_argument, NULL, 'n'},
	    {"save", required_argument, NULL, 's'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *load = NULL, *save = NULL;
	bool json = false, dry = false;
	char *buf = NULL, err[256], why[512];
	size_t len = 0;
	struct ata_smart s;
	int c, ret, rc = EXIT_FAILED;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			load = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'n':
			dry = true;
			break;
		case 's':
			save = optarg;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			return cli_opt_reject("smart", c, argv);
		}
	}
	if ((load && optind != argc) || (!load && argc - optind != 1) || (load && save)) {
		fprintf(stderr, "ssdlab smart: give either --load FILE or one device (--save only with a device)\n");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!load) {
		const char *r = no_smart_reason(argv[optind], why, sizeof why);
		if (r) {
			fprintf(stderr, "ssdlab smart: %s\n", r);
			return EXIT_CAPABILITY;
		}
		struct stat st;
		struct devinfo di;
		struct devinfo_nvme nv;
		/* no_smart_reason() has stat'ed it and read its sysfs identity already */
		if (!stat(argv[optind], &st) && !devinfo_read(NULL, st.st_rdev, &di) &&
		    !devinfo_nvme_topology(NULL, di.disk, &nv))
			return nvme_smart_cmd(argv[optind], nv.ns, nv.nsid, di.model, json, dry);
		/* Otherwise a SATA drive: ATA PASS-THROUGH through SG_IO (cli/smart_ata.c) */
		return smart_ata_cmd(argv[optind], json, dry, save);
	}
	ret = fileio_read_file(load, BLOB_MAX, &buf, &len);
	if (ret) {
		fprintf(stderr, "ssdlab smart: %s: %s\n", load, strerror(-ret));
		goto out;
	}
	ret = ata_smart_decode_blob(buf, len, &s, err, sizeof err);
	if (ret) {
		fprintf(stderr, "ssdlab smart: %s: %s\n", load, err);
		goto out;
	}
	if (json) {
		ret = smart_ata_load_json(&s, err, sizeof err);
		if (ret) {
			fprintf(stderr, "ssdlab smart: %s: %s\n", load, err);
			goto out;
		}
	} else {
		smart_print_ata_text(&s);
	}
	rc = EXIT_OK;
out:
	free(buf);
	return rc;
}
