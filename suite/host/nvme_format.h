// SPDX-License-Identifier: MIT
/*
 * nvme_format: the NVMe commands that erase or re-lay a drive (issue 13 points 3 and 4): Format
 * NVM (0x80) with Secure Erase Settings, Sanitize (0x84) with its status log (0x81), and the
 * namespace management (0x0D) and attachment (0x15) commands that over-provisioning by
 * namespace uses. Builders fill the very struct the send path sends, so `--dry-run` prints
 * exactly what would go (nvme_cmd_describe). Layouts: NVMe Base Specification 2.0, Figures 320
 * (Format NVM CDW10), 373/374 (Sanitize CDW10/11), 294 (Sanitize Status log), 359/361
 * (Namespace Management), 357 (Namespace Attachment); FNA and SANICAP: Figure 275.
 *
 * The format keeps the namespace's layout: the LBA format index (FLBAS bits 3:0 and 6:5, the
 * upper bits for drives with more than 16 formats), the metadata setting (FLBAS bit 4) and the
 * protection information (DPS) go back into CDW10 unchanged; a format sent with LBAF 0 would turn
 * a 4Kn namespace back into 512-byte sectors.
 */
#ifndef SSDLAB_HOST_NVME_FORMAT_H
#define SSDLAB_HOST_NVME_FORMAT_H

#include "host/ioctl_ops.h"
#include "host/nvme_ident.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NVME_LOG_SANITIZE 0x81
/* Commands Supported and Effects: 4096 bytes, one dword per admin opcode first (bit 0 CSUPP). */
#define NVME_LOG_CMD_EFFECTS 0x05
/* The Sanitize Status log's defined part (bytes 0..31); the page is 512 bytes since NVMe 1.4. */
#define NVME_SANITIZE_LOG_LEN 512
/* FNA bits 0 and 1: a format / a secure erase reaches every namespace. */
#define NVME_FNA_FORMAT_ALL (1u << 0)
#define NVME_FNA_ERASE_ALL (1u << 1)
/* Identify CNS 0x12: the controllers attached to a namespace. */
#define NVME_CNS_NS_CTRL_LIST 0x12
/* Format NVM can take minutes on a large drive (a user-data erase writes or erases every
 * block); the kernel's default admin timeout (60 s) would abort it midway. */
#define NVME_FORMAT_TIMEOUT_MS (30u * 60u * 1000u)

/* Secure Erase Settings (Format NVM CDW10 bits 11:9). */
enum nvme_ses { NVME_SES_NONE = 0, NVME_SES_USER_DATA = 1, NVME_SES_CRYPTO = 2 };

/* Sanitize actions (CDW10 bits 2:0). */
enum nvme_sanact {
	NVME_SANACT_EXIT_FAILURE = 1,
	NVME_SANACT_BLOCK_ERASE = 2,
	NVME_SANACT_OVERWRITE = 3,
	NVME_SANACT_CRYPTO_ERASE = 4,
};

/* What a Format NVM will send, and what it reaches. */
struct nvme_format_plan {
	uint32_t nsid;	     /* the namespace, or NVME_NSID_ALL when the format reaches all */
	bool all_namespaces; /* FNA says the format (or its secure erase) reaches every namespace */
	uint8_t lbaf;	     /* the LBA format index in use (0..63) */
	uint8_t mset;	     /* FLBAS bit 4: metadata at the end of each block */
	uint8_t pi, pil;     /* DPS bits 2:0 and 3 */
	enum nvme_ses ses;
	uint32_t cdw10;
};

/*
 * Works out the Format NVM for namespace nsid from Identify Controller (FNA) and the namespace's
 * Identify page (FLBAS, DPS at byte 29, decoded here from the raw page so nothing else changes).
 * -EOPNOTSUPP with a reason when the controller lacks Format NVM (OACS bit 1) or, for
 * NVME_SES_CRYPTO, cryptographic erase (FNA bit 2). out untouched on failure.
 */
int nvme_format_plan(const struct nvme_id_ctrl *ctrl, const uint8_t ns_page[NVME_IDENTIFY_LEN],
		     uint32_t nsid, enum nvme_ses ses, struct nvme_format_plan *out, char *err,
		     size_t errlen);

/* Fills cmd with the Format NVM that plan describes (no data buffer). */
void nvme_format_cmd(struct nvme_admin_cmd *cmd, const struct nvme_format_plan *plan);

/* Fills cmd with Sanitize action act: No-Deallocate-After-Sanitize cleared (the drive deallocates,
 * so it reads as fresh-out-of-box), AUSE 0, and for an overwrite one pass of pattern 0. */
void nvme_sanitize_cmd(struct nvme_admin_cmd *cmd, enum nvme_sanact act);

/* The sanitize action to use given SANICAP, preferring block erase, then crypto erase, then
 * overwrite (block erase resets every cell, which is what fresh-out-of-box means); 0 when the
 * controller has none. */
enum nvme_sanact nvme_sanitize_pick(uint32_t sanicap);
const char *nvme_sanact_name(enum nvme_sanact act);

/* The Sanitize Status log (0x81). */
struct nvme_sanitize_status {
	uint16_t sprog; /* progress: sprog / 65536 done (0xffff when nothing runs) */
	uint8_t state; /* SSTAT bits 2:0: 0 never, 1 done, 2 in progress, 3 failed, 4 done (NDAS) */
	uint8_t passes;	    /* SSTAT bits 7:3: overwrite passes completed */
	bool global_erased; /* SSTAT bit 8: nothing written since the last sanitize / manufacture */
	uint32_t scdw10;    /* the CDW10 of the sanitize that ran last */
	uint32_t est_overwrite_s, est_block_s, est_crypto_s; /* estimates, 0xffffffff: none */
};
#define NVME_SSTAT_NEVER 0
#define NVME_SSTAT_DONE 1
#define NVME_SSTAT_IN_PROGRESS 2
#define NVME_SSTAT_FAILED 3
#define NVME_SSTAT_DONE_NDAS 4

void nvme_sanitize_status_decode(const uint8_t page[NVME_SANITIZE_LOG_LEN],
				 struct nvme_sanitize_status *out);
int nvme_sanitize_status_read(const struct ioctl_ops *ops, int fd, struct nvme_sanitize_status *out,
			      char *err, size_t errlen);

/* How a caller waits between polls and hears of progress (tests pass their own). */
struct nvme_wait {
	void *ctx;
	void (*sleep_ns)(void *ctx, uint64_t ns);     /* NULL: nanosleep */
	void (*progress)(void *ctx, double fraction); /* NULL: silent */
	uint64_t poll_ns;			      /* 0: 1 s */
	uint64_t max_polls;			      /* 0: no bound */
};

/*
 * Sends the Sanitize (cmd from nvme_sanitize_cmd) and polls the Sanitize Status log until the
 * operation leaves the in-progress state: 0 when it completed, -EIO "sanitize failed: ..." when
 * SSTAT says failed (the drive is then in sanitize failure mode: only another sanitize, or an
 * Exit Failure Mode, lets it take writes), -ETIMEDOUT after max_polls, other -errno.
 */
int nvme_sanitize_run(const struct ioctl_ops *ops, int fd, enum nvme_sanact act,
		      const struct nvme_wait *w, char *err, size_t errlen);

/* The confirmation text of a sanitize: subsystem-wide, not abortable, survives a power loss,
 * can fail into a restricted state. */
const char *nvme_sanitize_warning(void);

/* ---- namespace management (over-provisioning by namespace) ---- */

/* A namespace's layout as Namespace Management recreates it. */
struct nvme_ns_layout {
	uint64_t nsze, ncap; /* logical blocks */
	uint8_t flbas, dps, nmic;
	uint16_t nctrl; /* controllers attached */
	uint16_t ctrl[16];
};

/* Reads nsze, ncap, flbas, dps and nmic from a raw Identify Namespace page. */
void nvme_ns_layout_decode(const uint8_t page[NVME_IDENTIFY_LEN], struct nvme_ns_layout *out);
/* Fills buf (NVME_IDENTIFY_LEN bytes, zeroed here) with the Namespace Management create data
 * structure and cmd with the create command (SEL 0, nsid 0; the new nsid comes back in result). */
void nvme_ns_create_cmd(struct nvme_admin_cmd *cmd, const struct nvme_ns_layout *l, uint8_t *buf);
void nvme_ns_delete_cmd(struct nvme_admin_cmd *cmd, uint32_t nsid);
/* Attach (attach true) or detach nsid to/from l's controller list; buf as above. */
void nvme_ns_attach_cmd(struct nvme_admin_cmd *cmd, uint32_t nsid, bool attach,
			const struct nvme_ns_layout *l, uint8_t *buf);
/* Decodes an Identify controller list (CNS 0x12/0x13) into l->nctrl/l->ctrl. */
void nvme_ctrl_list_decode(const uint8_t page[NVME_IDENTIFY_LEN], struct nvme_ns_layout *l);

#endif
