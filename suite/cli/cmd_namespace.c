// SPDX-License-Identifier: MIT
/*
 * cmd_namespace: `ssdlab namespace DEV [--set BYTES|PERCENT] [--journal DIR] [--dry-run] [--json]`
 * (issue 13 point 3): an NVMe namespace's layout (size, capacity, use, LBA format, endurance
 * group), the controller's total and unallocated capacity, and whether the controller really
 * does namespace management; --set over-provisions the drive by making the namespace smaller
 * (targets/devchange_nvme_ns.h: detach, delete, create, attach, rescan), only through the
 * device-change journal, so that `ssdlab restore DIR` gives the namespace its size back even after
 * a kill -9 between the delete and the create. The drive is reached through cli/drive_open.h.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/units.h"
#include "cli/cli.h"
#include "cli/devcmd_opts.h"
#include "cli/clock.h"
#include "cli/drive_open.h"
#include "cli/options.h"
#include "host/nvme_admin.h"
#include "host/nvme_ident.h"
#include "results/files.h"
#include "results/journal.h"
#include "results/results.h"
#include "targets/devchange.h"
#include "targets/devchange_nvme_ns.h"

/* Identify Controller: TNVMCAP and UNVMCAP, 128-bit byte counts (NVMe 2.0 Figure 275). */
#define IDCTRL_TNVMCAP 280
#define IDCTRL_UNVMCAP 296

static void usage(FILE *f)
{
	static const char text[] =
	    "usage: ssdlab namespace DEV [--set BYTES|PERCENT] [--journal DIR]\n"
	    "                            [--dry-run] [--json]\n\n"
	    "Shows an NVMe namespace's layout (size, capacity and use in blocks, LBA\n"
	    "format, endurance group), the controller's total and unallocated capacity\n"
	    "and whether it really does namespace management. Reads only, unless --set.\n\n"
	    "  --set SIZE    over-provision: delete the namespace and create it again\n"
	    "                with SIZE (200g, or 80% of its current size), same LBA\n"
	    "                format; ALL DATA ON IT IS LOST. `ssdlab restore DIR` puts the\n"
	    "                old size back (the data stays lost)\n"
	    "  --journal DIR where the change is journaled (journal.jsonl) before it is\n"
	    "                sent (default results/namespace-<dev>-<UTC time>/)\n"
	    "  --dry-run     print the commands --set would send, and send none of them\n"
	    "  --json        the state as JSON\n";

	fputs(text, f);
}

/* 0: go on; -1: --help printed; else the exit code of a usage error */
static int parse(int argc, char **argv, struct devcmd_opts *o)
{
	int ret = devcmd_opts_parse("namespace", argc, argv, 0, usage, o);

	if (ret)
		return ret;
	if ((o->journal || o->dry) && !o->set) {
		cli_error("namespace", "--journal and --dry-run go with --set");
		return EXIT_USAGE;
	}
	if (o->json && o->set) {
		cli_error("namespace", "--json prints the state; it does not go with --set");
		return EXIT_USAGE;
	}
	return 0;
}

/* What the drive says: the namespace's Identify page, the controller's capacities. */
struct ns_state {
	uint32_t nsid;
	struct nvme_id_ns ns;
	uint64_t block; /* bytes per logical block of the format in use */
	uint64_t tnvmcap, unvmcap;
	bool cap_overflow; /* a capacity beyond 2^64 bytes: only the low 64 bits shown */
	int mgmt;	   /* devchange_nvme_ns_supported: 0 or -errno */
	char mgmt_why[512];
};

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static bool hi_nonzero(const uint8_t *p)
{
	return le64(p + 8) != 0;
}

static int probe(struct cli_drive *d, const struct devchange_ctx *c, struct ns_state *st, char *err,
		 size_t errlen)
{
	_Alignas(4096) uint8_t page[NVME_IDENTIFY_LEN];
	struct nvme_admin_cmd cmd;
	int rc;

	memset(st, 0, sizeof *st);
	st->nsid = c->nsid;
	rc = nvme_id_ns_read(d->ops, d->fd, c->nsid, &st->ns, err, errlen);
	if (rc)
		return rc;
	st->block = 1ull << st->ns.lbaf[st->ns.lbaf_in_use].lbads;
	memset(page, 0, sizeof page);
	nvme_identify_cmd(&cmd, 0, NVME_CNS_CTRL, page);
	rc = nvme_admin_send(d->ops, d->fd, &cmd, "Identify Controller", err, errlen);
	if (rc)
		return rc;
	st->tnvmcap = le64(page + IDCTRL_TNVMCAP);
	st->unvmcap = le64(page + IDCTRL_UNVMCAP);
	st->cap_overflow = hi_nonzero(page + IDCTRL_TNVMCAP) || hi_nonzero(page + IDCTRL_UNVMCAP);
	st->mgmt = devchange_nvme_ns_supported(c, st->mgmt_why, sizeof st->mgmt_why);
	return 0;
}

static void text(const char *path, const struct ns_state *st)
{
	const struct nvme_id_ns *n = &st->ns;

	printf("%s: NVMe namespace %u\n", path, st->nsid);
	printf("  %-16s %llu blocks (%llu bytes)\n", "size (nsze)", (unsigned long long)n->nsze,
	       (unsigned long long)(n->nsze * st->block));
	printf("  %-16s %llu blocks\n", "capacity (ncap)", (unsigned long long)n->ncap);
	printf("  %-16s %llu blocks\n", "in use (nuse)", (unsigned long long)n->nuse);
	printf("  %-16s %u of %u: %llu-byte blocks, %u metadata bytes%s\n", "LBA format",
	       n->lbaf_in_use, n->nlbaf, (unsigned long long)st->block, n->lbaf[n->lbaf_in_use].ms,
	       n->extended_metadata ? " (extended)" : "");
	if (n->endgid)
		printf("  %-16s %u\n", "endurance group", n->endgid);
	else
		printf("  %-16s none named\n", "endurance group");
	printf("  %-16s %llu bytes total, %llu unallocated%s\n", "controller",
	       (unsigned long long)st->tnvmcap, (unsigned long long)st->unvmcap,
	       st->cap_overflow ? " (low 64 bits)" : "");
	if (st->mgmt)
		printf("  %-16s no: %s\n", "ns management", st->mgmt_why);
	else
		printf("  %-16s yes (OACS bit 3, and log 0x05 where the drive has it)\n",
		       "ns management");
}

static struct json_object *json(const char *path, const struct ns_state *st)
{
	struct json_object *o = json_object_new_object();
	const struct nvme_id_ns *n = &st->ns;
	int bad = !o;

	bad = bad || json_object_object_add(o, "path", json_object_new_string(path));
	bad = bad || json_object_object_add(o, "nsid", json_object_new_int64(st->nsid));
	bad = bad || json_object_object_add(o, "nsze", json_object_new_uint64(n->nsze));
	bad = bad || json_object_object_add(o, "ncap", json_object_new_uint64(n->ncap));
	bad = bad || json_object_object_add(o, "nuse", json_object_new_uint64(n->nuse));
	bad = bad || json_object_object_add(o, "lbaf", json_object_new_int(n->lbaf_in_use));
	bad = bad || json_object_object_add(o, "block_bytes", json_object_new_uint64(st->block));
	bad = bad || json_object_object_add(o, "metadata_bytes",
					    json_object_new_int(n->lbaf[n->lbaf_in_use].ms));
	bad = bad || json_object_object_add(o, "endgid", json_object_new_int(n->endgid));
	bad = bad || json_object_object_add(o, "tnvmcap", json_object_new_uint64(st->tnvmcap));
	bad = bad || json_object_object_add(o, "unvmcap", json_object_new_uint64(st->unvmcap));
	bad = bad || json_object_object_add(o, "ns_management", json_object_new_boolean(!st->mgmt));
	bad = bad || (st->mgmt && json_object_object_add(o, "ns_management_refused",
							 json_object_new_string(st->mgmt_why)));
	if (bad) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* --set's size in bytes: SIZE, or PERCENT of the namespace's current size in whole blocks. */
static int target_bytes(const struct ns_state *st, const char *spec, uint64_t *bytes)
{
	size_t len = strlen(spec);
	double frac;

	if (len && spec[len - 1] == '%') {
		if (units_parse_percent(spec, &frac) || frac <= 0 || frac > 1) {
			cli_error("namespace", "--set '%s': 0%% < P <= 100%% of the namespace",
				  spec);
			return -EINVAL;
		}
		/* the small term absorbs binary rounding, as in `hpa` */
		*bytes = (uint64_t)floor((double)st->ns.nsze * frac + 1e-6) * st->block;
		return 0;
	}
	if (units_parse_size(spec, bytes)) {
		cli_error("namespace",
			  "--set '%s': a size such as 200g or a percentage such as 80%%", spec);
		return -EINVAL;
	}
	return 0;
}

static int change(const struct devcmd_opts *o, const char *path, struct cli_drive *d,
		  struct devchange_ctx *c, const struct ns_state *st)
{
	struct json_object *to = NULL;
	struct journal *j = NULL;
	const char *dir = o->journal;
	char dirbuf[4096], err[1024] = "";
	uint64_t bytes;
	int ret, rc = EXIT_FAILED;

	if (target_bytes(st, o->set, &bytes))
		return EXIT_USAGE;
	/* refused from what the drive says before a journal exists or anything is sent */
	if (st->mgmt) {
		cli_error("namespace", "%s; no change made", st->mgmt_why);
		return st->mgmt == -EOPNOTSUPP ? EXIT_CAPABILITY : EXIT_FAILED;
	}
	ret = devchange_nvme_ns_shrunk(c, bytes, &to, err, sizeof err);
	if (ret) {
		cli_error("namespace", "%s: --set %s: %s; no change made", path, o->set, err);
		return ret == -EINVAL ? EXIT_USAGE : EXIT_FAILED;
	}
	if (o->dry) {
		c->dry_run = true;
		c->dry_out = stdout;
		ret = devchange_set(c, "nvme_namespace", to, err, sizeof err);
		if (ret)
			cli_error("namespace", "%s: %s", path, err);
		rc = ret ? EXIT_FAILED : EXIT_OK;
		goto out;
	}
	if (!dir) {
		ret = results_default_dir(NULL, "namespace", path,
					  (int64_t)(cli_wall_ns() / 1000000000u), dirbuf,
					  sizeof dirbuf);
		if (ret) {
			cli_error("namespace", "%s: no journal directory name: %s", path,
				  strerror(-ret));
			goto out;
		}
		dir = dirbuf;
	}
	ret = files_mkdir_p(dir);
	if (ret) {
		cli_error("namespace", "%s: %s; no change made", dir, strerror(-ret));
		goto out;
	}
	ret = journal_open(dir, &j, err, sizeof err);
	if (ret) {
		cli_error("namespace", "%s; no change made", err);
		goto out;
	}
	/* the same drive, now with the journal the change goes to */
	ret = cli_drive_ctx(d, path, j, c, err, sizeof err);
	if (ret) {
		cli_error("namespace", "%s; no change made", err);
		goto out;
	}
	ret = devchange_set(c, "nvme_namespace", to, err, sizeof err);
	if (ret) {
		cli_error("namespace",
			  "%s: %s (journal: %s; `ssdlab restore %s` puts back whatever reached "
			  "the drive)",
			  path, err, dir, dir);
		rc = ret == -EPERM	  ? EXIT_SAFETY
		     : ret == -EOPNOTSUPP ? EXIT_CAPABILITY
					  : EXIT_FAILED;
		goto out;
	}
	printf("%s: namespace %u is now %s blocks of %llu bytes, read back\n", path, c->nsid,
	       json_object_get_string(json_object_object_get(to, "nsze")),
	       (unsigned long long)st->block);
	printf("journal: %s/%s; `ssdlab restore %s` gives it its %llu blocks back\n", dir,
	       JOURNAL_FILE, dir, (unsigned long long)st->ns.nsze);
	rc = EXIT_OK;
out:
	json_object_put(to);
	journal_close(j);
	return rc;
}

int cmd_namespace(int argc, char **argv)
{
	struct devcmd_opts o = {0};
	struct devchange_ctx c;
	struct ns_state st;
	struct cli_drive d;
	const char *path;
	char err[512];
	int ret, rc = EXIT_FAILED;

	ret = parse(argc, argv, &o);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	path = o.dev;
	ret = cli_drive_open(path, &d, err, sizeof err);
	if (ret) {
		cli_error("namespace", "%s", err);
		rc = ret == -ENOTBLK ? EXIT_CAPABILITY : EXIT_FAILED;
		goto out;
	}
	if (strcmp(d.transport, "nvme")) {
		cli_error("namespace", "%s: transport %s: namespaces are NVMe's%s", path,
			  d.transport[0] ? d.transport : "unknown",
			  !strcmp(d.transport, "sata") ? " (a SATA drive is over-provisioned with "
							 "`ssdlab hpa`)"
						       : "");
		rc = EXIT_CAPABILITY;
		goto out;
	}
	ret = cli_drive_ctx(&d, path, NULL, &c, err, sizeof err);
	if (!ret)
		ret = probe(&d, &c, &st, err, sizeof err);
	if (ret) {
		cli_error("namespace", "%s: %s", path, err);
		rc = ret == -EOPNOTSUPP ? EXIT_CAPABILITY : EXIT_FAILED;
		goto out;
	}
	if (o.set) {
		rc = change(&o, path, &d, &c, &st);
		goto out;
	}
	if (o.json) {
		struct json_object *j = json(path, &st);

		if (!j) {
			cli_error("namespace", "out of memory");
			goto out;
		}
		puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
							   JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(j);
	} else {
		text(path, &st);
	}
	rc = EXIT_OK;
out:
	cli_drive_close(&d);
	return rc;
}
