// SPDX-License-Identifier: MIT
/*
 * nvme_ns_ctrl: a scripted NVMe controller with one namespace (nsid 1) and one controller
 * (CNTLID 0x41) that keeps the namespace's state, behind the admin hook of an ioctl table
 * (host/ioctl_ops.h). It answers Identify Controller (OACS), the Commands Supported and Effects
 * log (0x05), Identify CNS 0x11 (allocated namespace: NSZE, NCAP, two LBA formats 512 B and
 * 4096 B, FLBAS, DPS, NMIC) and CNS 0x12 (attached controllers), Namespace Attachment (0x15)
 * and Namespace Management (0x0D) delete and create (the new id 1 in the result). Every command
 * is kept (log, n). The byte offsets are NVMe Base Specification 2.0's
 * (test_devchange_nvme_ns.c lists them). Nothing here uses cmocka.
 */
#ifndef SSDLAB_TEST_NVME_NS_CTRL_H
#define SSDLAB_TEST_NVME_NS_CTRL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "host/nvme_admin.h"
#include "nvme_script.h"

struct nvme_ns_sent {
	uint8_t opcode;
	uint32_t nsid, cdw10;
	uint8_t data[32];
};

struct nvme_ns_ctrl {
	bool exists, attached;
	uint64_t nsze, ncap;
	uint8_t flbas, dps, nmic;
	int fail_create; /* answer the next create with this status */
	int effects;	 /* the log 0x05: 0 absent (Invalid Field), 1 lists 0x0D/0x15, 2 does not
			    (QEMU 7.2) */
	uint16_t oacs;
	struct nvme_ns_sent log[64];
	int n;
};

static inline int nvme_ns_ctrl_admin(void *ctx, int fd, struct nvme_admin_cmd *cmd)
{
	struct nvme_ns_ctrl *f = ctx;
	uint8_t *p = (uint8_t *)(uintptr_t)cmd->addr;
	struct nvme_ns_sent *s = &f->log[f->n < 64 ? f->n++ : 63];

	(void)fd;
	*s = (struct nvme_ns_sent){.opcode = cmd->opcode, .nsid = cmd->nsid, .cdw10 = cmd->cdw10};
	if (p && cmd->data_len)
		memcpy(s->data, p, sizeof s->data);
	switch (cmd->opcode) {
	case 0x02:
		if (cmd->cdw10 != 0x03ff0005 || !f->effects)
			return 0x4002;
		memset(p, 0, cmd->data_len);
		p[4 * 0x15] = 1;
		if (f->effects == 1)
			p[4 * 0x0d] = 1;
		return 0;
	case 0x06:
		memset(p, 0, cmd->data_len);
		if (cmd->cdw10 == 1) {
			nvme_put_le(p + 256, f->oacs, 2);
			return 0;
		}
		if (cmd->cdw10 == 0x11) {
			if (!f->exists || cmd->nsid != 1)
				return 0x400b; /* Invalid Namespace or Format, DNR */
			nvme_put_le(p, f->nsze, 8);
			nvme_put_le(p + 8, f->ncap, 8);
			p[25] = 1; /* two LBA formats: 512 B and 4096 B */
			p[26] = f->flbas;
			p[29] = f->dps;
			p[30] = f->nmic;
			nvme_put_le(p + 128, 0x00090000, 4);
			nvme_put_le(p + 132, 0x000c0000, 4);
			return 0;
		}
		if (cmd->cdw10 == 0x12) {
			if (f->attached) {
				p[0] = 1;
				p[2] = 0x41;
			}
			return 0;
		}
		return 0x4002;
	case 0x15:
		if (cmd->nsid != 1 || p[0] != 1 || p[2] != 0x41)
			return 0x4002;
		f->attached = cmd->cdw10 == 0;
		return 0;
	case 0x0d:
		if (cmd->cdw10 == 1) {
			if (!f->exists || cmd->nsid != 1)
				return 0x400b;
			f->exists = f->attached = false;
			return 0;
		}
		if (f->fail_create) {
			int st = f->fail_create;
			f->fail_create = 0;
			return st;
		}
		f->exists = true;
		f->nsze = nvme_le(p, 8);
		f->ncap = nvme_le(p + 8, 8);
		f->flbas = p[26];
		f->dps = p[29];
		f->nmic = p[30];
		cmd->result = 1;
		return 0;
	}
	return 0x4001;
}

#endif
