// SPDX-License-Identifier: MIT
/*
 * purge_chain: the table of purge methods and the `auto` walk over it (purge_chain.h).
 */
#include "targets/purge_chain.h"
#include "host/nvme_admin.h"
#include "host/nvme_ident.h"
#include "host/safety.h"
#include "targets/purge_ata.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the rows learn about the drive, read once per purge. */
struct chain {
	const struct purge_drive *d;
	const struct ioctl_ops *ops;
	bool have_nvme; /* ctrl and ns_page read */
	int nvme_rc;	/* why not */
	char nvme_err[256];
	struct nvme_id_ctrl ctrl;
	_Alignas(4096) uint8_t ns_page[NVME_IDENTIFY_LEN];
	enum nvme_sanact act;	      /* nvme-sanitize's choice */
	struct nvme_format_plan plan; /* nvme-format's */
};

struct purge_row {
	const char *name;
	bool pts; /* a SNIA PTS purge (the discard is not) */
	/* 0 when the row applies to the drive; -EOPNOTSUPP (or -errno) with why. in_auto: `auto`
	 * is asking (it takes only what returns the flash to fresh-out-of-box at once). */
	int (*check)(struct chain *c, bool in_auto, char *why, size_t len);
	int (*run)(struct chain *c, struct purge_outcome *out, char *err, size_t len);
};

static int read_nvme(struct chain *c)
{
	struct nvme_admin_cmd cmd;

	if (c->have_nvme || c->nvme_rc)
		return c->nvme_rc;
	c->nvme_rc = nvme_id_ctrl_read(c->ops, c->d->fd, &c->ctrl, c->nvme_err, sizeof c->nvme_err);
	if (!c->nvme_rc) {
		nvme_identify_cmd(&cmd, c->d->nsid, NVME_CNS_NS, c->ns_page);
		c->nvme_rc = nvme_admin_send(c->ops, c->d->fd, &cmd, "Identify Namespace",
					     c->nvme_err, sizeof c->nvme_err);
	}
	c->have_nvme = !c->nvme_rc;
	return c->nvme_rc;
}

/* Prints cmd instead of sending it (dry run), or sends it. */
static int send(struct chain *c, struct nvme_admin_cmd *cmd, const char *what, char *err,
		size_t len)
{
	char line[640];

	if (c->d->dry_run) {
		nvme_cmd_describe(cmd, line, sizeof line);
		fprintf(c->d->dry_out ? c->d->dry_out : stdout, "would send: %s\n", line);
		return 0;
	}
	return nvme_admin_send(c->ops, c->d->fd, cmd, what, err, len);
}

static int reach(struct chain *c, const char *what, char *err, size_t len)
{
	if (!c->d->reach_ok) {
		snprintf(err, len,
			 "%s reaches every namespace of the subsystem and nothing checked them",
			 what);
		return -EPERM;
	}
	return c->d->reach_ok(c->d->ctx, what, err, len);
}

static int discard_all(struct chain *c, char *err, size_t len)
{
	int rc;

	if (c->d->dry_run) {
		fprintf(c->d->dry_out ? c->d->dry_out : stdout,
			"would send: a discard of the whole device\n");
		return 0;
	}
	if (!c->d->discard) {
		snprintf(err, len, "the device has no discard");
		return -EOPNOTSUPP;
	}
	rc = c->d->discard(c->d->ctx);
	if (rc)
		snprintf(err, len, "full-device discard: %s", strerror(-rc));
	return rc;
}

/* ---- nvme-sanitize ---- */

static int sanitize_check(struct chain *c, bool in_auto, char *why, size_t len)
{
	int rc;

	if (c->d->transport != PURGE_NVME) {
		snprintf(why, len, "not an NVMe drive");
		return -EOPNOTSUPP;
	}
	rc = read_nvme(c);
	if (rc) {
		snprintf(why, len, "%s", c->nvme_err);
		return rc;
	}
	c->act = nvme_sanitize_pick(c->ctrl.sanicap);
	if (!c->act) {
		snprintf(why, len, "the controller has no sanitize (SANICAP 0x%x)",
			 c->ctrl.sanicap);
		return -EOPNOTSUPP;
	}
	/* auto wants the erase that resets every block: a crypto erase or an overwrite is only
	 * taken when the profile names nvme-sanitize */
	if (in_auto && c->act != NVME_SANACT_BLOCK_ERASE) {
		snprintf(why, len, "no block-erase sanitize (SANICAP 0x%x)", c->ctrl.sanicap);
		return -EOPNOTSUPP;
	}
	return 0;
}

static int sanitize_run(struct chain *c, struct purge_outcome *out, char *err, size_t len)
{
	struct nvme_admin_cmd cmd;
	int rc;

	snprintf(out->method, sizeof out->method, "nvme-sanitize (%s)", nvme_sanact_name(c->act));
	out->all_namespaces = true;
	rc = reach(c, "an NVMe sanitize", err, len);
	if (rc)
		return rc;
	if (c->d->dry_run) {
		nvme_sanitize_cmd(&cmd, c->act);
		rc = send(c, &cmd, "Sanitize", err, len);
	} else {
		rc = nvme_sanitize_run(c->ops, c->d->fd, c->act, c->d->wait, err, len);
	}
	if (!rc && c->act == NVME_SANACT_CRYPTO_ERASE) {
		out->discard_after = true;
		rc = discard_all(c, err, len);
	}
	return rc;
}

/* ---- nvme-format ---- */

static int format_check(struct chain *c, bool in_auto, char *why, size_t len)
{
	int rc;

	(void)in_auto;
	if (c->d->transport != PURGE_NVME) {
		snprintf(why, len, "not an NVMe drive");
		return -EOPNOTSUPP;
	}
	rc = read_nvme(c);
	if (rc) {
		snprintf(why, len, "%s", c->nvme_err);
		return rc;
	}
	return nvme_format_plan(&c->ctrl, c->ns_page, c->d->nsid, NVME_SES_USER_DATA, &c->plan, why,
				len);
}

static int format_run(struct chain *c, struct purge_outcome *out, char *err, size_t len)
{
	_Alignas(4096) uint8_t after[NVME_IDENTIFY_LEN];
	struct nvme_admin_cmd cmd;
	int rc;

	snprintf(out->method, sizeof out->method, "nvme-format (user data erase)");
	out->all_namespaces = c->plan.all_namespaces;
	if (c->plan.all_namespaces) {
		rc = reach(c, "an NVMe format (FNA: it reaches every namespace)", err, len);
		if (rc)
			return rc;
	}
	nvme_format_cmd(&cmd, &c->plan);
	rc = send(c, &cmd, "Format NVM", err, len);
	if (rc || c->d->dry_run)
		return rc;
	/* The namespace must come back in the LBA format it had (a 4Kn drive formatted with LBAF 0
	 * would return 512-byte). */
	nvme_identify_cmd(&cmd, c->d->nsid, NVME_CNS_NS, after);
	rc = nvme_admin_send(c->ops, c->d->fd, &cmd, "Identify Namespace after the format", err,
			     len);
	if (rc)
		return rc;
	if (after[26] != c->ns_page[26]) {
		snprintf(err, len, "the format changed FLBAS from 0x%02x to 0x%02x", c->ns_page[26],
			 after[26]);
		return -EIO;
	}
	return 0;
}

/* ---- discard ---- */

static int discard_check(struct chain *c, bool in_auto, char *why, size_t len)
{
	(void)in_auto;
	if (!c->d->discard) {
		snprintf(why, len, "the device has no discard");
		return -EOPNOTSUPP;
	}
	return 0;
}

static int discard_run(struct chain *c, struct purge_outcome *out, char *err, size_t len)
{
	snprintf(out->method, sizeof out->method, "discard");
	return discard_all(c, err, len);
}

/* ---- the ATA rows (targets/purge_ata.h: the drive checked from a fresh IDENTIFY) ---- */

static int ata_check(struct chain *c, const char *name, bool in_auto, char *why, size_t len)
{
	if (c->d->transport != PURGE_ATA) {
		snprintf(why, len, "not a SATA drive");
		return -EOPNOTSUPP;
	}
	return purge_ata_check(c->ops, c->d->fd, c->d->link, name, in_auto, why, len);
}

static int ata_block_check(struct chain *c, bool in_auto, char *why, size_t len)
{
	return ata_check(c, "ata-sanitize-block", in_auto, why, len);
}

static int ata_crypto_check(struct chain *c, bool in_auto, char *why, size_t len)
{
	/* auto wants the erase that resets every block, as for nvme-sanitize */
	if (in_auto) {
		snprintf(why, len, "auto takes a block erase; a crypto scramble only when named");
		return -EOPNOTSUPP;
	}
	return ata_check(c, "ata-sanitize-crypto", in_auto, why, len);
}

static int ata_erase_check(struct chain *c, bool in_auto, char *why, size_t len)
{
	int rc = ata_check(c, "ata-security-erase", in_auto, why, len);

	/* the password must be journaled before it is set: no journal, no security erase */
	if (!rc && !c->d->change && !c->d->dry_run) {
		snprintf(why, len, "no journal to record the security password in");
		rc = -EOPNOTSUPP;
	}
	return rc;
}

static int ata_run(struct chain *c, const char *name, struct purge_outcome *out, char *err,
		   size_t len)
{
	struct devchange_ctx dc = {.transport = DRIVEDB_ATA};
	struct ata_poll poll = {0};
	struct purge_ata_done done = {0};
	int rc;

	if (c->d->change)
		dc = *c->d->change;
	dc.ops = c->ops;
	dc.fd = c->d->fd;
	dc.dry_run = c->d->dry_run;
	dc.dry_out = c->d->dry_out;
	if (c->d->wait)
		poll = (struct ata_poll){.interval_ns = c->d->wait->poll_ns,
					 .wait = c->d->wait->sleep_ns,
					 .progress = c->d->wait->progress,
					 .ctx = c->d->wait->ctx};
	snprintf(out->method, sizeof out->method, "%s", name);
	rc = purge_ata_run(&dc, c->d->link, name, &poll, &done, err, len);
	if (!rc && !strcmp(name, "ata-security-erase"))
		snprintf(out->method, sizeof out->method, "ata-security-erase (%s)",
			 done.enhanced ? "enhanced" : "normal");
	return rc;
}

static int ata_block_run(struct chain *c, struct purge_outcome *out, char *err, size_t len)
{
	return ata_run(c, "ata-sanitize-block", out, err, len);
}

static int ata_crypto_run(struct chain *c, struct purge_outcome *out, char *err, size_t len)
{
	int rc = ata_run(c, "ata-sanitize-crypto", out, err, len);

	/* a new key, the old mapping: discard it all before it counts as fresh-out-of-box */
	if (!rc) {
		out->discard_after = true;
		rc = discard_all(c, err, len);
	}
	return rc;
}

static int ata_erase_run(struct chain *c, struct purge_outcome *out, char *err, size_t len)
{
	return ata_run(c, "ata-security-erase", out, err, len);
}

/* In `auto` order (issue 13 point 4): block-erase sanitize, NVMe format with user-data erase,
 * ATA enhanced security erase, discard; ata-sanitize-crypto only when named. */
static const struct purge_row rows[] = {
    {"nvme-sanitize", true, sanitize_check, sanitize_run},
    {"ata-sanitize-block", true, ata_block_check, ata_block_run},
    {"nvme-format", true, format_check, format_run},
    {"ata-security-erase", true, ata_erase_check, ata_erase_run},
    {"discard", false, discard_check, discard_run},
    {"ata-sanitize-crypto", true, ata_crypto_check, ata_crypto_run},
};
#define NROWS (sizeof rows / sizeof rows[0])

const char *const purge_chain_names[] = {
    "nvme-sanitize", "ata-sanitize-block",  "nvme-format", "ata-security-erase",
    "discard",	     "ata-sanitize-crypto", NULL};

static void append(char *buf, size_t len, const char *name, const char *why)
{
	size_t at = strlen(buf);

	if (at < len)
		snprintf(buf + at, len - at, "%s%s: %s", at ? "; " : "", name, why);
}

int purge_chain_run(const struct purge_drive *d, const char *want, struct purge_outcome *out,
		    char *err, size_t errlen)
{
	struct chain *c;
	bool in_auto = !want || !*want || !strcmp(want, "auto");
	char why[512];
	int rc = -EOPNOTSUPP;
	size_t i;

	memset(out, 0, sizeof *out);
	/* the Identify page is 4 KiB, page aligned for the kernel's mapping: not on the stack */
	c = aligned_alloc(4096, sizeof *c);
	if (!c) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	memset(c, 0, sizeof *c);
	c->d = d;
	c->ops = d->ops ? d->ops : &ioctl_ops_real;
	for (i = 0; i < NROWS; i++) {
		const struct purge_row *r = &rows[i];

		if (!in_auto && strcmp(want, r->name))
			continue;
		why[0] = 0;
		rc = r->check(c, in_auto, why, sizeof why);
		if (rc) {
			if (!in_auto) {
				snprintf(err, errlen, "purge method %s: %s", r->name, why);
				goto out;
			}
			append(out->skipped, sizeof out->skipped, r->name, why);
			continue;
		}
		out->pts_purge = r->pts;
		rc = r->run(c, out, err, errlen);
		goto out;
	}
	if (!in_auto) {
		snprintf(err, errlen, "unknown purge method '%s'", want);
		rc = -EINVAL;
	} else {
		snprintf(err, errlen, "no purge method applies: %s", out->skipped);
		rc = -EOPNOTSUPP;
	}
out:
	free(c);
	return rc;
}

int purge_reach_subsystem(const struct devinfo_nvme *nv, const struct safety_opts *o,
			  const char *what, char *reason, size_t len)
{
	struct safety_opts so = o ? *o : (struct safety_opts){0};
	struct safety_target ti = {.kind = SAFETY_BLOCKDEV, .nvme = nv};
	char path[64];

	if (!nv->ns[0] || !nv->subsystem_ns[0]) {
		snprintf(reason, len,
			 "%s reaches every namespace, and sysfs does not say which they are", what);
		return -EPERM;
	}
	snprintf(path, sizeof path, "/dev/%s", nv->ns);
	ti.path = path;
	/* the other namespaces are nobody's to hold: the O_EXCL probe too */
	so.probe_excl = true;
	return safety_check_reach(&ti, what, &so, reason, len);
}
