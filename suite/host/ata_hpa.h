/* SPDX-License-Identifier: MIT */
/*
 * ata_hpa: a SATA drive's accessible capacity, read and changed through ATA PASS-THROUGH(16)
 * (host/ata_cmd.h) for issue 13 point 2. Two methods, chosen from IDENTIFY:
 *   - AMAC, the Accessible Max Address Configuration feature set of ACS-3 and later (word 119
 *     bit 8, valid when word 86 bit 15 and word 119 bits 15:14 = 01b): GET NATIVE MAX ADDRESS
 *     EXT, SET ACCESSIBLE MAX ADDRESS EXT and FREEZE ACCESSIBLE MAX ADDRESS EXT, opcode 0x78
 *     with features 0x0000, 0x0001, 0x0002. Always persistent (AMAC has no volatile form).
 *   - HPA, the Host Protected Area feature set (word 82 bit 10, obsolete in ACS-3): READ NATIVE
 *     MAX ADDRESS EXT (0x27) and SET MAX ADDRESS EXT (0x37), whose COUNT bit 0 is the Volatile
 *     Value bit (1: kept across power cycles; hdparm -N / -Np, reference E).
 * Before a change, ata_hpa_refusal() names what makes it unsafe: a Device Configuration Overlay
 * that limits the native max (DEVICE CONFIGURATION IDENTIFY, 0xB1 feature 0xC2, words 3-6: the
 * drive's real maximum LBA, where word 83 bit 11 says DCO is supported), an HPA that was
 * already there, a frozen or locked security state (word 128), a USB bridge.
 * Every function returns 0 or -errno with a message in err.
 */
#ifndef SSDLAB_HOST_ATA_HPA_H
#define SSDLAB_HOST_ATA_HPA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "host/ata_cmd.h"
#include "host/ioctl_ops.h"

#define ATA_OP_SET_MAX_EXT 0x37
#define ATA_OP_AMAC 0x78
#define ATA_AMAC_GET_NATIVE 0x0000
#define ATA_AMAC_SET_ACCESSIBLE 0x0001
#define ATA_AMAC_FREEZE 0x0002
#define ATA_OP_DCO 0xb1
#define ATA_DCO_IDENTIFY 0xc2

enum ata_hpa_method {
	ATA_HPA_NONE = 0, /* neither feature set: the capacity cannot be changed */
	ATA_HPA_HPA,
	ATA_HPA_AMAC,
};

/* What the drive says about its capacity (ata_hpa_probe). */
struct ata_hpa_state {
	enum ata_hpa_method method;
	uint32_t logical_sector;  /* bytes */
	uint64_t native_max_lba;  /* READ NATIVE MAX / GET NATIVE MAX */
	uint64_t current_max_lba; /* IDENTIFY words 100-103, minus 1 */
	uint64_t hidden_bytes;	  /* (native - current) x logical_sector */
	bool dco_supported;	  /* word 83 bit 11 */
	bool dco_known;		  /* DEVICE CONFIGURATION IDENTIFY answered */
	uint64_t dco_max_lba;	  /* its words 3-6 */
	bool dco_limits;	  /* dco_max_lba > native_max_lba: the overlay hides capacity */
	char dco_why[160];	  /* why dco_known is false, when dco_supported */
	bool security_frozen, security_locked; /* word 128 bits 3 and 2 */
	char model[41], serial[21];
};

const char *ata_hpa_method_name(enum ata_hpa_method m); /* "HPA", "AMAC", "none" */

/* The commands (fields from ACS-3; the CDB from ata_cmd_cdb). volatile_value: COUNT bit 0 clear. */
struct ata_cmd ata_cmd_set_max_ext(uint64_t max_lba, bool volatile_value);
struct ata_cmd ata_cmd_get_native_max_ext(void);
struct ata_cmd ata_cmd_set_accessible_max_ext(uint64_t max_lba);
struct ata_cmd ata_cmd_freeze_accessible_max_ext(void);
struct ata_cmd ata_cmd_dco_identify(void);

/* The method IDENTIFY data id (512 bytes) offers. */
enum ata_hpa_method ata_hpa_method_of(const uint8_t *id);

/*
 * Reads the state: IDENTIFY, then the native max by the drive's method (READ NATIVE MAX ADDRESS
 * EXT for a drive with neither method: method stays ATA_HPA_NONE), then DCO IDENTIFY where DCO
 * is supported (a drive that aborts it leaves dco_known false with the reason). -EOPNOTSUPP for
 * a drive that is not 48-bit, or has neither method and no native max; -EIO with the drive's
 * answer otherwise.
 */
int ata_hpa_probe(const struct ioctl_ops *ops, int fd, struct ata_hpa_state *st, char *err,
		  size_t errlen);

/*
 * 0 when the drive's accessible max LBA may be set to new_max_lba, else -EPERM (or -EINVAL for
 * a value out of range, -EOPNOTSUPP for a volatile AMAC set or no method) with the reason: a USB
 * bridge (usb), a locked or frozen drive, a DCO limiting the native max, an HPA the caller did
 * not set (current < native; allow_existing for a restore of ssdlab's own change), a new max
 * past the native max.
 */
int ata_hpa_refusal(const struct ata_hpa_state *st, bool usb, uint64_t new_max_lba,
		    bool volatile_value, bool allow_existing, char *why, size_t whylen);

/*
 * Sets the accessible max LBA. HPA: READ NATIVE MAX ADDRESS EXT immediately followed by SET MAX
 * ADDRESS EXT (ACS-2 requires the read right before the set); AMAC: SET ACCESSIBLE MAX ADDRESS
 * EXT (volatile_value must be false: -EOPNOTSUPP). dry: prints each command's line (with its
 * CDB) to dry_out and sends none. -EIO with the drive's answer when it refuses.
 */
int ata_hpa_set(const struct ioctl_ops *ops, int fd, enum ata_hpa_method m, uint64_t max_lba,
		bool volatile_value, bool dry, FILE *dry_out, char *err, size_t errlen);

#endif
