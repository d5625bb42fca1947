/* SPDX-License-Identifier: MIT */
/*
 * ata_identify: what a SATA drive's IDENTIFY DEVICE data (512 bytes, 256 little-endian words)
 * says about it, and its HPA state from READ NATIVE MAX ADDRESS EXT, both sent through the
 * ioctl table (host/ata_cmd.h). Word and bit numbers are ACS-3's (T13/2161-D, 7.12.7); each
 * is named where it is decoded. sysfs cuts the SATA model to the 16 characters of the SCSI
 * INQUIRY product field, IDENTIFY keeps all 40.
 */
#ifndef SSDLAB_HOST_ATA_IDENTIFY_H
#define SSDLAB_HOST_ATA_IDENTIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host/ioctl_ops.h"

#define ATA_IDENTIFY_LEN 512

struct ata_identity {
	char model[41], serial[21], firmware[9];
	int major_version;	  /* highest bit set in word 80 (4 = ATA/ATAPI-4 ... 11 = ACS-4), -1 */
	const char *major_name;	  /* "ACS-3", ...; "unknown" */
	bool lba48;		  /* word 83 bit 10 */
	uint32_t logical_sector;  /* bytes (words 106, 117-118) */
	uint32_t physical_sector; /* bytes (word 106 bits 13, 3:0) */
	uint64_t user_sectors;	  /* addressable sectors: words 100-103 (48-bit) or 60-61; = current max LBA + 1 */
	bool smart_supported, smart_enabled;		 /* words 82/85 bit 0 */
	bool write_cache_supported, write_cache_enabled; /* words 82/85 bit 5 */
	bool hpa_supported, hpa_enabled;		 /* words 82/85 bit 10 */
	bool gpl;					 /* word 84 bit 5: READ LOG EXT works */
	bool trim;					 /* word 169 bit 0 */
	bool trim_drat, trim_rzat;			 /* word 69 bits 14 and 5 */
	bool security_supported, security_enabled, security_locked, security_frozen; /* word 128 */
	bool sanitize, sanitize_block_erase, sanitize_crypto, sanitize_overwrite;  /* word 59 */
	bool sata_valid;	   /* words 76-79 hold SATA capabilities (not 0 or 0xffff) */
	bool hipm;		   /* word 76 bit 9: accepts host-initiated power management */
	bool dipm_supported, dipm_enabled;     /* words 78/79 bit 3 */
	bool devslp_supported, devslp_enabled; /* words 78/79 bit 8 */
};

/* HPA state: current max (IDENTIFY) against native max (READ NATIVE MAX ADDRESS EXT). */
struct ata_hpa {
	bool known;		 /* READ NATIVE MAX ADDRESS EXT answered */
	char why[160];		 /* why not, when !known */
	uint64_t native_max_lba; /* the last LBA the drive has */
	uint64_t current_max_lba;
	uint64_t hidden_bytes; /* (native - current) x logical sector size */
};

/* Copies an ATA string of nwords words from word `word` into dst (2 x nwords + 1 bytes):
 * two characters a word, the first in the high byte (ACS-3 3.4.9), spaces trimmed. */
void ata_identify_string(const uint8_t *id, unsigned word, unsigned nwords, char *dst);

/* Decodes 512 bytes of IDENTIFY DEVICE data. */
void ata_identify_decode(const uint8_t id[ATA_IDENTIFY_LEN], struct ata_identity *out);

/* Sends IDENTIFY DEVICE; 0 with the raw data in id, or -errno with a message. */
int ata_identify_read(const struct ioctl_ops *ops, int fd, uint8_t id[ATA_IDENTIFY_LEN], char *err,
		      size_t errlen);

/* Sends READ NATIVE MAX ADDRESS EXT (for a 48-bit drive) and compares it with ident's current
 * max. A drive that refuses it leaves hpa->known false with the reason; never an error. */
void ata_hpa_read(const struct ioctl_ops *ops, int fd, const struct ata_identity *ident,
		  struct ata_hpa *hpa);

#endif
