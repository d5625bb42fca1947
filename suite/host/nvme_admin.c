// SPDX-License-Identifier: MIT
#include "host/nvme_admin.h"
#include "base/units.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The SMART/Health log as the NVMe base spec lays it out (libnvme struct nvme_smart_log). */
struct nvme_smart_log_raw {
	uint8_t critical_warning;	/* 0 */
	uint8_t temperature[2];		/* 1..2, Kelvin, little-endian */
	uint8_t avail_spare;		/* 3 */
	uint8_t spare_thresh;		/* 4 */
	uint8_t percent_used;		/* 5 */
	uint8_t endu_grp_crit_warn;	/* 6 */
	uint8_t rsvd7[25];		/* 7..31 */
	uint8_t data_units_read[16];	/* 32..47 */
	uint8_t data_units_written[16]; /* 48..63 */
	uint8_t host_reads[16];		/* 64..79 */
	uint8_t host_writes[16];	/* 80..95 */
	uint8_t ctrl_busy_time[16];	/* 96..111 */
	uint8_t power_cycles[16];	/* 112..127 */
	uint8_t power_on_hours[16];	/* 128..143 */
	uint8_t unsafe_shutdowns[16];	/* 144..159 */
	uint8_t media_errors[16];	/* 160..175 */
	uint8_t num_err_log_entries[16]; /* 176..191 */
	uint8_t warning_temp_time[4];	/* 192..195, minutes */
	uint8_t critical_comp_time[4];	/* 196..199, minutes */
	uint8_t temp_sensor[8][2];	/* 200..215 */
	uint8_t thm_temp1_trans_count[4]; /* 216..219 */
	uint8_t thm_temp2_trans_count[4]; /* 220..223 */
	uint8_t thm_temp1_total_time[4];  /* 224..227, seconds */
	uint8_t thm_temp2_total_time[4];  /* 228..231 */
	uint8_t rsvd232[280];
};
_Static_assert(sizeof(struct nvme_smart_log_raw) == NVME_SMART_LOG_LEN, "SMART/Health log is 512 bytes");
_Static_assert(offsetof(struct nvme_smart_log_raw, data_units_written) == 48, "DUW at byte 48");
_Static_assert(offsetof(struct nvme_smart_log_raw, thm_temp1_trans_count) == 216, "TMT1 at byte 216");

void nvme_get_log_cmd(struct nvme_admin_cmd *cmd, uint32_t nsid, uint8_t lid, void *buf, uint32_t len)
{
	uint32_t numd = len / 4 - 1; /* NUMD is zero-based, in dwords */

	memset(cmd, 0, sizeof *cmd);
	cmd->opcode = NVME_ADMIN_GET_LOG_PAGE;
	cmd->nsid = nsid;
	cmd->addr = (uint64_t)(uintptr_t)buf;
	cmd->data_len = len;
	/* cdw10: LID in bits 7:0, NUMDL (low 16 bits of NUMD) in 31:16; cdw11: NUMDU. */
	cmd->cdw10 = lid | (numd & 0xffffu) << 16;
	cmd->cdw11 = numd >> 16;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* The low 64 bits of a 128-bit little-endian counter; *over when the high 64 are not zero. */
static uint64_t le128_low(const uint8_t *p, bool *over)
{
	*over = le64(p + 8) != 0;
	return le64(p);
}

void nvme_smart_decode(const uint8_t page[NVME_SMART_LOG_LEN], struct nvme_smart *out)
{
	const struct nvme_smart_log_raw *r = (const void *)page;

	memset(out, 0, sizeof *out);
	out->critical_warning = r->critical_warning;
	out->temperature_k = (uint16_t)(r->temperature[0] | r->temperature[1] << 8);
	out->temperature_c = units_kelvin_to_celsius(out->temperature_k);
	out->available_spare = r->avail_spare;
	out->spare_threshold = r->spare_thresh;
	out->percentage_used = r->percent_used;
	out->data_units_read = le128_low(r->data_units_read, &out->data_units_read_overflow);
	out->data_units_written = le128_low(r->data_units_written, &out->data_units_written_overflow);
	out->host_read_cmds = le128_low(r->host_reads, &out->host_read_cmds_overflow);
	out->host_write_cmds = le128_low(r->host_writes, &out->host_write_cmds_overflow);
	out->warning_temp_minutes = le32(r->warning_temp_time);
	out->critical_temp_minutes = le32(r->critical_comp_time);
	out->thm_transitions[0] = le32(r->thm_temp1_trans_count);
	out->thm_transitions[1] = le32(r->thm_temp2_trans_count);
	out->thm_seconds[0] = le32(r->thm_temp1_total_time);
	out->thm_seconds[1] = le32(r->thm_temp2_total_time);
}

int nvme_smart_read(const struct ioctl_ops *ops, int fd, uint32_t nsid, struct nvme_smart *out, char *err,
		    size_t errlen)
{
	/* Aligned for the kernel's DMA mapping of a user buffer. */
	_Alignas(4096) static _Thread_local uint8_t page[NVME_SMART_LOG_LEN];
	struct nvme_admin_cmd cmd;
	int r;

	memset(page, 0, sizeof page);
	nvme_get_log_cmd(&cmd, nsid, NVME_LOG_SMART, page, sizeof page);
	r = nvme_admin_send(ops, fd, &cmd, "Get Log Page 0x02 (SMART/Health)", err, errlen);
	if (r)
		return r == -EOPNOTSUPP ? -EIO : r;
	nvme_smart_decode(page, out);
	return 0;
}

/* A 128-bit counter: its low half, or UINT64_MAX with a "FIELD.overflow" key (devcounters.h). */
static int set_wide(struct devcounters *dc, const char *field, uint64_t low, bool over)
{
	int r = devcounters_setf(dc, over ? UINT64_MAX : low, "nvme:smart.%s", field);
	if (!r && over)
		r = devcounters_setf(dc, 1, "nvme:smart.%s.overflow", field);
	return r;
}

int nvme_smart_counters(const struct nvme_smart *m, struct devcounters *dc)
{
	const struct {
		const char *field;
		uint64_t v;
	} narrow[] = {
		{"critical_warning", m->critical_warning},
		{"temperature_k", m->temperature_k},
		{"available_spare", m->available_spare},
		{"spare_threshold", m->spare_threshold},
		{"percentage_used", m->percentage_used},
		{"warning_temp_minutes", m->warning_temp_minutes},
		{"critical_temp_minutes", m->critical_temp_minutes},
		{"thm1_transitions", m->thm_transitions[0]},
		{"thm2_transitions", m->thm_transitions[1]},
		{"thm1_seconds", m->thm_seconds[0]},
		{"thm2_seconds", m->thm_seconds[1]},
	};
	int r = 0;

	for (size_t i = 0; i < sizeof narrow / sizeof narrow[0] && !r; i++)
		r = devcounters_setf(dc, narrow[i].v, "nvme:smart.%s", narrow[i].field);
	if (!r)
		r = set_wide(dc, "data_units_read", m->data_units_read, m->data_units_read_overflow);
	if (!r)
		r = set_wide(dc, "data_units_written", m->data_units_written, m->data_units_written_overflow);
	if (!r)
		r = set_wide(dc, "host_read_cmds", m->host_read_cmds, m->host_read_cmds_overflow);
	if (!r)
		r = set_wide(dc, "host_write_cmds", m->host_write_cmds, m->host_write_cmds_overflow);
	return r;
}

uint64_t nvme_le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

int nvme_counter_wide(struct devcounters *dc, const char *prefix, const char *field, const uint8_t *p16)
{
	bool over;
	uint64_t low = le128_low(p16, &over);
	int r = devcounters_setf(dc, over ? UINT64_MAX : low, "%s.%s", prefix, field);

	if (!r && over)
		r = devcounters_setf(dc, 1, "%s.%s.overflow", prefix, field);
	return r;
}

bool nvme_status_not_supported(int status)
{
	/* status as the kernel returns it: SC in bits 7:0, SCT in 10:8, then CRD, More, DNR */
	int sc = status & 0x7ff;

	return status > 0 && (sc == 0x002 || sc == 0x109);
}

int nvme_admin_send(const struct ioctl_ops *ops, int fd, struct nvme_admin_cmd *cmd, const char *what, char *err,
		    size_t errlen)
{
	int r = ops->admin(ops->ctx, fd, cmd);

	if (r < 0) {
		snprintf(err, errlen, "%s: %s", what, strerror(-r));
		return r;
	}
	if (r > 0) {
		snprintf(err, errlen, "%s: NVMe status 0x%x%s", what, (unsigned)r,
			 nvme_status_not_supported(r) ? " (not supported)" : "");
		return nvme_status_not_supported(r) ? -EOPNOTSUPP : -EIO;
	}
	return 0;
}

struct code_name {
	unsigned code;
	const char *name;
};

static const struct code_name log_names[] = {
	{0x02, "SMART/Health"}, {0x09, "Endurance Group Information"},
	{0xc0, "OCP SMART/Health Extended"}, {0xca, "Intel vendor SMART"}, {0, NULL},
};
static const struct code_name cns_names[] = {{0x00, "Namespace"}, {0x01, "Controller"}, {0, NULL}};
static const struct code_name fid_names[] = {
	{0x06, "Volatile Write Cache"}, {0x0c, "Autonomous Power State Transition"}, {0, NULL},
};

/* The name of code in t (ended by a NULL name), or "" for one ssdlab never sends. */
static const char *name_of(const struct code_name *t, unsigned code)
{
	for (; t->name; t++)
		if (t->code == code)
			return t->name;
	return "";
}

/* The fields of Format NVM (Figure 320), Sanitize (373/374) and namespace management (359, 357). */
static void describe_erase(const struct nvme_admin_cmd *c, const char **name, char m[][96])
{
	static const char *const ses_names[8] = {"no secure erase", "user data erase",
						 "cryptographic erase"};
	static const char *const sanact_names[8] = {NULL, "exit failure mode", "block erase",
						    "overwrite", "crypto erase"};
	uint32_t d = c->cdw10;

	switch (c->opcode) {
	case NVME_ADMIN_FORMAT_NVM:
		*name = "Format NVM";
		snprintf(m[0], 96, "LBAF %u, MSET %u, PI %u, PIL %u, SES %u %s",
			 (d & 0xf) | ((d >> 12) & 3) << 4, (d >> 4) & 1, (d >> 5) & 7, (d >> 8) & 1,
			 (d >> 9) & 7,
			 ses_names[(d >> 9) & 7] ? ses_names[(d >> 9) & 7] : "reserved");
		break;
	case NVME_ADMIN_SANITIZE:
		*name = "Sanitize";
		snprintf(m[0], 96, "SANACT %u %s, AUSE %u, OWPASS %u, OIPBP %u, NDAS %u", d & 7,
			 sanact_names[d & 7] ? sanact_names[d & 7] : "reserved", (d >> 3) & 1,
			 (d >> 4) & 0xf, (d >> 8) & 1, (d >> 9) & 1);
		snprintf(m[1], 96, "overwrite pattern 0x%08x", c->cdw11);
		break;
	case NVME_ADMIN_NS_MGMT:
		*name = "Namespace Management";
		snprintf(m[0], 96, "SEL %u %s", d & 0xf,
			 (d & 0xf) == 0	  ? "create"
			 : (d & 0xf) == 1 ? "delete"
					  : "reserved");
		break;
	case NVME_ADMIN_NS_ATTACH:
		*name = "Namespace Attachment";
		snprintf(m[0], 96, "SEL %u %s", d & 0xf,
			 (d & 0xf) == 0	  ? "attach"
			 : (d & 0xf) == 1 ? "detach"
					  : "reserved");
		break;
	}
}

void nvme_cmd_describe(const struct nvme_admin_cmd *c, char *buf, size_t len)
{
	/* What each of cdw10..cdw15 means for this opcode; "" where it is reserved (sent as 0). */
	char m[6][96] = {"", "", "", "", "", ""};
	const char *name = "unknown";
	size_t at = 0;
	int n;

	switch (c->opcode) {
	case NVME_ADMIN_GET_LOG_PAGE:
		name = "Get Log Page";
		snprintf(m[0], sizeof m[0], "log id 0x%02x %s, NUMDL %u", c->cdw10 & 0xff,
			 name_of(log_names, c->cdw10 & 0xff), c->cdw10 >> 16);
		snprintf(m[1], sizeof m[1], "NUMDU %u, log specific id %u", c->cdw11 & 0xffff, c->cdw11 >> 16);
		snprintf(m[2], sizeof m[2], "offset low %u", c->cdw12);
		snprintf(m[3], sizeof m[3], "offset high %u", c->cdw13);
		snprintf(m[4], sizeof m[4], "UUID index %u", c->cdw14 & 0x7f);
		break;
	case NVME_ADMIN_IDENTIFY:
		name = "Identify";
		snprintf(m[0], sizeof m[0], "CNS 0x%02x %s, CNTID %u", c->cdw10 & 0xff,
			 name_of(cns_names, c->cdw10 & 0xff), c->cdw10 >> 16);
		break;
	case NVME_ADMIN_GET_FEATURES:
		name = "Get Features";
		/* SEL (10:8) 0 is the current value */
		snprintf(m[0], sizeof m[0], "FID 0x%02x %s, SEL %u%s", c->cdw10 & 0xff,
			 name_of(fid_names, c->cdw10 & 0xff), (c->cdw10 >> 8) & 7,
			 ((c->cdw10 >> 8) & 7) == 0 ? " current" : "");
		break;
	case 0x09: /* Set Features (ssdlab's device changes, targets/devchange.h) */
		name = "Set Features";
		/* SV (bit 31): saved across a reset; ssdlab's changes leave it clear */
		snprintf(m[0], sizeof m[0], "FID 0x%02x %s, SV %u", c->cdw10 & 0xff, name_of(fid_names, c->cdw10 & 0xff),
			 c->cdw10 >> 31);
		snprintf(m[1], sizeof m[1], "value 0x%x", c->cdw11);
		break;
	default: /* format, sanitize, namespace management (host/nvme_format) */
		describe_erase(c, &name, m);
		break;
	}
	const uint32_t d[6] = {c->cdw10, c->cdw11, c->cdw12, c->cdw13, c->cdw14, c->cdw15};
	n = snprintf(buf, len, "NVMe admin opcode 0x%02x (%s), nsid 0x%08x", c->opcode, name, c->nsid);
	for (int i = 0; i < 6 && n >= 0 && (size_t)n < len - at; i++) {
		at += (size_t)n;
		n = snprintf(buf + at, len - at, ", cdw%d 0x%08x%s%s%s", 10 + i, d[i], *m[i] ? " (" : "", m[i],
			     *m[i] ? ")" : "");
	}
	if (n >= 0 && (size_t)n < len - at) {
		at += (size_t)n;
		snprintf(buf + at, len - at, ", data_len %u", c->data_len);
	}
}
