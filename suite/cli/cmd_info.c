/* SPDX-License-Identifier: MIT */
/*
 * cmd_info: `ssdlab info DEV [--json]` shows what sysfs (and udev's database, for identity)
 * says about a block device: identity, size and block sizes, transport and link, discard,
 * write cache, power management that changes idle behaviour, scheduler, NUMA node, the NVMe
 * namespaces that share its controller and subsystem, and what it offers (SMART, discard,
 * write-cache control). Read-only: it opens nothing for writing and asks no confirmation.
 * What sysfs cannot tell is "unknown" (JSON null), never a guess.
 */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/jsonnum.h"
#include "cli/cli.h"
#include "cli/info_ata.h"
#include "cli/options.h"
#include "cli/nvme_report.h"
#include "host/devinfo.h"
#include "host/drive_ident.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ssdlab info DEV [--json] [--dry-run]\n\n"
		"Shows a block device's identity and state from sysfs: model, serial, firmware,\n"
		"WWN, capacity, block sizes, transport, link, discard, write cache, ALPM/APST,\n"
		"scheduler, NUMA node, NVMe namespaces, and whether it offers SMART, discard and\n"
		"write-cache control. Reads only; \"unknown\" where sysfs cannot tell.\n\n"
		"A SATA drive is also asked itself (IDENTIFY DEVICE, READ NATIVE MAX ADDRESS EXT):\n"
		"full model, ACS version, TRIM, HPA state, security, sanitize, DEVSLP, HIPM/DIPM.\n\n"
		"  --json      machine-readable output (schema 1)\n"
		"  --dry-run   print the commands it would send (NVMe Identify and Get Features,\n"
		"              ATA IDENTIFY and READ NATIVE MAX), without sending them\n"
		"  -h, --help  this text\n");
}

static const char *tri(int v)
{
	return v > 0 ? "yes" : v == 0 ? "no" : "unknown";
}

static const char *or_unknown(const char *s)
{
	return *s ? s : "unknown";
}

/* Adds key: v, where v NULL is a JSON null (unknown) and not, as for jsonnum_build_add, an
 * allocation failure; the first error stays in *e. */
static void add_opt(struct json_object *o, const char *key, struct json_object *v, int *e)
{
	if (*e) {
		json_object_put(v);
		return;
	}
	*e = jsonnum_add(o, key, v);
}

/* A string member, null when empty (unknown). */
static void add_str(struct json_object *o, const char *key, const char *s, int *e)
{
	add_opt(o, key, *s ? json_object_new_string(s) : NULL, e);
}

static void add_tri(struct json_object *o, const char *key, int v, int *e)
{
	add_opt(o, key, v < 0 ? NULL : json_object_new_boolean(v), e);
}

struct info {
	const char *path;
	struct devinfo di;
	struct devinfo_link x;
	struct devinfo_nvme nv;
	bool nvme;
	struct drive_ident_nvme id; /* NVMe Identify and features (host/drive_ident.c) */
	bool sata;	     /* transport "sata": ata holds what IDENTIFY says */
	struct drive_ident_ata ata;
};

static int print_json(const struct info *in)
{
	const struct devinfo *di = &in->di;
	const struct devinfo_link *x = &in->x;
	struct json_object *o = json_object_new_object(), *offers, *nv;
	int e = 0;

	if (!o)
		return -ENOMEM;
	jsonnum_build_num(o, "schema", 1, &e);
	add_str(o, "path", in->path, &e);
	add_str(o, "name", di->name, &e);
	add_str(o, "disk", di->disk, &e);
	jsonnum_build_add(o, "partition", json_object_new_boolean(di->partition), &e);
	add_str(o, "model", di->model, &e);
	add_str(o, "serial", di->serial, &e);
	add_str(o, "firmware", di->firmware, &e);
	add_str(o, "wwn", di->wwn, &e);
	jsonnum_build_num(o, "capacity", (double)di->capacity, &e);
	add_opt(o, "logical_block_size",
		di->logical_block_size ? jsonnum_new(di->logical_block_size) : NULL, &e);
	add_opt(o, "physical_block_size",
		di->physical_block_size ? jsonnum_new(di->physical_block_size) : NULL, &e);
	jsonnum_build_add(o, "rotational", json_object_new_boolean(di->rotational), &e);
	add_str(o, "transport", x->transport, &e);
	add_str(o, "link_speed", x->link_speed, &e);
	add_opt(o, "link_width", x->link_width >= 0 ? jsonnum_new(x->link_width) : NULL, &e);
	add_opt(o, "discard_granularity",
		x->discard_granularity >= 0 ? jsonnum_new((double)x->discard_granularity) : NULL,
		&e);
	jsonnum_build_num(o, "discard_max_bytes", (double)di->discard_max_bytes, &e);
	add_str(o, "write_cache", x->write_cache, &e);
	add_str(o, "alpm", x->alpm, &e);
	add_str(o, "apst_latency_tolerance_us", x->apst_latency, &e);
	add_str(o, "scheduler", di->scheduler, &e);
	add_opt(o, "numa_node", x->numa_known ? jsonnum_new(x->numa_node) : NULL, &e);
	if (in->nvme) {
		nv = json_object_new_object();
		if (nv) {
			add_opt(nv, "nsid", in->nv.nsid ? jsonnum_new(in->nv.nsid) : NULL, &e);
			add_str(nv, "controller", in->nv.controller, &e);
			add_str(nv, "subsystem", in->nv.subsystem, &e);
			add_str(nv, "subsysnqn", in->nv.subsysnqn, &e);
			add_str(nv, "namespaces", in->nv.subsystem_ns, &e);
		}
		jsonnum_build_add(o, "nvme", nv, &e);
		if (!e)
			e = drive_ident_nvme_json(o, &in->id);
	}
	offers = json_object_new_object();
	if (offers) {
		add_tri(offers, "smart", x->smart, &e);
		jsonnum_build_add(offers, "discard",
				  json_object_new_boolean(di->discard_max_bytes > 0), &e);
		add_tri(offers, "write_cache_control", x->write_cache_control, &e);
	}
	jsonnum_build_add(o, "offers", offers, &e);
	if (!e && in->sata)
		e = drive_ident_ata_json(o, &in->ata, x->alpm);
	if (!e)
		printf("%s\n", json_object_to_json_string_ext(
				   o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return e;
}

static void print_text(const struct info *in)
{
	const struct devinfo *di = &in->di;
	const struct devinfo_link *x = &in->x;

	printf("%s (%s%s%s)\n", in->path, di->name, di->partition ? " on " : "",
	       di->partition ? di->disk : "");
	printf("  model         %s\n", or_unknown(di->model));
	printf("  serial        %s\n", or_unknown(di->serial));
	printf("  firmware      %s\n", or_unknown(di->firmware));
	printf("  wwn           %s\n", or_unknown(di->wwn));
	printf("  capacity      %llu bytes\n", (unsigned long long)di->capacity);
	printf("  block size    logical %u, physical %u\n", di->logical_block_size,
	       di->physical_block_size);
	printf("  rotational    %s\n", di->rotational ? "yes" : "no");
	printf("  transport     %s\n", x->transport);
	printf("  link          %s", or_unknown(x->link_speed));
	if (x->link_width >= 0)
		printf(" x%d", x->link_width);
	printf("\n  discard       granularity ");
	if (x->discard_granularity >= 0)
		printf("%lld", (long long)x->discard_granularity);
	else
		printf("unknown");
	printf(", max %llu bytes\n", (unsigned long long)di->discard_max_bytes);
	printf("  write cache   %s\n", or_unknown(x->write_cache));
	if (!strcmp(x->transport, "sata") || *x->alpm)
		printf("  ALPM          %s\n", or_unknown(x->alpm));
	if (in->nvme)
		printf("  APST bound    %s%s\n", or_unknown(x->apst_latency),
		       *x->apst_latency ? " us" : "");
	printf("  scheduler     %s\n", or_unknown(di->scheduler));
	if (x->numa_known)
		printf("  NUMA node     %d%s\n", x->numa_node, x->numa_node < 0 ? " (none)" : "");
	else
		printf("  NUMA node     unknown\n");
	if (in->nvme)
		printf("  NVMe          nsid %u, controller %s, subsystem %s, namespaces %s\n",
		       in->nv.nsid, or_unknown(in->nv.controller), or_unknown(in->nv.subsystem),
		       or_unknown(in->nv.subsystem_ns));
	if (in->nvme)
		nvme_report_ident_text(stdout, &in->id);
	printf("  offers        SMART %s, discard %s, write-cache control %s\n", tri(x->smart),
	       di->discard_max_bytes ? "yes" : "no", tri(x->write_cache_control));
	if (in->sata)
		info_ata_text(&in->ata, x->alpm);
}

int cmd_info(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"json", no_argument, NULL, 'j'},
	    {"dry-run", no_argument, NULL, 'n'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct info *in = NULL;
	bool json = false, dry = false;
	struct stat st;
	int c, ret, rc = EXIT_FAILED;

	optind = 1;
	opterr = 0; /* one line of our own for a bad option, as the other commands */
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'n':
			dry = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			return cli_opt_reject("info", c, argv);
		}
	}
	if (optind + 1 != argc) {
		cli_error("info", optind == argc ? "missing DEV" : "unexpected argument '%s'",
			  argv[optind + (optind != argc)]);
		return EXIT_USAGE;
	}
	if (stat(argv[optind], &st)) {
		cli_error("info", "%s: %s", argv[optind], strerror(errno));
		return EXIT_FAILED;
	}
	if (!S_ISBLK(st.st_mode)) {
		/* a file has no sysfs entry of its own: nothing here would describe it */
		cli_error("info", "%s is not a block device (info reads a block device's sysfs)",
			  argv[optind]);
		return EXIT_CAPABILITY;
	}
	in = calloc(1, sizeof(*in));
	if (!in) {
		cli_error("info", "out of memory");
		return EXIT_FAILED;
	}
	in->path = argv[optind];
	ret = devinfo_read(NULL, st.st_rdev, &in->di);
	if (!ret)
		ret = devinfo_link_read(NULL, st.st_rdev, &in->x);
	if (ret) {
		cli_error("info", "%s: not found in sysfs: %s", in->path, strerror(-ret));
		goto out;
	}
	in->nvme = !devinfo_nvme_topology(NULL, in->di.disk, &in->nv);
	/* NVMe: Identify and features; SATA: IDENTIFY and READ NATIVE MAX through SG_IO (both
	 * host/drive_ident.c, which the manifests use too); --dry-run names them and sends nothing */
	in->sata = !strcmp(in->x.transport, "sata");
	if (dry) {
		if (in->nvme) {
			printf("%s (%s): would send these NVMe admin commands, in order:\n", in->path, in->nv.ns);
			nvme_report_ident_dry(stdout, in->nv.nsid);
		} else if (in->sata) {
			info_ata_dry(in->path);
		} else {
			printf("%s: sends no drive commands (transport %s: neither NVMe nor SATA)\n", in->path,
			       or_unknown(in->x.transport));
		}
		rc = EXIT_OK;
		goto out;
	}
	if (in->nvme)
		drive_ident_nvme_read(&ioctl_ops_real, in->path, in->nv.nsid, &in->id);
	if (in->sata)
		drive_ident_ata_read(&ioctl_ops_real, in->path, &in->ata);
	if (json) {
		ret = print_json(in);
		if (ret) {
			cli_error("info", "cannot build JSON: %s", strerror(-ret));
			goto out;
		}
	} else {
		print_text(in);
	}
	rc = EXIT_OK;
out:
	free(in);
	return rc;
}
