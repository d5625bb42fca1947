// SPDX-License-Identifier: MIT
#include "cli/nvme_report.h"
#include "base/units.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/jsonnum.h"
#include "host/ioctl_ops.h"
#include "host/nvme_admin.h"

/* Kelvin as the controller reports it; 0 means "not reported". */
static double kelvin_c(uint16_t k)
{
	return k ? units_kelvin_to_celsius(k) : NAN;
}

/* 2^LBADS bytes; 0 for a value no drive could mean (a 32-bit block size or more) */
static uint64_t lba_bytes(const struct nvme_lbaf *l)
{
	return l->lbads < 32 ? 1ull << l->lbads : 0;
}

static void ident_features(const struct ioctl_ops *ops, int fd, struct nvme_report_ident *id)
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

void nvme_report_ident_fd(const struct ioctl_ops *ops, int fd, uint32_t nsid, struct nvme_report_ident *id)
{
	memset(id, 0, sizeof *id);
	id->vwc_enabled = id->apst_enabled = -1;
	if (nvme_id_ctrl_read(ops, fd, &id->c, id->err, sizeof id->err) ||
	    nvme_id_ns_read(ops, fd, nsid, &id->ns, id->err, sizeof id->err))
		return;
	ident_features(ops, fd, id);
	id->ok = true;
}

void nvme_report_ident_read(const struct ioctl_ops *ops, const char *dev, uint32_t nsid, struct nvme_report_ident *id)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		memset(id, 0, sizeof *id);
		id->vwc_enabled = id->apst_enabled = -1;
		snprintf(id->err, sizeof id->err, "%s: %s", dev, strerror(errno));
		return;
	}
	nvme_report_ident_fd(ops, fd, nsid, id);
	close(fd);
}

static const char *yesno(bool b)
{
	return b ? "yes" : "no";
}

static const char *tri(int v)
{
	return v > 0 ? "yes" : v == 0 ? "no" : "unknown";
}

/* "crypto block overwrite", or "none" */
static void sanitize_methods(uint32_t sanicap, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", sanicap & NVME_SANICAP_CRYPTO ? "crypto " : "",
		 sanicap & NVME_SANICAP_BLOCK ? "block " : "", sanicap & NVME_SANICAP_OVERWRITE ? "overwrite " : "");
	if (!*buf)
		snprintf(buf, len, "none");
	else
		buf[strlen(buf) - 1] = '\0';
}

void nvme_report_ident_text(FILE *f, const struct nvme_report_ident *id)
{
	const struct nvme_id_ctrl *c = &id->c;
	const struct nvme_id_ns *ns = &id->ns;
	char san[40];

	if (!id->ok) {
		fprintf(f, "  NVMe identify unknown (%s)\n", id->err);
		return;
	}
	fprintf(f, "  NVMe identify VID 0x%04x, model %s, serial %s, firmware %s\n", c->vid, c->mn, c->sn, c->fr);
	const struct nvme_lbaf *u = &ns->lbaf[ns->lbaf_in_use];
	fprintf(f, "  LBA format    #%u: %llu B data, %u B metadata%s, relative performance %u; of", ns->lbaf_in_use,
		(unsigned long long)lba_bytes(u), u->ms, ns->extended_metadata ? " (extended)" : "", u->rp);
	for (int i = 0; i < ns->nlbaf; i++)
		fprintf(f, " #%d %llu+%u rp%u", i, (unsigned long long)lba_bytes(&ns->lbaf[i]), ns->lbaf[i].ms, ns->lbaf[i].rp);
	fprintf(f, "\n  namespace     size %llu, capacity %llu, used %llu blocks; ENDGID %u\n",
		(unsigned long long)ns->nsze, (unsigned long long)ns->ncap, (unsigned long long)ns->nuse, ns->endgid);
	fprintf(f, "  VWC           present %s, enabled %s\n", yesno(c->vwc & 1), tri(id->vwc_enabled));
	fprintf(f, "  APST          supported %s, enabled %s\n", yesno(c->apsta & 1), tri(id->apst_enabled));
	sanitize_methods(c->sanicap, san, sizeof san);
	fprintf(f, "  capabilities  format %s (crypto erase %s), sanitize %s, namespace management %s, "
		   "security send/receive %s, endurance groups %s\n",
		yesno(c->oacs & NVME_OACS_FORMAT), yesno(c->fna & NVME_FNA_CRYPTO_ERASE), san, yesno(c->oacs & NVME_OACS_NS_MGMT),
		yesno(c->oacs & NVME_OACS_SECURITY), yesno(c->ctratt & NVME_CTRATT_ENDGRP));
	fprintf(f, "  temperature   warning ");
	if (c->wctemp_k)
		fprintf(f, "%.2f C", kelvin_c(c->wctemp_k));
	else
		fprintf(f, "not reported");
	fprintf(f, ", critical ");
	if (c->cctemp_k)
		fprintf(f, "%.2f C\n", kelvin_c(c->cctemp_k));
	else
		fprintf(f, "not reported\n");
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

int nvme_report_ident_json(struct json_object *o, const struct nvme_report_ident *id)
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

static void dry_line(FILE *f, const struct nvme_admin_cmd *cmd, const char *when)
{
	char d[512];

	nvme_cmd_describe(cmd, d, sizeof d);
	fprintf(f, "  %s%s%s\n", d, *when ? "; " : "", when);
}

void nvme_report_ident_dry(FILE *f, uint32_t nsid)
{
	_Alignas(4096) static _Thread_local uint8_t buf[NVME_IDENTIFY_LEN];
	struct nvme_admin_cmd cmd;

	nvme_identify_cmd(&cmd, 0, NVME_CNS_CTRL, buf);
	dry_line(f, &cmd, "");
	nvme_identify_cmd(&cmd, nsid, NVME_CNS_NS, buf);
	dry_line(f, &cmd, "");
	nvme_get_features_cmd(&cmd, NVME_FEAT_VWC, NULL, 0);
	dry_line(f, &cmd, "only when Identify Controller VWC bit 0 says a volatile write cache is present");
	nvme_get_features_cmd(&cmd, NVME_FEAT_APST, buf, NVME_APST_TABLE_LEN);
	dry_line(f, &cmd, "only when Identify Controller APSTA bit 0 says APST is supported");
}

void nvme_report_logs_read(const struct ioctl_ops *ops, int fd, uint32_t nsid, struct nvme_report_logs *lg)
{
	struct nvme_id_ctrl c;
	struct nvme_id_ns ns;
	char err[256];
	bool have_ns;

	devcounters_init(&lg->dc);
	memset(lg->st, 0, sizeof lg->st);
	lg->st[0].lid = NVME_LOG_ENDURANCE;
	lg->st[1].lid = NVME_LOG_OCP_C0;
	lg->st[2].lid = NVME_LOG_INTEL_CA;
	if (nvme_id_ctrl_read(ops, fd, &c, err, sizeof err)) {
		for (int i = 0; i < 3; i++)
			snprintf(lg->st[i].reason, sizeof lg->st[i].reason, "%s", err);
		return;
	}
	/* without the namespace only its ENDGID is unknown: the plan says so for log 0x09 */
	have_ns = !nvme_id_ns_read(ops, fd, nsid, &ns, err, sizeof err);
	if (nvme_extra_logs_read(ops, fd, &c, have_ns ? &ns : NULL, &lg->dc, lg->st, err, sizeof err))
		/* a transport failure on one log: the ones not reached say why */
		for (int i = 0; i < 3; i++)
			if (!lg->st[i].present && !*lg->st[i].reason)
				snprintf(lg->st[i].reason, sizeof lg->st[i].reason, "%s", err);
}

static const struct {
	const char *json, *title, *prefix;
} logs[3] = {
	{"endurance_group", "Endurance Group Information log (0x09)", "nvme:endurance."},
	{"ocp_c0", "OCP SMART/Health Extended log (0xC0)", "nvme:ocp_c0."},
	{"intel_ca", "Intel vendor SMART log (0xCA)", "nvme:intel_ca."},
};

/* The unit a counter of these logs counts in, for the text form. */
static const char *unit_of(const char *field)
{
	if (!strncmp(field, "data_units_", 11) || !strcmp(field, "media_units_written"))
		return " x 512000 bytes";
	if (!strncmp(field, "physical_media_", 15))
		return " bytes";
	if (strstr(field, "_bytes_written"))
		return " x 32 MiB (unverified unit)";
	if (!strcmp(field, "available_spare") || !strcmp(field, "spare_threshold") ||
	    !strcmp(field, "percentage_used"))
		return "%";
	return "";
}

void nvme_report_logs_text(FILE *f, const struct nvme_report_logs *lg)
{
	for (int i = 0; i < 3; i++) {
		const struct nvme_log_state *st = &lg->st[i];
		size_t pl = strlen(logs[i].prefix);

		if (!st->present) {
			fprintf(f, "%s: absent: %s\n", logs[i].title, st->reason);
			continue;
		}
		fprintf(f, "%s%s%s\n", logs[i].title, *st->reason ? ": " : "", st->reason);
		for (size_t k = 0; k < lg->dc.n; k++) {
			const struct devcounter *d = &lg->dc.c[k];
			if (strncmp(d->key, logs[i].prefix, pl))
				continue;
			fprintf(f, "  %-24s %llu%s\n", d->key + pl, (unsigned long long)d->value, unit_of(d->key + pl));
		}
	}
}

int nvme_report_logs_json(struct json_object *raw, const struct nvme_report_logs *lg)
{
	int e = 0;

	for (int i = 0; i < 3 && !e; i++) {
		const struct nvme_log_state *st = &lg->st[i];
		struct json_object *o = json_object_new_object(), *cs = json_object_new_object();
		size_t pl = strlen(logs[i].prefix);

		if (!o || !cs) {
			json_object_put(o);
			json_object_put(cs);
			return -ENOMEM;
		}
		jsonnum_build_num(o, "log_id", st->lid, &e);
		jsonnum_build_add(o, "present", json_object_new_boolean(st->present), &e);
		if (*st->reason)
			jsonnum_build_add(o, "reason", json_object_new_string(st->reason), &e);
		else
			jsonnum_build_num(o, "reason", NAN, &e);
		for (size_t k = 0; k < lg->dc.n; k++) {
			const struct devcounter *d = &lg->dc.c[k];
			char b[24];
			if (strncmp(d->key, logs[i].prefix, pl))
				continue;
			/* up to 2^64: strings, as the SMART/Health counters beside them */
			snprintf(b, sizeof b, "%llu", (unsigned long long)d->value);
			jsonnum_build_add(cs, d->key + pl, json_object_new_string(b), &e);
		}
		jsonnum_build_add(o, "counters", cs, &e);
		jsonnum_build_add(raw, logs[i].json, o, &e);
	}
	return e;
}

void nvme_report_smart_dry(FILE *f, uint32_t nsid)
{
	_Alignas(4096) static _Thread_local uint8_t buf[NVME_IDENTIFY_LEN];
	struct nvme_admin_cmd cmd;

	nvme_get_log_cmd(&cmd, NVME_NSID_ALL, NVME_LOG_SMART, buf, NVME_SMART_LOG_LEN);
	dry_line(f, &cmd, "");
	nvme_identify_cmd(&cmd, 0, NVME_CNS_CTRL, buf);
	dry_line(f, &cmd, "for CTRATT and the vendor id");
	nvme_identify_cmd(&cmd, nsid, NVME_CNS_NS, buf);
	dry_line(f, &cmd, "for ENDGID");
	nvme_get_log_lsi_cmd(&cmd, 0, NVME_LOG_ENDURANCE, 0, buf, NVME_EXTRA_LOG_LEN);
	dry_line(f, &cmd, "only when CTRATT bit 4 (endurance groups) and ENDGID != 0; log specific id = ENDGID");
	nvme_get_log_cmd(&cmd, NVME_NSID_ALL, NVME_LOG_OCP_C0, buf, NVME_EXTRA_LOG_LEN);
	dry_line(f, &cmd, "GUID at bytes 496..511 checked");
	nvme_get_log_cmd(&cmd, NVME_NSID_ALL, NVME_LOG_INTEL_CA, buf, NVME_EXTRA_LOG_LEN);
	dry_line(f, &cmd, "only when the vendor id is 0x8086 (Intel)");
}
