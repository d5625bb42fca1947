// SPDX-License-Identifier: MIT
/*
 * cmd_hpa: `ssdlab hpa DEV [--set BYTES|PERCENT | --restore] [--persistent] [--dry-run] [--json]`
 * (issue 13 point 2): a SATA drive's native against accessible max address (host/ata_hpa.h),
 * and the commands that change it. Every refusal (a USB bridge, a frozen or locked drive, a DCO
 * limiting the native max, an HPA ssdlab did not set) is checked from what the drive says before
 * anything is sent. A change is made only through the device-change journal (targets/
 * devchange.h's kind "hpa"): journal.jsonl in --journal DIR (default results/hpa-<dev>-<UTC
 * time>/) is fsync'ed before the command goes out, so that `ssdlab restore DIR` undoes it even
 * after a kill -9 or a power loss. The drive is reached through cli/drive_open.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli/cli.h"
#include "cli/devcmd_opts.h"
#include "cli/clock.h"
#include "cli/drive_open.h"
#include "cli/hpa_report.h"
#include "cli/options.h"
#include "host/ata_hpa.h"
#include "results/files.h"
#include "results/journal.h"
#include "results/results.h"
#include "targets/devchange.h"
#include "targets/devchange_hpa.h"

static void usage(FILE *f)
{
	static const char text[] =
	    "usage: ssdlab hpa DEV [--set BYTES|PERCENT | --restore] [--persistent]\n"
	    "                      [--journal DIR] [--dry-run] [--json]\n\n"
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
	    "  --journal DIR where the change is journaled (journal.jsonl) before it is\n"
	    "                sent; `ssdlab restore DIR` undoes it (default\n"
	    "                results/hpa-<dev>-<UTC time>/)\n"
	    "  --dry-run     print the commands that would change it, with their CDBs,\n"
	    "                and send none of them (IDENTIFY and the native max are read)\n"
	    "  --json        the state as JSON\n";

	fputs(text, f);
}

/* 0: go on; -1: --help printed; else the exit code of a usage error */
static int parse(int argc, char **argv, struct devcmd_opts *o)
{
	int ret = devcmd_opts_parse("hpa", argc, argv, DEVCMD_RESTORE | DEVCMD_PERSISTENT, usage, o);

	if (ret)
		return ret;
	if (o->set && o->restore) {
		cli_error("hpa", "--set and --restore exclude each other");
		return EXIT_USAGE;
	}
	if (o->persistent && !o->set) {
		cli_error("hpa", "--persistent goes with --set");
		return EXIT_USAGE;
	}
	if (o->journal && !o->set && !o->restore) {
		cli_error("hpa", "--journal goes with --set or --restore");
		return EXIT_USAGE;
	}
	if (o->json && (o->set || o->restore)) {
		cli_error("hpa", "--json prints the state; it does not go with --set or --restore");
		return EXIT_USAGE;
	}
	return 0;
}

/* What the change leaves, once sent (or, with --dry-run, once it would be). */
static void change_note(const struct devcmd_opts *o, bool vol)
{
	if (o->restore)
		printf("the restore is non-volatile: it also undoes a persistent change (one "
		       "non-volatile set a power cycle: after a persistent --set, power-cycle "
		       "first)\n");
	else if (vol)
		printf("volatile: the drive forgets it at a reset or power cycle; ssdlab limits "
		       "its own I/O to the new size, the kernel keeps the old one (no "
		       "revalidation)\n");
	else
		printf("persistent: kept across power cycles; the kernel sees the new size only "
		       "after a power cycle\n");
}

/* Sends the change through the device-change journal (devchange_set: read, journal, send,
 * read back, journal), in o->journal or a new results/hpa-<dev>-<time>/. */
static int journaled(const struct devcmd_opts *o, const char *path, struct cli_drive *d,
		     const struct ata_hpa_state *st, uint64_t new_max, bool vol)
{
	struct json_object *to = NULL;
	struct journal *j = NULL;
	struct devchange_ctx c;
	const char *dir = o->journal;
	char dirbuf[4096], err[1024] = "";
	int ret, rc = EXIT_FAILED;

	if (!dir) {
		ret = results_default_dir(NULL, "hpa", path, (int64_t)(cli_wall_ns() / 1000000000u),
					  dirbuf, sizeof dirbuf);
		if (ret) {
			cli_error("hpa", "%s: no journal directory name: %s", path, strerror(-ret));
			return EXIT_FAILED;
		}
		dir = dirbuf;
	}
	ret = files_mkdir_p(dir);
	if (ret) {
		cli_error("hpa", "%s: %s; no change made", dir, strerror(-ret));
		return EXIT_FAILED;
	}
	ret = journal_open(dir, &j, err, sizeof err);
	if (ret) {
		cli_error("hpa", "%s; no change made", err);
		return EXIT_FAILED;
	}
	ret = cli_drive_ctx(d, path, j, &c, err, sizeof err);
	if (ret) {
		cli_error("hpa", "%s; no change made", err);
		rc = ret == -EOPNOTSUPP ? EXIT_CAPABILITY : EXIT_FAILED;
		goto out;
	}
	to = devchange_hpa_value(new_max, st->native_max_lba, vol);
	if (!to) {
		cli_error("hpa", "out of memory; no change made");
		goto out;
	}
	ret = devchange_set(&c, "hpa", to, err, sizeof err);
	if (ret) {
		/* the journal has the change line whenever anything may have been sent */
		cli_error("hpa", "%s: %s (journal: %s; `ssdlab restore %s` puts back whatever "
			  "reached the drive)", path, err, dir, dir);
		rc = ret == -EPERM ? EXIT_SAFETY : ret == -EOPNOTSUPP ? EXIT_CAPABILITY : EXIT_FAILED;
		goto out;
	}
	printf("%s: accessible max LBA %llu (%llu bytes accessible of %llu), read back\n", path,
	       (unsigned long long)new_max,
	       (unsigned long long)((new_max + 1) * st->logical_sector),
	       (unsigned long long)((st->native_max_lba + 1) * st->logical_sector));
	printf("journal: %s/%s; `ssdlab restore %s` undoes it\n", dir, JOURNAL_FILE, dir);
	change_note(o, vol);
	rc = EXIT_OK;
out:
	json_object_put(to);
	journal_close(j);
	return rc;
}

/* Refuses, prints (--dry-run) or makes the change; the refusals come before any journal. */
static int change(const struct devcmd_opts *o, const char *path, struct cli_drive *d,
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
	if (new_max == st->current_max_lba) {
		printf("%s: the accessible max is already LBA %llu: nothing to change\n", path,
		       (unsigned long long)new_max);
		return EXIT_OK;
	}
	if (!o->dry)
		return journaled(o, path, d, st, new_max, vol);
	printf("%s: would send, in order (max LBA %llu: %llu bytes accessible of %llu):\n", path,
	       (unsigned long long)new_max,
	       (unsigned long long)((new_max + 1) * st->logical_sector),
	       (unsigned long long)((st->native_max_lba + 1) * st->logical_sector));
	ret = ata_hpa_set(NULL, d->fd, st->method, new_max, vol, true, stdout, why, sizeof why);
	if (ret) {
		cli_error("hpa", "%s", why);
		return EXIT_FAILED;
	}
	change_note(o, vol);
	return EXIT_OK;
}

int cmd_hpa(int argc, char **argv)
{
	struct devcmd_opts o = {0};
	struct ata_hpa_state st;
	struct cli_drive d;
	const char *path;
	char err[512], why[512];
	int ret, rc = EXIT_FAILED;

	ret = parse(argc, argv, &o);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	path = o.dev;
	ret = cli_drive_open(path, &d, err, sizeof err);
	if (ret == -ENOTBLK) {
		cli_error("hpa", "%s (HPA is a SATA drive's setting)", err);
		rc = EXIT_CAPABILITY;
		goto out;
	}
	if (ret) {
		cli_error("hpa", "%s", err);
		goto out;
	}
	bool usb = !strcmp(d.transport, "usb");
	if (strcmp(d.transport, "sata") && !usb) {
		cli_error("hpa",
			  "%s: transport %s: HPA and accessible max address are SATA settings%s",
			  path, d.transport[0] ? d.transport : "unknown",
			  !strcmp(d.transport, "nvme")
			      ? " (an NVMe drive is over-provisioned by namespace)"
			      : "");
		rc = EXIT_CAPABILITY;
		goto out;
	}
	ret = ata_hpa_probe(d.ops, d.fd, &st, err, sizeof err);
	if (ret) {
		cli_error("hpa", "%s: %s%s", path, err,
			  usb ? " (behind a USB bridge: many drop or mangle ATA pass-through)"
			      : "");
		rc = ret == -EOPNOTSUPP ? EXIT_CAPABILITY : EXIT_FAILED;
		goto out;
	}
	if (o.set || o.restore) {
		rc = change(&o, path, &d, &st, usb);
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
	cli_drive_close(&d);
	return rc;
}
