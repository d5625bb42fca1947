// SPDX-License-Identifier: MIT
/*
 * nvme_script: a scripted NVMe admin table for the unit tests (host/ioctl_ops.h): each row is
 * the answer to one command, matched by opcode and cdw10; what was sent is kept for the checks.
 */
#ifndef SSDLAB_TEST_NVME_SCRIPT_H
#define SSDLAB_TEST_NVME_SCRIPT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "host/ioctl_ops.h"
#include "host/nvme_ident.h"

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

/* Identify Controller (an Intel DC P4510-like controller) and Namespace pages, byte by byte;
 * test_nvme_ident.c's header works their values out. 4096 bytes each. */
static inline void nvme_script_pad(uint8_t *p, const char *s, size_t n)
{
	memset(p, ' ', n);
	memcpy(p, s, strlen(s));
}

static inline void nvme_script_build_ctrl(uint8_t *p)
{
	memset(p, 0, NVME_IDENTIFY_LEN);
	nvme_put_le(p + 0, 0x8086, 2);
	nvme_script_pad(p + 4, "PHLJ91230ABC1P0FGN", 20);
	nvme_script_pad(p + 24, "INTEL SSDPE2KX010T8", 40);
	nvme_script_pad(p + 64, "VDV10131", 8);
	nvme_put_le(p + 96, 0x10, 4);
	nvme_put_le(p + 256, 0x000f, 2);
	p[261] = 0x03;
	p[265] = 0x01;
	nvme_put_le(p + 266, 0x0157, 2);
	nvme_put_le(p + 268, 0x0161, 2);
	nvme_put_le(p + 280, 1000204886016ull, 8);
	nvme_put_le(p + 328, 0x3, 4);
	p[524] = 0x04;
	p[525] = 0x07;
}

static inline void nvme_script_build_ns(uint8_t *p)
{
	memset(p, 0, NVME_IDENTIFY_LEN);
	nvme_put_le(p + 0, 1953525168ull, 8);
	nvme_put_le(p + 8, 1953525168ull, 8);
	nvme_put_le(p + 16, 1000, 8);
	p[25] = 1;
	p[26] = 0x01;
	nvme_put_le(p + 48, 1000204886016ull, 8);
	nvme_put_le(p + 102, 0x0102, 2);
	nvme_put_le(p + 128, 0x02090000, 4);
	nvme_put_le(p + 132, 0x000c0008, 4);
}

#endif
