// SPDX-License-Identifier: MIT
/*
 * cmd_hpa: `ssdlab hpa DEV [--set BYTES|PERCENT | --restore] [--persistent] [--dry-run] [--json]`
 * (issue 13 point 2): a SATA drive's native against accessible max address (host/ata_hpa.h),
 * and the commands that change it. Every refusal (a USB bridge, a frozen or locked drive, a DCO
 * limiting the native max, an HPA ssdlab did not set) is checked from what the drive says before
 * anything is sent. A change is made only through the device-change journal (targets/
 * devchange.h's kind "hpa"); until that is in the build --set and --restore list the commands
 * they would send (--dry-run).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli/cli.h"
#include "cli/hpa_report.h"
#include "cli/options.h"
#include "host/ata_hpa.h"
#include "host/devinfo.h"

static void usage(FILE *f)
{
	static const char text[] =
	    "usage: ssdlab hpa DEV [--set BYTES|PERCENT | --restore] [--persistent]\n"
	    "                      [--dry-run] [--json]\n\n"
	    "Shows a SATA drive's native and accessible max address (HPA, or on ACS-3\n"
	    "drives Accessible Max Address Configuration), the bytes hidden, a Device\n"
	    "Configuration Overlay and the security state. Reads only, unless --set or\n"
	    "--restore.\n\n"
	    "  --set SIZE    make SIZE (200g, or 80% of the native capacity) the\n"
	    "                accessible capacity; volatile by default: the drive forgets\n"
	    "                it at a reset, ssdlab limits its own I/O to it and the\n"
	    "                kernel does not see it\n"
	    "  --restore     make the native max the accessible max again\n"
	    "  --persistent  keep the new size across power cycles (the kernel sees it\n"
	    "                after one); the only form on an AMAC drive\n"
	    "  --dry-run     print the commands that would change it, with their CDBs,\n"
	    "                and send none of them (IDENTIFY and the native max are read)\n"
	    "  --json        the state as JSON\n";

	fputs(text, f);
}

struct hpa_opts {
	const char *set;
	bool restore, persistent, dry, json;
};

/* 0: go on; -1: --help printed; else the exit code of a usage error */
static int parse(int argc, char **argv, struct hpa_opts *o)
{
	static const struct option opts[] = {
	    {"set", required_argument, NULL, 's'},
	    {"restore", no_argument, NULL, 'r'},
	    {"persistent", no_argument, NULL, 'p'},
	    {"dry-run", no_argument, NULL, 'n'},
	    {"json", no_argument, NULL, 'j'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			o->set = optarg;
			break;
		case 'r':
			o->restore = true;
			break;
		case 'p':
			o->persistent = true;
			break;
		case 'n':
			o->dry = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'h':
			usage(stdout);
			return -1; /* done: exit 0 */
		default:
			return cli_opt_reject("hpa", c, argv);
		}
	}
	if (optind + 1 != argc) {
		cli_error("hpa", optind == argc ? "missing DEV" : "unexpected argument '%s'",
			  argv[optind + (optind != argc)]);
		return EXIT_USAGE;
	}
	if (o->set && o->restore) {
		cli_error("hpa", "--set and --restore exclude each other");
		return EXIT_USAGE;
	}
	if (o->persistent && !o->set) {
		cli_error("hpa", "--persistent goes with --set");
		return EXIT_USAGE;
	}
	if (o->json && (o->set || o->restore)) {
		cli_error("hpa", "--json prints the state; it does not go with --set or --restore");
		return EXIT_USAGE;
	}
	return 0;
}

/* What a change to new_max would send, or why it is refused; never sends a change. */
static int change(const struct hpa_opts *o, const char *path, int fd,
		  const struct ata_hpa_state *st, bool usb)
{
	uint64_t new_max = st->native_max_lba;
	bool vol = o->set && !o->persistent;
	char why[512];
	int ret;

	if (o->set && hpa_report_target(st, o->set, &new_max, why, sizeof why)) {
		cli_error("hpa", "--set %s", why);
		return EXIT_USAGE;
	}
	if (st->method == ATA_HPA_AMAC && vol) {
		cli_error(
		    "hpa",
		    "%s has Accessible Max Address Configuration (ACS-3), which has no volatile "
		    "form: add --persistent (a power cycle is then needed before the kernel sees "
		    "the size); no change made",
		    path);
		return EXIT_CAPABILITY;
	}
	if (o->restore && st->current_max_lba == st->native_max_lba) {
		printf("%s: the accessible max is the native max (LBA %llu): nothing to restore\n",
		       path, (unsigned long long)st->native_max_lba);
		return EXIT_OK;
	}
	ret = ata_hpa_refusal(st, usb, new_max, vol, o->restore, why, sizeof why);
	if (ret) {
		cli_error("hpa", "%s: %s; no change made", path, why);
		return ret == -EINVAL	    ? EXIT_USAGE
		       : ret == -EOPNOTSUPP ? EXIT_CAPABILITY
					    : EXIT_SAFETY;
	}
	if (!o->dry) {
		cli_error("hpa",
			  "%s: a capacity change is made only through the device-change journal "
			  "(journal.jsonl, so that `ssdlab restore` can undo it), which this build "
			  "lacks; "
			  "--dry-run lists the commands; no change made",
			  path);
		return EXIT_CAPABILITY;
	}
	printf("%s: would send, in order (max LBA %llu: %llu bytes accessible of %llu):\n", path,
	       (unsigned long long)new_max,
	       (unsigned long long)((new_max + 1) * st->logical_sector),
	       (unsigned long long)((st->native_max_lba + 1) * st->logical_sector));
	ret = ata_hpa_set(NULL, fd, st->method, new_max, vol, true, stdout, why, sizeof why);
	if (ret) {
		cli_error("hpa", "%s", why);
		return EXIT_FAILED;
	}
	if (o->restore)
		printf("the restore is non-volatile: it also undoes a persistent change (one "
		       "non-volatile "
		       "set a power cycle: after a persistent --set, power-cycle first)\n");
	else if (vol)
		printf("volatile: the drive forgets it at a reset or power cycle; ssdlab limits "
		       "its own I/O "
		       "to the new size, the kernel keeps the old one (no revalidation)\n");
	else
		printf("persistent: kept across power cycles; the kernel sees the new size only "
		       "after a "
		       "power cycle\n");
	return EXIT_OK;
}

int cmd_hpa(int argc, char **argv)
{
	struct hpa_opts o = {0};
	struct devinfo_link x;
	struct ata_hpa_state st;
	struct stat sb;
	const char *path;
	char err[512], why[512];
	int fd = -1, ret, rc = EXIT_FAILED;

	ret = parse(argc, argv, &o);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	path = argv[optind];
	if (stat(path, &sb)) {
		cli_error("hpa", "%s: %s", path, strerror(errno));
		return EXIT_FAILED;
	}
	if (!S_ISBLK(sb.st_mode)) {
		cli_error("hpa", "%s is not a block device (HPA is a SATA drive's setting)", path);
		return EXIT_CAPABILITY;
	}
	ret = devinfo_link_read(NULL, sb.st_rdev, &x);
	if (ret) {
		cli_error("hpa", "%s: not found in sysfs: %s", path, strerror(-ret));
		return EXIT_FAILED;
	}
	bool usb = !strcmp(x.transport, "usb");
	if (strcmp(x.transport, "sata") && !usb) {
		cli_error("hpa",
			  "%s: transport %s: HPA and accessible max address are SATA settings%s",
			  path, x.transport[0] ? x.transport : "unknown",
			  !strcmp(x.transport, "nvme")
			      ? " (an NVMe drive is over-provisioned by namespace)"
			      : "");
		return EXIT_CAPABILITY;
	}
	/* SG_IO needs no write access for these commands under CAP_SYS_RAWIO, and O_NONBLOCK
	 * keeps a drive that is busy elsewhere from holding us */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		cli_error("hpa", "%s: %s", path, strerror(errno));
		return EXIT_FAILED;
	}
	ret = ata_hpa_probe(&ioctl_ops_real, fd, &st, err, sizeof err);
	if (ret) {
		cli_error("hpa", "%s: %s%s", path, err,
			  usb ? " (behind a USB bridge: many drop or mangle ATA pass-through)"
			      : "");
		rc = ret == -EOPNOTSUPP ? EXIT_CAPABILITY : EXIT_FAILED;
		goto out;
	}
	if (o.set || o.restore) {
		rc = change(&o, path, fd, &st, usb);
		goto out;
	}
	if (o.json) {
		bool refused =
		    ata_hpa_refusal(&st, usb, st.current_max_lba, st.method != ATA_HPA_AMAC, false,
				    why, sizeof why) != 0;
		struct json_object *j = hpa_report_json(path, &st, refused ? why : NULL);
		if (!j) {
			cli_error("hpa", "out of memory");
			goto out;
		}
		puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
							   JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(j);
	} else {
		hpa_report_text(stdout, path, &st);
		if (ata_hpa_refusal(&st, usb, st.current_max_lba, st.method != ATA_HPA_AMAC, false,
				    why, sizeof why))
			printf("  %-13s %s\n", "change", why);
	}
	rc = EXIT_OK;
out:
	if (fd >= 0)
		close(fd);
	return rc;
}
