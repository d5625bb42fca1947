// SPDX-License-Identifier: MIT
/*
 * nvme_lba_status: the NVMe Get LBA Status admin command (opcode 86h, NVMe 1.4 section 5.27;
 * since NVMe 2.0 the NVM Command Set specification 1.0 section 4.2.1), sent through the ioctl
 * table (host/ioctl_ops.h), and what it says about one LBA range. trim-check asks it about the
 * ranges it discarded (targets/trimcheck.h): the drive's own word on those blocks, where the
 * controller sets Identify Controller OACS bit 9 ("Get LBA Status capability").
 *
 * The command (NVM Command Set 1.0 Figures 107-110): CDW10/11 the Starting LBA, CDW12 MNDW
 * (the buffer in dwords, 0's based), CDW13 bits 31:24 ATYPE, bits 15:0 RL (the number of LBAs
 * to examine; 0 would mean "to the end of the namespace", which this module never sends). The
 * answer (Figures 111-112): an 8-byte header (NLSD: descriptors returned, bytes 3:0; CMPC:
 * completion condition, byte 4) and 16-byte LBA Status Descriptor Entries (DSLBA bytes 7:0,
 * NLB bytes 11:8, 0's based; Status byte 13).
 *
 * Action types:
 *   11h  Tracked LBAs: the Potentially Unrecoverable LBAs the controller already tracks (the
 *        type NVMe 1.4 defines beside 10h, which scans the medium and may take long); none on
 *        a healthy drive, and a drive that counts a deallocated block as unreadable lists it;
 *   02h  Allocated LBAs: the allocated (mapped) blocks (a later revision; libnvme's
 *        NVME_LBA_STATUS_ATYPE_ALLOCATED); none in a discarded range means the drive reports
 *        every block of it deallocated. A 1.4 controller answers Invalid Field.
 */
#ifndef SSDLAB_HOST_NVME_LBA_STATUS_H
#define SSDLAB_HOST_NVME_LBA_STATUS_H

#include "host/ioctl_ops.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NVME_ADMIN_GET_LBA_STATUS 0x86
/* Identify Controller OACS bit 9: the controller supports Get LBA Status. */
#define NVME_OACS_GET_LBA_STATUS (1u << 9)
#define NVME_LBAS_ATYPE_ALLOCATED 0x02
#define NVME_LBAS_ATYPE_SCAN 0x10
#define NVME_LBAS_ATYPE_TRACKED 0x11
#define NVME_LBAS_HDR_LEN 8
#define NVME_LBAS_DESC_LEN 16
/* CMPC: 1 = stopped at MNDW (more descriptors to fetch), 2 = the whole range examined. */
#define NVME_LBAS_CMPC_INCOMPLETE 1
#define NVME_LBAS_CMPC_COMPLETE 2
/* Descriptor Status (ATYPE 10h/11h): bit 0 reads may fail with Unrecovered Read Error, bit 1
 * the blocks were written by Write Uncorrectable. */
#define NVME_LBAS_STATUS_URE (1u << 0)
#define NVME_LBAS_STATUS_WUNC (1u << 1)
/* RL is 16 bits: longer ranges are asked in pieces of at most this many blocks. */
#define NVME_LBAS_RL_MAX 0xffffu

struct nvme_lba_status_desc {
	uint64_t dslba;
	uint64_t nlb; /* blocks (NLB + 1) */
	uint8_t status;
};

/* What the descriptors say about one range [slba, slba + nlb). */
struct nvme_lba_status_sum {
	uint64_t blocks;      /* blocks of the range inside a descriptor */
	uint32_t descriptors; /* descriptors that touched the range */
	uint32_t commands;    /* Get LBA Status commands sent */
	uint8_t status_or;    /* the descriptors' Status bytes ORed */
};

/* Fills cmd with Get LBA Status for nsid: atype over rl blocks (1..65535) from slba, answer into
 * buf of len bytes (a multiple of 4, at least NVME_LBAS_HDR_LEN). */
void nvme_lba_status_cmd(struct nvme_admin_cmd *cmd, uint32_t nsid, uint8_t atype, uint64_t slba,
			 uint16_t rl, void *buf, uint32_t len);

/* Decodes an answer of len bytes: *nlsd and *cmpc from the header, and up to max descriptors
 * into d (no more than NLSD, nor than len holds). Returns how many were decoded. */
unsigned nvme_lba_status_decode(const uint8_t *buf, uint32_t len, uint32_t *nlsd, uint8_t *cmpc,
				struct nvme_lba_status_desc *d, unsigned max);

/*
 * Asks atype about the range [slba, slba + nlb) of namespace nsid, in as many commands as RL and
 * the buffer need (following CMPC 1 from the end of the last descriptor), and sums what the
 * descriptors cover inside the range. 0 with *out filled; -EOPNOTSUPP when the controller
 * answers Invalid Field (that action type, or the command, is not there), -EIO for another NVMe
 * status or an answer that does not advance, -errno for a transport failure; a message in err
 * for the negatives, *out untouched.
 */
int nvme_lba_status_range(const struct ioctl_ops *ops, int fd, uint32_t nsid, uint8_t atype,
			  uint64_t slba, uint64_t nlb, struct nvme_lba_status_sum *out, char *err,
			  size_t errlen);

#endif
