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

void nvme_report_ident_text(FILE *f, const struct drive_ident_nvme *id)
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
