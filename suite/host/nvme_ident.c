// SPDX-License-Identifier: MIT
#include "host/nvme_ident.h"

#include "host/nvme_admin.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The Identify Controller bytes ssdlab reads (NVMe Base Specification 2.0, Figure 275). */
struct nvme_id_ctrl_raw {
	uint8_t vid[2];		 /* 0 */
	uint8_t ssvid[2];	 /* 2 */
	char sn[20];		 /* 4 */
	char mn[40];		 /* 24 */
	char fr[8];		 /* 64 */
	uint8_t rsvd72[24];	 /* 72: RAB .. OAES */
	uint8_t ctratt[4];	 /* 96 */
	uint8_t rsvd100[156];	 /* 100 .. 255 */
	uint8_t oacs[2];	 /* 256 */
	uint8_t acl, aerl, frmw; /* 258 */
	uint8_t lpa;		 /* 261 */
	uint8_t elpe, npss, avscc;
	uint8_t apsta;		 /* 265 */
	uint8_t wctemp[2];	 /* 266 */
	uint8_t cctemp[2];	 /* 268 */
	uint8_t rsvd270[10];	 /* MTFA, HMPRE, HMMIN */
	uint8_t tnvmcap[16];	 /* 280 */
	uint8_t unvmcap[16];	 /* 296 */
	uint8_t rsvd312[16];	 /* RPMBS .. MXTMT */
	uint8_t sanicap[4];	 /* 328 */
	uint8_t rsvd332[192];	 /* 332 .. 523 */
	uint8_t fna;		 /* 524 */
	uint8_t vwc;		 /* 525 */
	uint8_t rsvd526[3570];
};
_Static_assert(sizeof(struct nvme_id_ctrl_raw) == NVME_IDENTIFY_LEN, "Identify Controller is 4096 bytes");
_Static_assert(offsetof(struct nvme_id_ctrl_raw, ctratt) == 96, "CTRATT at 96");
_Static_assert(offsetof(struct nvme_id_ctrl_raw, oacs) == 256, "OACS at 256");
_Static_assert(offsetof(struct nvme_id_ctrl_raw, lpa) == 261, "LPA at 261");
_Static_assert(offsetof(struct nvme_id_ctrl_raw, apsta) == 265, "APSTA at 265");
_Static_assert(offsetof(struct nvme_id_ctrl_raw, wctemp) == 266, "WCTEMP at 266");
_Static_assert(offsetof(struct nvme_id_ctrl_raw, tnvmcap) == 280, "TNVMCAP at 280");
_Static_assert(offsetof(struct nvme_id_ctrl_raw, sanicap) == 328, "SANICAP at 328");
_Static_assert(offsetof(struct nvme_id_ctrl_raw, fna) == 524, "FNA at 524");
_Static_assert(offsetof(struct nvme_id_ctrl_raw, vwc) == 525, "VWC at 525");

/* Identify Namespace (Figure 280). */
struct nvme_id_ns_raw {
	uint8_t nsze[8], ncap[8], nuse[8]; /* 0, 8, 16 */
	uint8_t nsfeat;			   /* 24 */
	uint8_t nlbaf;			   /* 25, zero-based */
	uint8_t flbas;			   /* 26 */
	uint8_t rsvd27[6];		   /* MC .. FPI */
	uint8_t dlfeat;			   /* 33 */
	uint8_t rsvd34[14];		   /* NAWUN .. NOIOB */
	uint8_t nvmcap[16];		   /* 48 */
	uint8_t rsvd64[38];		   /* NPWG .. NVMSETID */
	uint8_t endgid[2];		   /* 102 */
	uint8_t nguid[16], eui64[8];	   /* 104, 120 */
	uint8_t lbaf[64][4];		   /* 128: MS 15:0, LBADS 23:16, RP 25:24 */
	uint8_t rsvd384[3712];
};
_Static_assert(sizeof(struct nvme_id_ns_raw) == NVME_IDENTIFY_LEN, "Identify Namespace is 4096 bytes");
_Static_assert(offsetof(struct nvme_id_ns_raw, flbas) == 26, "FLBAS at 26");
_Static_assert(offsetof(struct nvme_id_ns_raw, dlfeat) == 33, "DLFEAT at 33");
_Static_assert(offsetof(struct nvme_id_ns_raw, nvmcap) == 48, "NVMCAP at 48");
_Static_assert(offsetof(struct nvme_id_ns_raw, endgid) == 102, "ENDGID at 102");
_Static_assert(offsetof(struct nvme_id_ns_raw, lbaf) == 128, "LBAF0 at 128");

void nvme_identify_cmd(struct nvme_admin_cmd *cmd, uint32_t nsid, uint8_t cns, void *buf)
{
	memset(cmd, 0, sizeof *cmd);
	cmd->opcode = NVME_ADMIN_IDENTIFY;
	cmd->nsid = nsid;
	cmd->addr = (uint64_t)(uintptr_t)buf;
	cmd->data_len = NVME_IDENTIFY_LEN;
	cmd->cdw10 = cns; /* CNTID (31:16) 0: the controller we talk to */
}

void nvme_get_features_cmd(struct nvme_admin_cmd *cmd, uint8_t fid, void *buf, uint32_t len)
{
	memset(cmd, 0, sizeof *cmd);
	cmd->opcode = NVME_ADMIN_GET_FEATURES;
	cmd->addr = (uint64_t)(uintptr_t)buf;
	cmd->data_len = len;
	cmd->cdw10 = fid; /* SEL (10:8) 0: the current value */
}

/* An ASCII field padded with spaces into a C string without the padding. */
static void ascii(char *dst, const char *src, size_t n)
{
	memcpy(dst, src, n);
	dst[n] = '\0';
	while (n && (dst[n - 1] == ' ' || dst[n - 1] == '\0'))
		dst[--n] = '\0';
}

void nvme_id_ctrl_decode(const uint8_t page[NVME_IDENTIFY_LEN], struct nvme_id_ctrl *out)
{
	const struct nvme_id_ctrl_raw *r = (const void *)page;

	memset(out, 0, sizeof *out);
	out->vid = (uint16_t)nvme_le(r->vid, 2);
	ascii(out->sn, r->sn, sizeof r->sn);
	ascii(out->mn, r->mn, sizeof r->mn);
	ascii(out->fr, r->fr, sizeof r->fr);
	out->ctratt = (uint32_t)nvme_le(r->ctratt, 4);
	out->oacs = (uint16_t)nvme_le(r->oacs, 2);
	out->lpa = r->lpa;
	out->apsta = r->apsta;
	out->wctemp_k = (uint16_t)nvme_le(r->wctemp, 2);
	out->cctemp_k = (uint16_t)nvme_le(r->cctemp, 2);
	out->tnvmcap = nvme_le(r->tnvmcap, 8);
	out->tnvmcap_overflow = nvme_le(r->tnvmcap + 8, 8) != 0;
	out->sanicap = (uint32_t)nvme_le(r->sanicap, 4);
	out->fna = r->fna;
	out->vwc = r->vwc;
}

void nvme_id_ns_decode(const uint8_t page[NVME_IDENTIFY_LEN], struct nvme_id_ns *out)
{
	const struct nvme_id_ns_raw *r = (const void *)page;

	memset(out, 0, sizeof *out);
	out->nsze = nvme_le(r->nsze, 8);
	out->ncap = nvme_le(r->ncap, 8);
	out->nuse = nvme_le(r->nuse, 8);
	out->nlbaf = (uint8_t)(r->nlbaf + 1 > 64 ? 64 : r->nlbaf + 1);
	out->flbas = r->flbas;
	out->dlfeat = r->dlfeat;
	/* the format index: bits 3:0, and 6:5 as its high bits when there are more than 16 */
	out->lbaf_in_use = (uint8_t)((r->flbas & 0x0f) | (out->nlbaf > 16 ? (r->flbas >> 5 & 3) << 4 : 0));
	out->extended_metadata = r->flbas & 0x10;
	out->nvmcap = nvme_le(r->nvmcap, 8);
	out->nvmcap_overflow = nvme_le(r->nvmcap + 8, 8) != 0;
	out->endgid = (uint16_t)nvme_le(r->endgid, 2);
	for (int i = 0; i < out->nlbaf; i++) {
		uint32_t f = (uint32_t)nvme_le(r->lbaf[i], 4);
		out->lbaf[i].ms = (uint16_t)(f & 0xffff);
		out->lbaf[i].lbads = (uint8_t)(f >> 16 & 0xff);
		out->lbaf[i].rp = (uint8_t)(f >> 24 & 3);
	}
}

/* Identify CNS cns of nsid into the caller's 4096-byte page; 0 or a negative with err. */
static int identify(const struct ioctl_ops *ops, int fd, uint32_t nsid, uint8_t cns, uint8_t *page, char *err,
		    size_t errlen)
{
	struct nvme_admin_cmd cmd;
	int r;

	memset(page, 0, NVME_IDENTIFY_LEN);
	nvme_identify_cmd(&cmd, nsid, cns, page);
	r = nvme_admin_send(ops, fd, &cmd, cns == NVME_CNS_CTRL ? "Identify Controller" : "Identify Namespace", err,
			    errlen);
	/* every controller has both pages: Invalid Field here is a failure, not an absent feature */
	return r == -EOPNOTSUPP ? -EIO : r;
}

/* Aligned for the kernel's DMA mapping of a user buffer. */
static _Thread_local _Alignas(4096) uint8_t id_page[NVME_IDENTIFY_LEN];

int nvme_id_ctrl_read(const struct ioctl_ops *ops, int fd, struct nvme_id_ctrl *out, char *err, size_t errlen)
{
	int r = identify(ops, fd, 0, NVME_CNS_CTRL, id_page, err, errlen);

	if (!r)
		nvme_id_ctrl_decode(id_page, out);
	return r;
}

int nvme_id_ns_read(const struct ioctl_ops *ops, int fd, uint32_t nsid, struct nvme_id_ns *out, char *err,
		    size_t errlen)
{
	int r = identify(ops, fd, nsid, NVME_CNS_NS, id_page, err, errlen);

	if (!r)
		nvme_id_ns_decode(id_page, out);
	return r;
}

int nvme_feature_enabled(const struct ioctl_ops *ops, int fd, uint8_t fid, char *err, size_t errlen)
{
	_Alignas(4096) static _Thread_local uint8_t table[NVME_APST_TABLE_LEN];
	struct nvme_admin_cmd cmd;
	char what[48];
	int r;

	/* APST answers with its transition table; VWC has no data structure. */
	if (fid == NVME_FEAT_APST)
		nvme_get_features_cmd(&cmd, fid, table, sizeof table);
	else
		nvme_get_features_cmd(&cmd, fid, NULL, 0);
	snprintf(what, sizeof what, "Get Features 0x%02x", fid);
	r = nvme_admin_send(ops, fd, &cmd, what, err, errlen);
	if (r)
		return r;
	return cmd.result & 1;
}
