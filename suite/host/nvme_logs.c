// SPDX-License-Identifier: MIT
#include "host/nvme_logs.h"

#include "host/nvme_admin.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

const uint8_t nvme_ocp_c0_guid[16] = {0xc5, 0xaf, 0x10, 0x28, 0xea, 0xbf, 0xf2, 0xa4,
				      0x9c, 0x4f, 0x6f, 0x7c, 0xc9, 0x14, 0xd5, 0xaf};

/* Endurance Group Information log (libnvme struct nvme_endurance_group_log). */
struct nvme_endurance_raw {
	uint8_t critical_warning;	/* 0 */
	uint8_t egfeat;			/* 1 */
	uint8_t rsvd2;
	uint8_t avl_spare;		/* 3 */
	uint8_t avl_spare_threshold;	/* 4 */
	uint8_t percent_used;		/* 5 */
	uint8_t rsvd6[26];
	uint8_t endurance_estimate[16]; /* 32 */
	uint8_t data_units_read[16];	/* 48 */
	uint8_t data_units_written[16]; /* 64 */
	uint8_t media_units_written[16]; /* 80 */
	uint8_t host_read_cmds[16];	/* 96 */
	uint8_t host_write_cmds[16];	/* 112 */
	uint8_t rsvd128[384];
};
_Static_assert(sizeof(struct nvme_endurance_raw) == NVME_EXTRA_LOG_LEN, "log 0x09 is 512 bytes");
_Static_assert(offsetof(struct nvme_endurance_raw, data_units_read) == 48, "DUR at 48");
_Static_assert(offsetof(struct nvme_endurance_raw, media_units_written) == 80, "MUW at 80");

/* OCP SMART/Health Extended: what the reference names (section C). */
struct nvme_ocp_c0_raw {
	uint8_t physical_media_written[16]; /* 0, bytes */
	uint8_t physical_media_read[16];    /* 16, bytes */
	uint8_t rsvd32[462];
	uint8_t log_page_version[2];	    /* 494 */
	uint8_t guid[16];		    /* 496 */
};
_Static_assert(sizeof(struct nvme_ocp_c0_raw) == NVME_EXTRA_LOG_LEN, "log 0xC0 is 512 bytes");
_Static_assert(offsetof(struct nvme_ocp_c0_raw, guid) == 496, "GUID at 496");

/* Intel 0xCA: 12-byte records (key, 2 reserved, normalized, 1 reserved, 6-byte raw, 1 reserved). */
#define INTEL_CA_REC 12
#define INTEL_CA_NAND 0xf4
#define INTEL_CA_HOST 0xf5

void nvme_get_log_lsi_cmd(struct nvme_admin_cmd *cmd, uint32_t nsid, uint8_t lid, uint16_t lsi, void *buf,
			  uint32_t len)
{
	nvme_get_log_cmd(cmd, nsid, lid, buf, len);
	cmd->cdw11 |= (uint32_t)lsi << 16;
}

int nvme_endurance_counters(const uint8_t page[NVME_EXTRA_LOG_LEN], struct devcounters *dc, bool *muw_unknown)
{
	const struct nvme_endurance_raw *r = (const void *)page;
	static const char p[] = "nvme:endurance";
	int e;

	e = devcounters_setf(dc, r->critical_warning, "%s.critical_warning", p);
	e = e ? e : devcounters_setf(dc, r->avl_spare, "%s.available_spare", p);
	e = e ? e : devcounters_setf(dc, r->avl_spare_threshold, "%s.spare_threshold", p);
	e = e ? e : devcounters_setf(dc, r->percent_used, "%s.percentage_used", p);
	e = e ? e : nvme_counter_wide(dc, p, "data_units_read", r->data_units_read);
	e = e ? e : nvme_counter_wide(dc, p, "data_units_written", r->data_units_written);
	e = e ? e : nvme_counter_wide(dc, p, "host_read_cmds", r->host_read_cmds);
	e = e ? e : nvme_counter_wide(dc, p, "host_write_cmds", r->host_write_cmds);
	/* 0 is "not reported", never "nothing written": leaving it out keeps WA from being 0 */
	*muw_unknown = nvme_le(r->media_units_written, 8) == 0 && nvme_le(r->media_units_written + 8, 8) == 0;
	if (!*muw_unknown)
		e = e ? e : nvme_counter_wide(dc, p, "media_units_written", r->media_units_written);
	return e;
}

int nvme_ocp_c0_counters(const uint8_t page[NVME_EXTRA_LOG_LEN], struct devcounters *dc, char *why, size_t len)
{
	const struct nvme_ocp_c0_raw *r = (const void *)page;
	static const char p[] = "nvme:ocp_c0";
	int e;

	if (memcmp(r->guid, nvme_ocp_c0_guid, sizeof r->guid)) {
		char got[33];
		for (int i = 0; i < 16; i++)
			snprintf(got + 2 * i, 3, "%02x", r->guid[i]);
		snprintf(why, len, "log page GUID %s is not the OCP SMART/Health Extended one", got);
		return -ENOENT;
	}
	e = nvme_counter_wide(dc, p, "physical_media_written", r->physical_media_written);
	e = e ? e : nvme_counter_wide(dc, p, "physical_media_read", r->physical_media_read);
	e = e ? e : devcounters_setf(dc, nvme_le(r->log_page_version, 2), "%s.log_page_version", p);
	return e;
}

int nvme_intel_ca_counters(const uint8_t page[NVME_EXTRA_LOG_LEN], struct devcounters *dc, char *why, size_t len)
{
	int found = 0, e = 0;

	for (size_t at = 0; at + INTEL_CA_REC <= NVME_EXTRA_LOG_LEN && !e; at += INTEL_CA_REC) {
		const uint8_t *rec = page + at;
		const char *name = rec[0] == INTEL_CA_NAND   ? "nand_bytes_written"
				   : rec[0] == INTEL_CA_HOST ? "host_bytes_written"
							     : NULL;
		if (!name)
			continue;
		e = devcounters_setf(dc, nvme_le(rec + 5, 6), "nvme:intel_ca.%s", name);
		found++;
	}
	if (!e && !found) {
		snprintf(why, len, "no 0xF4/0xF5 records (NAND/host bytes written) in the log");
		return -ENOENT;
	}
	return e;
}

int nvme_extra_log_plan(const struct nvme_id_ctrl *c, const struct nvme_id_ns *ns, void *buf,
			struct nvme_admin_cmd cmds[3], struct nvme_log_state states[3])
{
	int n = 0;

	memset(states, 0, 3 * sizeof *states);
	states[0].lid = NVME_LOG_ENDURANCE;
	states[1].lid = NVME_LOG_OCP_C0;
	states[2].lid = NVME_LOG_INTEL_CA;
	if (!(c->ctratt & NVME_CTRATT_ENDGRP))
		snprintf(states[0].reason, sizeof states[0].reason,
			 "the controller has no endurance groups (CTRATT bit 4 clear)");
	else if (!ns)
		snprintf(states[0].reason, sizeof states[0].reason, "the namespace's ENDGID is unknown");
	else if (!ns->endgid)
		snprintf(states[0].reason, sizeof states[0].reason, "the namespace names no endurance group (ENDGID 0)");
	else
		/* nsid 0: the log is per endurance group, named by the LSI */
		nvme_get_log_lsi_cmd(&cmds[n++], 0, NVME_LOG_ENDURANCE, ns->endgid, buf, NVME_EXTRA_LOG_LEN);
	/* OCP has no capability bit: ask, and an Invalid Field answer says "not supported" */
	nvme_get_log_cmd(&cmds[n++], NVME_NSID_ALL, NVME_LOG_OCP_C0, buf, NVME_EXTRA_LOG_LEN);
	if (c->vid == NVME_VID_INTEL)
		nvme_get_log_cmd(&cmds[n++], NVME_NSID_ALL, NVME_LOG_INTEL_CA, buf, NVME_EXTRA_LOG_LEN);
	else
		snprintf(states[2].reason, sizeof states[2].reason,
			 "vendor 0x%04x is not Intel (0x8086): log 0xCA is Intel's", c->vid);
	return n;
}

int nvme_extra_logs_read(const struct ioctl_ops *ops, int fd, const struct nvme_id_ctrl *c,
			 const struct nvme_id_ns *ns, struct devcounters *dc, struct nvme_log_state states[3],
			 char *err, size_t errlen)
{
	_Alignas(4096) static _Thread_local uint8_t page[NVME_EXTRA_LOG_LEN];
	struct nvme_admin_cmd cmds[3];
	int n = nvme_extra_log_plan(c, ns, page, cmds, states);

	for (int i = 0; i < n; i++) {
		uint8_t lid = (uint8_t)(cmds[i].cdw10 & 0xff);
		struct nvme_log_state *st = &states[lid == NVME_LOG_ENDURANCE ? 0 : lid == NVME_LOG_OCP_C0 ? 1 : 2];
		bool muw_unknown = false;
		int r;

		memset(page, 0, sizeof page);
		r = ops->admin(ops->ctx, fd, &cmds[i]);
		if (r < 0) {
			snprintf(err, errlen, "Get Log Page 0x%02x: %s", lid, strerror(-r));
			return r;
		}
		if (r > 0) {
			if (nvme_status_not_supported(r))
				snprintf(st->reason, sizeof st->reason, "not supported (NVMe status 0x%x)", (unsigned)r);
			else
				snprintf(st->reason, sizeof st->reason, "NVMe status 0x%x", (unsigned)r);
			continue;
		}
		if (lid == NVME_LOG_ENDURANCE)
			r = nvme_endurance_counters(page, dc, &muw_unknown);
		else if (lid == NVME_LOG_OCP_C0)
			r = nvme_ocp_c0_counters(page, dc, st->reason, sizeof st->reason);
		else
			r = nvme_intel_ca_counters(page, dc, st->reason, sizeof st->reason);
		if (r == -ENOENT)
			continue;
		if (r) {
			snprintf(err, errlen, "log 0x%02x: %s", lid, strerror(-r));
			return r;
		}
		st->present = true;
		if (muw_unknown)
			snprintf(st->reason, sizeof st->reason, "media units written 0: the drive does not report it");
	}
	return 0;
}
