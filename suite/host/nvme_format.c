// SPDX-License-Identifier: MIT
/*
 * nvme_format: Format NVM, Sanitize and namespace management command builders, the sanitize
 * status log and its polling (nvme_format.h says where each layout comes from).
 */
#include "host/nvme_format.h"
#include "host/nvme_admin.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Identify Namespace bytes the shared decoder does not keep (Figure 280). */
#define ID_NS_FLBAS 26
#define ID_NS_DPS 29
#define ID_NS_NMIC 30

int nvme_format_plan(const struct nvme_id_ctrl *ctrl, const uint8_t ns_page[NVME_IDENTIFY_LEN],
		     uint32_t nsid, enum nvme_ses ses, struct nvme_format_plan *out, char *err,
		     size_t errlen)
{
	struct nvme_format_plan p = {.ses = ses};
	uint8_t flbas = ns_page[ID_NS_FLBAS], dps = ns_page[ID_NS_DPS];

	if (!(ctrl->oacs & NVME_OACS_FORMAT)) {
		snprintf(err, errlen, "the controller has no Format NVM (OACS bit 1 clear)");
		return -EOPNOTSUPP;
	}
	if (ses == NVME_SES_CRYPTO && !(ctrl->fna & NVME_FNA_CRYPTO_ERASE)) {
		snprintf(
		    err, errlen,
		    "the controller has no cryptographic erase in Format NVM (FNA bit 2 clear)");
		return -EOPNOTSUPP;
	}
	if (ses != NVME_SES_NONE && ses != NVME_SES_USER_DATA && ses != NVME_SES_CRYPTO) {
		snprintf(err, errlen, "secure erase setting %d is not defined", (int)ses);
		return -EINVAL;
	}
	/* FLBAS: index bits 3:0, and 6:5 as index bits 5:4 for more than 16 formats. */
	p.lbaf = (uint8_t)((flbas & 0x0f) | ((flbas >> 5) & 0x3) << 4);
	p.mset = (flbas >> 4) & 1;
	p.pi = dps & 0x7;
	p.pil = (dps >> 3) & 1;
	/* FNA bit 0: any format reaches every namespace; bit 1: a secure erase does. */
	p.all_namespaces = (ctrl->fna & NVME_FNA_FORMAT_ALL) ||
			   (ses != NVME_SES_NONE && (ctrl->fna & NVME_FNA_ERASE_ALL));
	p.nsid = p.all_namespaces ? NVME_NSID_ALL : nsid;
	/* CDW10: LBAFL 3:0, MSET 4, PI 7:5, PIL 8, SES 11:9, LBAFU 13:12 (Figure 320). */
	p.cdw10 = (uint32_t)(p.lbaf & 0x0f) | (uint32_t)p.mset << 4 | (uint32_t)p.pi << 5 |
		  (uint32_t)p.pil << 8 | (uint32_t)ses << 9 | (uint32_t)(p.lbaf >> 4) << 12;
	*out = p;
	return 0;
}

void nvme_format_cmd(struct nvme_admin_cmd *cmd, const struct nvme_format_plan *plan)
{
	memset(cmd, 0, sizeof *cmd);
	cmd->opcode = NVME_ADMIN_FORMAT_NVM;
	cmd->nsid = plan->nsid;
	cmd->cdw10 = plan->cdw10;
	cmd->timeout_ms = NVME_FORMAT_TIMEOUT_MS;
}

void nvme_sanitize_cmd(struct nvme_admin_cmd *cmd, enum nvme_sanact act)
{
	memset(cmd, 0, sizeof *cmd);
	cmd->opcode = NVME_ADMIN_SANITIZE;
	/* SANACT 2:0; AUSE (bit 3) 0; OWPASS 7:4 = 1 for an overwrite (0 would mean 16 passes);
	 * OIPBP (bit 8) 0; NDAS (bit 9) 0: the drive deallocates after the sanitize. The nsid is
	 * not used: a sanitize reaches the whole subsystem. */
	cmd->cdw10 = (uint32_t)act & 0x7;
	if (act == NVME_SANACT_OVERWRITE)
		cmd->cdw10 |= 1u << 4;
	cmd->cdw11 = 0; /* OVRPAT: the overwrite pattern, zeroes */
}

enum nvme_sanact nvme_sanitize_pick(uint32_t sanicap)
{
	if (sanicap & NVME_SANICAP_BLOCK)
		return NVME_SANACT_BLOCK_ERASE;
	if (sanicap & NVME_SANICAP_CRYPTO)
		return NVME_SANACT_CRYPTO_ERASE;
	if (sanicap & NVME_SANICAP_OVERWRITE)
		return NVME_SANACT_OVERWRITE;
	return 0;
}

const char *nvme_sanact_name(enum nvme_sanact act)
{
	switch (act) {
	case NVME_SANACT_EXIT_FAILURE:
		return "exit failure mode";
	case NVME_SANACT_BLOCK_ERASE:
		return "block erase";
	case NVME_SANACT_OVERWRITE:
		return "overwrite";
	case NVME_SANACT_CRYPTO_ERASE:
		return "crypto erase";
	}
	return "none";
}

void nvme_sanitize_status_decode(const uint8_t page[NVME_SANITIZE_LOG_LEN],
				 struct nvme_sanitize_status *out)
{
	uint16_t sstat = (uint16_t)nvme_le(page + 2, 2);

	*out = (struct nvme_sanitize_status){
	    .sprog = (uint16_t)nvme_le(page, 2),
	    .state = sstat & 0x7,
	    .passes = (sstat >> 3) & 0x1f,
	    .global_erased = (sstat >> 8) & 1,
	    .scdw10 = (uint32_t)nvme_le(page + 4, 4),
	    .est_overwrite_s = (uint32_t)nvme_le(page + 8, 4),
	    .est_block_s = (uint32_t)nvme_le(page + 12, 4),
	    .est_crypto_s = (uint32_t)nvme_le(page + 16, 4),
	};
}

int nvme_sanitize_status_read(const struct ioctl_ops *ops, int fd, struct nvme_sanitize_status *out,
			      char *err, size_t errlen)
{
	_Alignas(4096) uint8_t page[NVME_SANITIZE_LOG_LEN];
	struct nvme_admin_cmd cmd;
	int r;

	memset(page, 0, sizeof page);
	nvme_get_log_cmd(&cmd, 0, NVME_LOG_SANITIZE, page, sizeof page);
	r = nvme_admin_send(ops ? ops : &ioctl_ops_real, fd, &cmd,
			    "Get Log Page 0x81 (Sanitize Status)", err, errlen);
	if (r)
		return r;
	nvme_sanitize_status_decode(page, out);
	return 0;
}

static void real_sleep(void *ctx, uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000u),
			      .tv_nsec = (long)(ns % 1000000000u)};

	(void)ctx;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int nvme_sanitize_run(const struct ioctl_ops *ops, int fd, enum nvme_sanact act,
		      const struct nvme_wait *w, char *err, size_t errlen)
{
	const struct nvme_wait none = {0};
	struct nvme_sanitize_status st;
	struct nvme_admin_cmd cmd;
	char what[64];
	int r;

	if (!ops)
		ops = &ioctl_ops_real;
	if (!w)
		w = &none;
	nvme_sanitize_cmd(&cmd, act);
	snprintf(what, sizeof what, "Sanitize (%s)", nvme_sanact_name(act));
	r = nvme_admin_send(ops, fd, &cmd, what, err, errlen);
	if (r)
		return r;
	/* The command completes at once; the operation runs in the background until the
	 * Sanitize Status log leaves "in progress". */
	for (uint64_t polls = 0;; polls++) {
		r = nvme_sanitize_status_read(ops, fd, &st, err, errlen);
		if (r)
			return r;
		if (st.state != NVME_SSTAT_IN_PROGRESS)
			break;
		if (w->progress)
			w->progress(w->ctx, st.sprog / 65536.0);
		if (w->max_polls && polls + 1 >= w->max_polls) {
			snprintf(err, errlen,
				 "sanitize (%s) still in progress (%.1f%%) after %llu polls",
				 nvme_sanact_name(act), 100.0 * st.sprog / 65536.0,
				 (unsigned long long)w->max_polls);
			return -ETIMEDOUT;
		}
		(w->sleep_ns ? w->sleep_ns : real_sleep)(w->ctx,
							 w->poll_ns ? w->poll_ns : 1000000000u);
	}
	if (st.state == NVME_SSTAT_FAILED) {
		snprintf(err, errlen,
			 "sanitize (%s) failed: the drive is in sanitize failure mode and takes no "
			 "writes until "
			 "another sanitize completes",
			 nvme_sanact_name(act));
		return -EIO;
	}
	if (st.state != NVME_SSTAT_DONE && st.state != NVME_SSTAT_DONE_NDAS) {
		snprintf(err, errlen, "sanitize (%s): the status log says state %u, not completed",
			 nvme_sanact_name(act), st.state);
		return -EIO;
	}
	if (w->progress)
		w->progress(w->ctx, 1.0);
	return 0;
}

const char *nvme_sanitize_warning(void)
{
	return "an NVMe sanitize erases every namespace of the whole NVM subsystem, cannot be "
	       "aborted once "
	       "started, carries on after a power loss or reset until it is done, and when it "
	       "fails leaves "
	       "the drive in a restricted state where it takes no writes until another sanitize "
	       "completes";
}

/* ---- namespace management ---- */

void nvme_ns_layout_decode(const uint8_t page[NVME_IDENTIFY_LEN], struct nvme_ns_layout *out)
{
	memset(out, 0, sizeof *out);
	out->nsze = nvme_le(page, 8);
	out->ncap = nvme_le(page + 8, 8);
	out->flbas = page[ID_NS_FLBAS];
	out->dps = page[ID_NS_DPS];
	out->nmic = page[ID_NS_NMIC];
}

void nvme_ns_create_cmd(struct nvme_admin_cmd *cmd, const struct nvme_ns_layout *l, uint8_t *buf)
{
	memset(buf, 0, NVME_IDENTIFY_LEN);
	/* The create data structure has the Identify Namespace layout (Figure 361). */
	for (int i = 0; i < 8; i++) {
		buf[i] = (uint8_t)(l->nsze >> (8 * i));
		buf[8 + i] = (uint8_t)(l->ncap >> (8 * i));
	}
	buf[ID_NS_FLBAS] = l->flbas;
	buf[ID_NS_DPS] = l->dps;
	buf[ID_NS_NMIC] = l->nmic;
	memset(cmd, 0, sizeof *cmd);
	cmd->opcode = NVME_ADMIN_NS_MGMT;
	cmd->nsid = 0;
	cmd->cdw10 = 0; /* SEL 0: create */
	cmd->addr = (uint64_t)(uintptr_t)buf;
	cmd->data_len = NVME_IDENTIFY_LEN;
}

void nvme_ns_delete_cmd(struct nvme_admin_cmd *cmd, uint32_t nsid)
{
	memset(cmd, 0, sizeof *cmd);
	cmd->opcode = NVME_ADMIN_NS_MGMT;
	cmd->nsid = nsid;
	cmd->cdw10 = 1; /* SEL 1: delete */
}

void nvme_ns_attach_cmd(struct nvme_admin_cmd *cmd, uint32_t nsid, bool attach,
			const struct nvme_ns_layout *l, uint8_t *buf)
{
	memset(buf, 0, NVME_IDENTIFY_LEN);
	/* Controller list: the number of identifiers, then each, 16 bits little-endian. */
	buf[0] = (uint8_t)l->nctrl;
	buf[1] = (uint8_t)(l->nctrl >> 8);
	for (uint16_t i = 0; i < l->nctrl && i < 16; i++) {
		buf[2 + 2 * i] = (uint8_t)l->ctrl[i];
		buf[3 + 2 * i] = (uint8_t)(l->ctrl[i] >> 8);
	}
	memset(cmd, 0, sizeof *cmd);
	cmd->opcode = NVME_ADMIN_NS_ATTACH;
	cmd->nsid = nsid;
	cmd->cdw10 = attach ? 0 : 1; /* SEL 0 attach, 1 detach */
	cmd->addr = (uint64_t)(uintptr_t)buf;
	cmd->data_len = NVME_IDENTIFY_LEN;
}

void nvme_ctrl_list_decode(const uint8_t page[NVME_IDENTIFY_LEN], struct nvme_ns_layout *l)
{
	uint16_t n = (uint16_t)nvme_le(page, 2);

	l->nctrl = n > 16 ? 16 : n;
	for (uint16_t i = 0; i < l->nctrl; i++)
		l->ctrl[i] = (uint16_t)nvme_le(page + 2 + 2 * i, 2);
}
