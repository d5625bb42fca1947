// SPDX-License-Identifier: MIT
/*
 * nvme_ident: who an NVMe controller and namespace say they are and what they can do, from
 * Identify Controller (CNS 0x01), Identify Namespace (CNS 0x00) and Get Features (Volatile Write
 * Cache, Autonomous Power State Transition), sent through the ioctl table (host/ioctl_ops.h).
 * `ssdlab info` prints it; `ssdlab smart` needs CTRATT, ENDGID and VID to know which extra logs
 * exist. Field offsets: NVMe Base Specification 2.0, Figures 275 (controller) and 280 (namespace);
 * libnvme's struct nvme_id_ctrl / nvme_id_ns lay out the same bytes.
 */
#ifndef SSDLAB_HOST_NVME_IDENT_H
#define SSDLAB_HOST_NVME_IDENT_H

#include "host/ioctl_ops.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NVME_IDENTIFY_LEN 4096
#define NVME_CNS_NS 0x00
#define NVME_CNS_CTRL 0x01
#define NVME_FEAT_VWC 0x06
#define NVME_FEAT_APST 0x0c
/* Get Features APST returns the 32-entry power state transition table, 8 bytes an entry. */
#define NVME_APST_TABLE_LEN 256

/* DLFEAT bits 2:0: what a read of a deallocated block returns (0: not reported, values 3..7
 * reserved); bit 3: Write Zeroes may deallocate. */
#define NVME_DLFEAT_READ_MASK 0x07u
#define NVME_DLFEAT_READ_ZEROES 0x01u
#define NVME_DLFEAT_READ_ONES 0x02u

/* OACS (Optional Admin Command Support) bits. */
#define NVME_OACS_SECURITY (1u << 0) /* Security Send / Receive */
#define NVME_OACS_FORMAT (1u << 1)
#define NVME_OACS_FIRMWARE (1u << 2) /* Firmware Download / Commit */
#define NVME_OACS_NS_MGMT (1u << 3)
#define NVME_OACS_SELF_TEST (1u << 4)
/* CTRATT bit 4: the controller supports Endurance Groups. */
#define NVME_CTRATT_ENDGRP (1u << 4)
/* SANICAP bits 0..2: Crypto Erase, Block Erase, Overwrite. */
#define NVME_SANICAP_CRYPTO (1u << 0)
#define NVME_SANICAP_BLOCK (1u << 1)
#define NVME_SANICAP_OVERWRITE (1u << 2)
/* FNA bit 2: cryptographic erase as part of Format NVM. */
#define NVME_FNA_CRYPTO_ERASE (1u << 2)
/* LPA bit 0: SMART/Health per namespace. */
#define NVME_LPA_SMART_PER_NS (1u << 0)

struct nvme_id_ctrl {
	uint16_t vid;			/* PCI vendor id (0x8086 Intel) */
	char sn[21], mn[41], fr[9];	/* ASCII, trailing spaces removed */
	uint32_t ctratt;
	uint16_t oacs;
	uint8_t lpa, apsta, fna, vwc;	/* APSTA and VWC: bit 0 = supported / present */
	uint16_t wctemp_k, cctemp_k;	/* Kelvin; 0 = not reported */
	uint32_t sanicap;
	uint64_t tnvmcap;		/* bytes, low 64 bits of 128 */
	bool tnvmcap_overflow;
};

struct nvme_lbaf {
	uint16_t ms;	/* metadata bytes per block */
	uint8_t lbads;	/* data size: 2^lbads bytes */
	uint8_t rp;	/* relative performance: 0 best .. 3 degraded */
};

struct nvme_id_ns {
	uint64_t nsze, ncap, nuse;	/* in logical blocks */
	uint8_t nlbaf;			/* number of LBA formats (the field + 1) */
	uint8_t flbas;
	uint8_t dlfeat;			/* byte 33; bits 2:0 NVME_DLFEAT_READ_* */
	uint8_t lbaf_in_use;		/* index from FLBAS bits 3:0 and 6:5 */
	bool extended_metadata;		/* FLBAS bit 4 */
	uint16_t endgid;		/* 0: no endurance group named */
	uint64_t nvmcap;		/* bytes, low 64 bits */
	bool nvmcap_overflow;
	struct nvme_lbaf lbaf[64];
};

/* Fills cmd with Identify CNS cns for nsid into buf (NVME_IDENTIFY_LEN bytes). */
void nvme_identify_cmd(struct nvme_admin_cmd *cmd, uint32_t nsid, uint8_t cns, void *buf);
/* Fills cmd with Get Features (current value, SEL 0) of fid; buf/len: the feature's data
 * structure (APST's table) or NULL/0. */
void nvme_get_features_cmd(struct nvme_admin_cmd *cmd, uint8_t fid, void *buf, uint32_t len);

/* Decode 4096-byte Identify pages. */
void nvme_id_ctrl_decode(const uint8_t page[NVME_IDENTIFY_LEN], struct nvme_id_ctrl *out);
void nvme_id_ns_decode(const uint8_t page[NVME_IDENTIFY_LEN], struct nvme_id_ns *out);

/* Send and decode; 0, or -errno / -EIO (an NVMe status) with a message in err; out untouched on
 * failure. */
int nvme_id_ctrl_read(const struct ioctl_ops *ops, int fd, struct nvme_id_ctrl *out, char *err, size_t errlen);
int nvme_id_ns_read(const struct ioctl_ops *ops, int fd, uint32_t nsid, struct nvme_id_ns *out, char *err,
		    size_t errlen);

/* Get Features fid (current): 1 enabled / 0 disabled from completion dword 0 bit 0 (WCE for
 * VWC, APSTE for APST), or -EOPNOTSUPP when the drive answers Invalid Field (the feature is
 * absent), -EIO for another status, -errno; a message in err for the negatives. */
int nvme_feature_enabled(const struct ioctl_ops *ops, int fd, uint8_t fid, char *err, size_t errlen);

#endif
