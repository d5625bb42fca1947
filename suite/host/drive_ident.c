// SPDX-License-Identifier: MIT
/*
 * drive_ident: a drive's identity from sysfs and from the drive itself (see drive_ident.h). The
 * NVMe and ATA parts are what `ssdlab info` shows (its JSON keys "nvme_identify" and "ata").
 */
#include "host/drive_ident.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/jsonnum.h"
#include "base/units.h"
#include "host/ata_cmd.h"
#include "host/nvme_admin.h"

/* Kelvin as the controller reports it; 0 means "not reported". */
static double kelvin_c(uint16_t k)
{
	return k ? k - 273.15 : NAN;
}

/* 2^LBADS bytes; 0 for a value no drive could mean (a 32-bit block size or more) */
static uint64_t lba_bytes(const struct nvme_lbaf *l)
{
	return l->lbads < 32 ? 1ull << l->lbads : 0;
}

static void ident_features(const struct ioctl_ops *ops, int fd, struct drive_ident_nvme *id)
{
	char err[256];
	int r;

	id->vwc_enabled = -1;
	id->apst_enabled = -1;
	/* Get Features VWC is Invalid Field on a drive without a volatile cache: ask only when present */
	if (id->c.vwc & 1) {
		r = nvme_feature_enabled(ops, fd, NVME_FEAT_VWC, err, sizeof err);
		id->vwc_enabled = r < 0 ? -1 : r;
	}
	if (id->c.apsta & 1) {
		r = nvme_feature_enabled(ops, fd, NVME_FEAT_APST, err, sizeof err);
		id->apst_enabled = r < 0 ? -1 : r;
	}
}

void drive_ident_nvme_fd(const struct ioctl_ops *ops, int fd, uint32_t nsid, struct drive_ident_nvme *id)
{
	memset(id, 0, sizeof *id);
	id->vwc_enabled = id->apst_enabled = -1;
	if (nvme_id_ctrl_read(ops, fd, &id->c, id->err, sizeof id->err) ||
	    nvme_id_ns_read(ops, fd, nsid, &id->ns, id->err, sizeof id->err))
		return;
	ident_features(ops, fd, id);
	id->ok = true;
}

void drive_ident_nvme_read(const struct ioctl_ops *ops, const char *dev, uint32_t nsid, struct drive_ident_nvme *id)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		memset(id, 0, sizeof *id);
		id->vwc_enabled = id->apst_enabled = -1;
		snprintf(id->err, sizeof id->err, "%s: %s", dev, strerror(errno));
		return;
	}
	drive_ident_nvme_fd(ops, fd, nsid, id);
	close(fd);
}

static struct json_object *lbaf_json(const struct nvme_lbaf *l, int index, int *e)
{
	struct json_object *o = json_object_new_object();

	if (!o) {
		*e = -ENOMEM;
		return NULL;
	}
	jsonnum_build_num(o, "index", index, e);
	jsonnum_build_num(o, "data_bytes", (double)lba_bytes(l), e);
	jsonnum_build_num(o, "metadata_bytes", l->ms, e);
	jsonnum_build_num(o, "relative_performance", l->rp, e);
	return o;
}

/* {HAS: has, "enabled": enabled (null when -1: not asked or not answered)}; NULL with *e set
 * when out of memory. */
static struct json_object *feature_json(const char *has_key, bool has, int enabled, int *e)
{
	struct json_object *x = json_object_new_object();

	if (!x) {
		*e = -ENOMEM;
		return NULL;
	}
	jsonnum_build_add(x, has_key, json_object_new_boolean(has), e);
	if (enabled >= 0)
		jsonnum_build_add(x, "enabled", json_object_new_boolean(enabled), e);
	else
		jsonnum_build_num(x, "enabled", NAN, e); /* null */
	return x;
}

int drive_ident_nvme_json(struct json_object *o, const struct drive_ident_nvme *id)
{
	const struct nvme_id_ctrl *c = &id->c;
	const struct nvme_id_ns *ns = &id->ns;
	struct json_object *n = json_object_new_object(), *x;
	int e = 0;

	if (!n)
		return -ENOMEM;
	if (!id->ok) {
		jsonnum_build_add(n, "error", json_object_new_string(id->err), &e);
		jsonnum_build_add(o, "nvme_identify", n, &e);
		return e;
	}
	jsonnum_build_num(n, "vendor_id", c->vid, &e);
	jsonnum_build_add(n, "model", json_object_new_string(c->mn), &e);
	jsonnum_build_add(n, "serial", json_object_new_string(c->sn), &e);
	jsonnum_build_add(n, "firmware", json_object_new_string(c->fr), &e);
	x = lbaf_json(&ns->lbaf[ns->lbaf_in_use], ns->lbaf_in_use, &e);
	if (x)
		jsonnum_build_add(n, "lba_format", x, &e);
	x = json_object_new_array();
	for (int i = 0; x && i < ns->nlbaf && !e; i++) {
		struct json_object *l = lbaf_json(&ns->lbaf[i], i, &e);
		if (l)
			jsonnum_build_push(x, l, &e);
	}
	jsonnum_build_add(n, "lba_formats", x, &e);
	jsonnum_build_add(n, "extended_metadata", json_object_new_boolean(ns->extended_metadata), &e);
	jsonnum_build_num(n, "nsze", (double)ns->nsze, &e);
	jsonnum_build_num(n, "ncap", (double)ns->ncap, &e);
	jsonnum_build_num(n, "nuse", (double)ns->nuse, &e);
	jsonnum_build_num(n, "nvmcap", ns->nvmcap_overflow ? NAN : (double)ns->nvmcap, &e);
	jsonnum_build_num(n, "tnvmcap", c->tnvmcap_overflow ? NAN : (double)c->tnvmcap, &e);
	jsonnum_build_num(n, "endgid", ns->endgid, &e);
	jsonnum_build_add(n, "volatile_write_cache", feature_json("present", c->vwc & 1, id->vwc_enabled, &e), &e);
	jsonnum_build_add(n, "apst", feature_json("supported", c->apsta & 1, id->apst_enabled, &e), &e);
	x = json_object_new_object();
	if (x) {
		struct json_object *s = json_object_new_array();
		jsonnum_build_add(x, "format", json_object_new_boolean(c->oacs & NVME_OACS_FORMAT), &e);
		jsonnum_build_add(x, "format_crypto_erase", json_object_new_boolean(c->fna & NVME_FNA_CRYPTO_ERASE), &e);
		if (s && (c->sanicap & NVME_SANICAP_CRYPTO))
			jsonnum_build_push(s, json_object_new_string("crypto"), &e);
		if (s && (c->sanicap & NVME_SANICAP_BLOCK))
			jsonnum_build_push(s, json_object_new_string("block"), &e);
		if (s && (c->sanicap & NVME_SANICAP_OVERWRITE))
			jsonnum_build_push(s, json_object_new_string("overwrite"), &e);
		jsonnum_build_add(x, "sanitize", s, &e);
		jsonnum_build_add(x, "namespace_management", json_object_new_boolean(c->oacs & NVME_OACS_NS_MGMT), &e);
		jsonnum_build_add(x, "security_send_receive", json_object_new_boolean(c->oacs & NVME_OACS_SECURITY), &e);
		jsonnum_build_add(x, "firmware_download", json_object_new_boolean(c->oacs & NVME_OACS_FIRMWARE), &e);
		jsonnum_build_add(x, "endurance_groups", json_object_new_boolean(c->ctratt & NVME_CTRATT_ENDGRP), &e);
		jsonnum_build_add(x, "smart_per_namespace", json_object_new_boolean(c->lpa & NVME_LPA_SMART_PER_NS), &e);
	}
	jsonnum_build_add(n, "capabilities", x, &e);
	jsonnum_build_num(n, "warning_temp_c", kelvin_c(c->wctemp_k), &e);
	jsonnum_build_num(n, "critical_temp_c", kelvin_c(c->cctemp_k), &e);
	jsonnum_build_add(o, "nvme_identify", n, &e);
	return e;
}

void drive_ident_ata_fd(const struct ioctl_ops *ops, int fd, struct drive_ident_ata *out)
{
	uint8_t id[ATA_IDENTIFY_LEN];
	int ret;

	memset(out, 0, sizeof *out);
	ret = ata_identify_read(ops, fd, id, out->why, sizeof out->why);
	if (ret) {
		if (ret == -EPERM || ret == -EACCES)
			snprintf(out->why + strlen(out->why), sizeof out->why - strlen(out->why),
				 " (ATA PASS-THROUGH needs CAP_SYS_RAWIO)");
		return;
	}
	ata_identify_decode(id, &out->id);
	ata_hpa_read(ops, fd, &out->id, &out->hpa);
	out->read = true;
}

void drive_ident_ata_read(const struct ioctl_ops *ops, const char *dev, struct drive_ident_ata *out)
{
	int fd = open(dev, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		memset(out, 0, sizeof *out);
		snprintf(out->why, sizeof out->why, "%s: %s", dev, strerror(errno));
		return;
	}
	drive_ident_ata_fd(ops, fd, out);
	close(fd);
}

/* HIPM is the host's choice: libata uses it under every link power management policy but
 * max_performance and keep_firmware_settings (drivers/ata/libata-sata.c, ata_lpm_policy_names).
 * -1 when the policy is unknown. */
int drive_ident_hipm_in_use(const struct ata_identity *d, const char *alpm)
{
	if (!d->sata_valid || !*alpm)
		return -1;
	if (!d->hipm)
		return 0;
	return strcmp(alpm, "max_performance") && strcmp(alpm, "keep_firmware_settings");
}

const char *drive_ident_hpa_state(const struct drive_ident_ata *a)
{
	return !a->hpa.known ? "unknown" : a->hpa.hidden_bytes ? "active" : "none";
}

/* key: v where a NULL v is a JSON null (unknown); the first error stays in *e. */
static void add_opt(struct json_object *o, const char *key, struct json_object *v, int *e)
{
	if (*e) {
		json_object_put(v);
		return;
	}
	*e = jsonnum_add(o, key, v);
}

/* {"supported": s, "enabled": e}; -1 is null (unknown). */
static struct json_object *pair(int s, int e)
{
	struct json_object *o = json_object_new_object();
	int err = 0;

	if (!o)
		return NULL;
	add_opt(o, "supported", s < 0 ? NULL : json_object_new_boolean(s), &err);
	add_opt(o, "enabled", e < 0 ? NULL : json_object_new_boolean(e), &err);
	if (err) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

int drive_ident_ata_json(struct json_object *top, const struct drive_ident_ata *a, const char *alpm)
{
	const struct ata_identity *d = &a->id;
	struct json_object *o = json_object_new_object(), *x;
	int e = 0, sv = d->sata_valid ? 1 : -1;

	if (!o)
		return -ENOMEM;
	jsonnum_build_add(o, "read", json_object_new_boolean(a->read), &e);
	if (!a->read) {
		jsonnum_build_add(o, "reason", json_object_new_string(a->why), &e);
		goto done;
	}
	jsonnum_build_add(o, "model", json_object_new_string(d->model), &e);
	jsonnum_build_add(o, "serial", json_object_new_string(d->serial), &e);
	jsonnum_build_add(o, "firmware", json_object_new_string(d->firmware), &e);
	add_opt(o, "major_version", d->major_version < 0 ? NULL : json_object_new_string(d->major_name), &e);
	jsonnum_build_add(o, "lba48", json_object_new_boolean(d->lba48), &e);
	jsonnum_build_num(o, "logical_sector_size", d->logical_sector, &e);
	jsonnum_build_num(o, "physical_sector_size", d->physical_sector, &e);
	jsonnum_build_num(o, "user_sectors", (double)d->user_sectors, &e);
	jsonnum_build_add(o, "smart", pair(d->smart_supported, d->smart_enabled), &e);
	jsonnum_build_add(o, "write_cache", pair(d->write_cache_supported, d->write_cache_enabled), &e);
	x = json_object_new_object();
	if (x) {
		jsonnum_build_add(x, "supported", json_object_new_boolean(d->trim), &e);
		jsonnum_build_add(x, "deterministic_read", json_object_new_boolean(d->trim_drat), &e);
		jsonnum_build_add(x, "read_zeroes", json_object_new_boolean(d->trim_rzat), &e);
	}
	jsonnum_build_add(o, "trim", x, &e);
	x = pair(d->hpa_supported, d->hpa_enabled);
	if (x) {
		jsonnum_build_add(x, "state", json_object_new_string(drive_ident_hpa_state(a)), &e);
		/* LBAs up to 2^48: exact in a double */
		jsonnum_build_num(x, "current_max_lba", d->user_sectors ? (double)(d->user_sectors - 1) : 0, &e);
		jsonnum_build_num(x, "native_max_lba", a->hpa.known ? (double)a->hpa.native_max_lba : NAN, &e);
		jsonnum_build_num(x, "hidden_bytes", a->hpa.known ? (double)a->hpa.hidden_bytes : NAN, &e);
		add_opt(x, "reason", a->hpa.known ? NULL : json_object_new_string(a->hpa.why), &e);
	}
	jsonnum_build_add(o, "hpa", x, &e);
	x = pair(d->security_supported, d->security_enabled);
	if (x) {
		jsonnum_build_add(x, "frozen", json_object_new_boolean(d->security_frozen), &e);
		jsonnum_build_add(x, "locked", json_object_new_boolean(d->security_locked), &e);
	}
	jsonnum_build_add(o, "security", x, &e);
	x = json_object_new_object();
	if (x) {
		jsonnum_build_add(x, "supported", json_object_new_boolean(d->sanitize), &e);
		jsonnum_build_add(x, "block_erase", json_object_new_boolean(d->sanitize_block_erase), &e);
		jsonnum_build_add(x, "crypto_scramble", json_object_new_boolean(d->sanitize_crypto), &e);
		jsonnum_build_add(x, "overwrite", json_object_new_boolean(d->sanitize_overwrite), &e);
	}
	jsonnum_build_add(o, "sanitize", x, &e);
	/* SATA words 76-79 absent (PATA, some bridges): unknown, not "no" */
	jsonnum_build_add(o, "devslp", pair(sv < 0 ? -1 : d->devslp_supported, sv < 0 ? -1 : d->devslp_enabled),
			  &e);
	jsonnum_build_add(o, "dipm", pair(sv < 0 ? -1 : d->dipm_supported, sv < 0 ? -1 : d->dipm_enabled), &e);
	jsonnum_build_add(o, "hipm", pair(sv < 0 ? -1 : d->hipm, drive_ident_hipm_in_use(d, alpm)), &e);
done:
	if (e) {
		json_object_put(o);
		return e;
	}
	return jsonnum_add(top, "ata", o);
}


int drive_ident_sysfs(const char *sysfs_root, dev_t dev, struct drive_ident *d)
{
	const struct devinfo_roots roots = {.sysfs = sysfs_root};
	struct devinfo di;
	struct devinfo_link x;
	struct devinfo_nvme nv;
	int rc;

	memset(d, 0, sizeof *d);
	rc = devinfo_read(&roots, dev, &di);
	if (!rc)
		rc = devinfo_link_read(&roots, dev, &x);
	if (rc) {
		snprintf(d->reason, sizeof d->reason, "not found in sysfs: %s", strerror(-rc));
		return rc;
	}
	snprintf(d->model, sizeof d->model, "%s", di.model);
	snprintf(d->serial, sizeof d->serial, "%s", di.serial);
	snprintf(d->firmware, sizeof d->firmware, "%s", di.firmware);
	d->capacity = di.capacity;
	snprintf(d->transport, sizeof d->transport, "%s", x.transport);
	snprintf(d->alpm, sizeof d->alpm, "%s", x.alpm);
	/* the same tests as `info`: an NVMe namespace by its place in sysfs, SATA by its transport */
	if (!devinfo_nvme_topology(&roots, di.disk, &nv)) {
		d->kind = DRIVE_IDENT_NVME;
		d->nsid = nv.nsid;
	} else if (!strcmp(x.transport, "sata")) {
		d->kind = DRIVE_IDENT_SATA;
	} else {
		snprintf(d->reason, sizeof d->reason,
			 "transport %s: neither NVMe nor SATA, so the drive is not asked (sysfs identity only)",
			 *x.transport ? x.transport : "unknown");
	}
	return 0;
}

void drive_ident_ask(const struct ioctl_ops *ops, int fd, struct drive_ident *d)
{
	switch (d->kind) {
	case DRIVE_IDENT_NVME:
		drive_ident_nvme_fd(ops, fd, d->nsid, &d->nvme);
		d->read = d->nvme.ok;
		snprintf(d->reason, sizeof d->reason, "%s", d->read ? "" : d->nvme.err);
		break;
	case DRIVE_IDENT_SATA:
		drive_ident_ata_fd(ops, fd, &d->ata);
		d->read = d->ata.read;
		snprintf(d->reason, sizeof d->reason, "%s", d->read ? "" : d->ata.why);
		break;
	case DRIVE_IDENT_OTHER:
		if (!*d->reason)
			snprintf(d->reason, sizeof d->reason, "not an NVMe or SATA drive: not asked");
		break;
	}
}

/* The drive's own string when it answered and the string is not empty, else sysfs's. */
static const char *pick(const struct drive_ident *d, const char *nvme, const char *ata, const char *sysfs)
{
	const char *own = !d->read ? NULL : d->kind == DRIVE_IDENT_NVME ? nvme : d->kind == DRIVE_IDENT_SATA ? ata : NULL;

	return own && *own ? own : sysfs;
}

const char *drive_ident_model(const struct drive_ident *d)
{
	return pick(d, d->nvme.c.mn, d->ata.id.model, d->model);
}

const char *drive_ident_serial(const struct drive_ident *d)
{
	return pick(d, d->nvme.c.sn, d->ata.id.serial, d->serial);
}

const char *drive_ident_firmware(const struct drive_ident *d)
{
	return pick(d, d->nvme.c.fr, d->ata.id.firmware, d->firmware);
}

struct json_object *drive_ident_to_json(const struct drive_ident *d)
{
	struct json_object *o = json_object_new_object();
	const char *src = !d->read ? "sysfs" : d->kind == DRIVE_IDENT_NVME ? "nvme-identify" : "ata-identify";
	int e = 0;

	if (!o)
		return NULL;
	add_opt(o, "transport", *d->transport ? json_object_new_string(d->transport) : NULL, &e);
	jsonnum_build_add(o, "source", json_object_new_string(src), &e);
	jsonnum_build_add(o, "read", json_object_new_boolean(d->read), &e);
	add_opt(o, "reason", d->read ? NULL : json_object_new_string(d->reason), &e);
	jsonnum_build_add(o, "model", json_object_new_string(drive_ident_model(d)), &e);
	jsonnum_build_add(o, "serial", json_object_new_string(drive_ident_serial(d)), &e);
	jsonnum_build_add(o, "firmware", json_object_new_string(drive_ident_firmware(d)), &e);
	jsonnum_build_num(o, "capacity", (double)d->capacity, &e);
	if (!e && d->kind == DRIVE_IDENT_NVME) {
		jsonnum_build_num(o, "nsid", d->nsid, &e);
		if (!e)
			e = drive_ident_nvme_json(o, &d->nvme);
	}
	if (!e && d->kind == DRIVE_IDENT_SATA)
		e = drive_ident_ata_json(o, &d->ata, d->alpm);
	if (e) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

void drive_ident_summary(const struct drive_ident *d, char *buf, size_t len)
{
	const struct nvme_id_ns *ns = &d->nvme.ns;
	const struct drive_ident_ata *a = &d->ata;
	const char *tr = *d->transport ? d->transport : "unknown";

	if (!d->read && d->kind == DRIVE_IDENT_OTHER) {
		snprintf(buf, len, "%s", d->reason); /* names the transport already */
		return;
	}
	if (!d->read) {
		snprintf(buf, len, "transport %s; the drive's own identity not read: %s", tr, d->reason);
		return;
	}
	if (d->kind == DRIVE_IDENT_NVME) {
		const struct nvme_lbaf *u = &ns->lbaf[ns->lbaf_in_use];
		snprintf(buf, len, "transport nvme, namespace %u, LBA format #%u (%llu B data, %u B metadata)", d->nsid,
			 ns->lbaf_in_use, (unsigned long long)lba_bytes(u), u->ms);
		return;
	}
	if (!a->hpa.known)
		snprintf(buf, len, "transport %s, HPA unknown (%s)", tr, a->hpa.why);
	else if (!a->hpa.hidden_bytes)
		snprintf(buf, len, "transport %s, HPA none (native max LBA %llu = current)", tr,
			 (unsigned long long)a->hpa.native_max_lba);
	else
		snprintf(buf, len, "transport %s, HPA active: hides %llu bytes (native max LBA %llu, current %llu)", tr,
			 (unsigned long long)a->hpa.hidden_bytes, (unsigned long long)a->hpa.native_max_lba,
			 (unsigned long long)a->hpa.current_max_lba);
}
