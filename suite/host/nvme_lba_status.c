// SPDX-License-Identifier: MIT
/*
 * nvme_lba_status: Get LBA Status (nvme_lba_status.h): the command, its answer, and the walk
 * over one range in RL-sized pieces that follows CMPC 1 ("stopped at MNDW") to the end.
 */
#include "host/nvme_lba_status.h"

#include "host/nvme_admin.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The answer's layout (NVM Command Set 1.0 Figures 111 and 112). */
struct nvme_lbas_hdr_raw {
	uint8_t nlsd[4]; /* 0 */
	uint8_t cmpc;	 /* 4 */
	uint8_t rsvd5[3];
};
struct nvme_lbas_desc_raw {
	uint8_t dslba[8]; /* 0 */
	uint8_t nlb[4];	  /* 8, 0's based */
	uint8_t rsvd12;
	uint8_t status; /* 13 */
	uint8_t rsvd14[2];
};
_Static_assert(sizeof(struct nvme_lbas_hdr_raw) == NVME_LBAS_HDR_LEN, "the header is 8 bytes");
_Static_assert(sizeof(struct nvme_lbas_desc_raw) == NVME_LBAS_DESC_LEN, "a descriptor is 16 bytes");
_Static_assert(offsetof(struct nvme_lbas_desc_raw, status) == 13, "Status at byte 13");

/* One answer buffer: the header and 255 descriptors, one 4 KiB page (MNDW 1023). */
#define ANSWER_LEN 4096u
#define ANSWER_DESCS ((ANSWER_LEN - NVME_LBAS_HDR_LEN) / NVME_LBAS_DESC_LEN)
/* A controller that keeps answering "incomplete" while advancing one block at a time would
 * take this many commands for a 16-million-block range; past it the answer is not trusted. */
#define MAX_COMMANDS 65536u

void nvme_lba_status_cmd(struct nvme_admin_cmd *cmd, uint32_t nsid, uint8_t atype, uint64_t slba,
			 uint16_t rl, void *buf, uint32_t len)
{
	memset(cmd, 0, sizeof *cmd);
	cmd->opcode = NVME_ADMIN_GET_LBA_STATUS;
	cmd->nsid = nsid;
	cmd->addr = (uint64_t)(uintptr_t)buf;
	cmd->data_len = len;
	cmd->cdw10 = (uint32_t)slba;
	cmd->cdw11 = (uint32_t)(slba >> 32);
	cmd->cdw12 = len / 4 - 1; /* MNDW, 0's based */
	cmd->cdw13 = (uint32_t)atype << 24 | rl;
}

unsigned nvme_lba_status_decode(const uint8_t *buf, uint32_t len, uint32_t *nlsd, uint8_t *cmpc,
				struct nvme_lba_status_desc *d, unsigned max)
{
	const struct nvme_lbas_hdr_raw *h = (const void *)buf;
	unsigned n = 0;

	*nlsd = len >= NVME_LBAS_HDR_LEN ? (uint32_t)nvme_le(h->nlsd, 4) : 0;
	*cmpc = len >= NVME_LBAS_HDR_LEN ? h->cmpc : 0;
	for (uint32_t off = NVME_LBAS_HDR_LEN; n < *nlsd && n < max && off + NVME_LBAS_DESC_LEN <= len;
	     off += NVME_LBAS_DESC_LEN, n++) {
		const struct nvme_lbas_desc_raw *r = (const void *)(buf + off);

		d[n].dslba = nvme_le(r->dslba, 8);
		d[n].nlb = nvme_le(r->nlb, 4) + 1;
		d[n].status = r->status;
	}
	return n;
}

/* Adds the part of each descriptor inside [lo, hi) to s. */
static void add_descs(struct nvme_lba_status_sum *s, const struct nvme_lba_status_desc *d,
		      unsigned n, uint64_t lo, uint64_t hi)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t a = d[i].dslba > lo ? d[i].dslba : lo;
		uint64_t e = d[i].dslba + d[i].nlb, b = e < hi ? e : hi;

		if (b <= a)
			continue;
		s->blocks += b - a;
		s->descriptors++;
		s->status_or |= d[i].status;
	}
}

int nvme_lba_status_range(const struct ioctl_ops *ops, int fd, uint32_t nsid, uint8_t atype,
			  uint64_t slba, uint64_t nlb, struct nvme_lba_status_sum *out, char *err,
			  size_t errlen)
{
	struct nvme_lba_status_desc d[ANSWER_DESCS];
	struct nvme_lba_status_sum s = {0};
	uint64_t cur = slba, end = slba + nlb;
	uint8_t *buf = NULL;
	char what[48];
	int r = -ENOMEM;

	snprintf(what, sizeof what, "Get LBA Status (ATYPE %02Xh)", atype);
	if (posix_memalign((void **)&buf, 4096, ANSWER_LEN)) {
		snprintf(err, errlen, "%s: out of memory", what);
		goto out;
	}
	while (cur < end) {
		uint16_t rl = (uint16_t)(end - cur < NVME_LBAS_RL_MAX ? end - cur : NVME_LBAS_RL_MAX);
		uint64_t piece_end = cur + rl, next = piece_end;
		struct nvme_admin_cmd cmd;
		uint32_t nlsd;
		uint8_t cmpc;
		unsigned n;

		if (s.commands == MAX_COMMANDS) {
			snprintf(err, errlen, "%s: %u commands did not cover %llu blocks", what,
				 MAX_COMMANDS, (unsigned long long)nlb);
			r = -EIO;
			goto out;
		}
		memset(buf, 0, ANSWER_LEN);
		nvme_lba_status_cmd(&cmd, nsid, atype, cur, rl, buf, ANSWER_LEN);
		s.commands++;
		r = ops->admin(ops->ctx, fd, &cmd);
		if (r < 0) {
			snprintf(err, errlen, "%s: %s", what, strerror(-r));
			goto out;
		}
		if (r > 0) {
			/* Invalid Opcode (SC 01h): no such command (QEMU 7.2); Invalid Field: not
			 * that action type (02h on a 1.4 controller) */
			bool opcode = (r & 0x7ff) == 0x001, absent = opcode || nvme_status_not_supported(r);

			snprintf(err, errlen, "%s: NVMe status 0x%x (%s)", what, (unsigned)r,
				 opcode	  ? "Invalid Opcode: not implemented"
				 : absent ? "Invalid Field: not supported"
					  : "failed");
			r = absent ? -EOPNOTSUPP : -EIO;
			goto out;
		}
		n = nvme_lba_status_decode(buf, ANSWER_LEN, &nlsd, &cmpc, d, ANSWER_DESCS);
		add_descs(&s, d, n, cur, piece_end);
		if (cmpc == NVME_LBAS_CMPC_INCOMPLETE) {
			uint64_t last = n ? d[n - 1].dslba + d[n - 1].nlb : cur;

			if (last <= cur) {
				snprintf(err, errlen,
					 "%s: answer at LBA %llu incomplete (CMPC 1) without advancing",
					 what, (unsigned long long)cur);
				r = -EIO;
				goto out;
			}
			if (last < piece_end)
				next = last;
		}
		cur = next;
	}
	*out = s;
	r = 0;
out:
	free(buf);
	return r;
}
