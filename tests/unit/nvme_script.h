// SPDX-License-Identifier: MIT
/*
 * nvme_script: a scripted NVMe admin table for the unit tests (host/ioctl_ops.h): each row is
 * the answer to one command, matched by opcode and cdw10; what was sent is kept for the checks.
 */
#ifndef SSDLAB_TEST_NVME_SCRIPT_H
#define SSDLAB_TEST_NVME_SCRIPT_H

#include <stdint.h>
#include <string.h>

#include "host/ioctl_ops.h"

struct nvme_script_row {
	uint8_t opcode;
	uint32_t cdw10;
	int status;	      /* 0, an NVMe status (> 0) or -errno */
	uint32_t result;      /* completion dword 0 */
	const uint8_t *data;  /* copied into the command's buffer when status is 0 */
	uint32_t len;
	struct nvme_admin_cmd seen; /* the command as sent */
	int calls;
};

struct nvme_script {
	struct nvme_script_row *rows;
	int n;
	int unmatched; /* commands no row answers */
	int calls;
};

static inline int nvme_script_admin(void *ctx, int fd, struct nvme_admin_cmd *cmd)
{
	struct nvme_script *s = ctx;

	(void)fd;
	s->calls++;
	for (int i = 0; i < s->n; i++) {
		struct nvme_script_row *r = &s->rows[i];
		if (r->opcode != cmd->opcode || r->cdw10 != cmd->cdw10)
			continue;
		r->seen = *cmd;
		r->calls++;
		if (r->status)
			return r->status;
		cmd->result = r->result;
		if (r->data)
			memcpy((void *)(uintptr_t)cmd->addr, r->data, r->len < cmd->data_len ? r->len : cmd->data_len);
		return 0;
	}
	s->unmatched++;
	return 0x4002; /* Invalid Field, as a drive answers a command it does not know */
}

static inline struct ioctl_ops nvme_script_ops(struct nvme_script *s)
{
	struct ioctl_ops ops = {.admin = nvme_script_admin, .ctx = s};
	return ops;
}

static inline void nvme_put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

#endif
