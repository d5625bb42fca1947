/* SPDX-License-Identifier: MIT */
/*
 * ata_purge: the ATA commands that return a SATA drive to fresh-out-of-box (issue 13 point 4),
 * sent as ATA PASS-THROUGH(16) through the ioctl table (host/ata_cmd.h):
 *   SANITIZE DEVICE (0xB4): BLOCK ERASE EXT, CRYPTO SCRAMBLE EXT, OVERWRITE EXT, each with its
 *     key in the LBA field, then SANITIZE STATUS EXT polled until the drive reports completion
 *     (or failure, with its reason);
 *   the SECURITY feature set: SET PASSWORD (0xF1), UNLOCK (0xF2), ERASE PREPARE (0xF3), ERASE
 *     UNIT (0xF4, enhanced where IDENTIFY word 128 bit 5 says) and DISABLE PASSWORD (0xF6),
 *     each with its 512-byte password block (PIO-out).
 * Word, bit and field numbers are ACS-3's (T13/2161-D 7.36 SANITIZE, 7.45-7.50 SECURITY, 7.12.7
 * IDENTIFY); the keys and block layouts are also hdparm's (reference ftl_smart_hpa.md E).
 *
 * A security erase SETS something first (the user password): the caller journals that as the
 * devchange kind `security` (targets/devchange_security.c) before ata_security_set_password(),
 * since a failed or interrupted erase leaves the drive locked with it. This module only sends
 * commands; it keeps no state.
 */
#ifndef SSDLAB_HOST_ATA_PURGE_H
#define SSDLAB_HOST_ATA_PURGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host/ata_cmd.h"
#include "host/ata_identify.h"
#include "host/ioctl_ops.h"

#define ATA_OP_SANITIZE 0xb4
#define ATA_OP_SEC_SET_PASSWORD 0xf1
#define ATA_OP_SEC_UNLOCK 0xf2
#define ATA_OP_SEC_ERASE_PREPARE 0xf3
#define ATA_OP_SEC_ERASE_UNIT 0xf4
#define ATA_OP_SEC_DISABLE_PASSWORD 0xf6

/* SANITIZE DEVICE feature codes and the keys they carry in LBA 31:0 (ACS-3 7.36.2-7.36.6). */
#define ATA_SANITIZE_STATUS_EXT 0x0000
#define ATA_SANITIZE_CRYPTO_EXT 0x0011
#define ATA_SANITIZE_BLOCK_EXT 0x0012
#define ATA_SANITIZE_OVERWRITE_EXT 0x0014
#define ATA_SANITIZE_KEY_CRYPTO 0x43727970u /* "Cryp" */
#define ATA_SANITIZE_KEY_BLOCK 0x426b4572u  /* "BkEr" */
#define ATA_SANITIZE_KEY_OVERWRITE 0x4f57u  /* "OW", in LBA 47:32; the pattern in 31:0 */

/* The user password ssdlab sets for a SECURITY ERASE: fixed and known, so that `ssdlab restore`
 * can always unlock a drive a failed erase left locked (and it is in the journal too). */
#define ATA_PURGE_PASSWORD "ssdlab-purge"
#define ATA_PASSWORD_LEN 32

/* What IDENTIFY says about a drive's purge commands. */
struct ata_purge_caps {
	bool sanitize, sanitize_block, sanitize_crypto, sanitize_overwrite; /* word 59 */
	bool security;		     /* word 128 bit 0: the SECURITY feature set */
	bool security_enabled;	     /* bit 1: a user password is set */
	bool security_locked;	     /* bit 2 */
	bool security_frozen;	     /* bit 3: SECURITY commands abort until a power cycle */
	bool security_count_expired; /* bit 4: too many failed unlocks; a power cycle resets it */
	bool enhanced_erase;	     /* bit 5 */
	unsigned erase_minutes;	     /* word 89: the drive's estimate, 0 when it gives none */
	unsigned enhanced_erase_minutes; /* word 90 */
	uint64_t bytes;			 /* user capacity (the fallback timeout scales with it) */
};

/* Decodes the purge capabilities from 512 bytes of IDENTIFY DEVICE data. */
void ata_purge_caps_decode(const uint8_t id[ATA_IDENTIFY_LEN], struct ata_purge_caps *out);

/*
 * The SG_IO timeout of SECURITY ERASE UNIT (ms): twice the drive's estimate (word 89, or 90
 * for enhanced) plus 30 minutes, since a drive that overruns the timeout gets a reset that can
 * leave it locked; without an estimate hdparm's fallback (1 s per 30 MB, plus 30 minutes).
 * Capped at UINT32_MAX ms (49 days).
 */
uint32_t ata_security_erase_timeout_ms(const struct ata_purge_caps *c, bool enhanced);

enum ata_purge_op {
	ATA_PURGE_SANITIZE_BLOCK,
	ATA_PURGE_SANITIZE_CRYPTO,
	ATA_PURGE_SANITIZE_OVERWRITE,
	ATA_PURGE_SECURITY_ERASE,
};

/*
 * Whether op may be sent to this drive: 0, or -errno with the reason (and the remedy) in why:
 * -EOPNOTSUPP when the drive lacks it or sits behind a USB bridge (link "usb": bridges drop or
 * mangle pass-through, and a security erase through one can leave the drive locked where it
 * cannot be unlocked); -EPERM for a frozen drive (the remedy: a suspend/resume or a hot-plug
 * of the SATA cable, since the BIOS freezes drives at boot); -EACCES for a drive already
 * locked or with a password set that ssdlab does not know.
 */
int ata_purge_check(const struct ata_purge_caps *c, const char *link, enum ata_purge_op op,
		    char *why, size_t len);

/* The commands (built in one place so that --dry-run prints what is sent). */
struct ata_cmd ata_cmd_sanitize(enum ata_purge_op op);
struct ata_cmd ata_cmd_sanitize_status(bool clear_failure);
/* A SECURITY command: op one of ATA_OP_SEC_*; PIO-out of one block, except ERASE PREPARE. */
struct ata_cmd ata_cmd_security(uint8_t op);

/* The 512-byte block of SET PASSWORD, UNLOCK, ERASE UNIT and DISABLE PASSWORD: word 0 bit 0
 * the identifier (0: the user password), bit 1 enhanced (ERASE UNIT only); words 1-16 the
 * password, zero-padded (ACS-3 tables 7.45-7.50). A password longer than 32 bytes is cut. */
void ata_security_block(uint8_t blk[ATA_SECTOR], const char *password, bool enhanced);

/* What SANITIZE STATUS EXT returned (ACS-3 7.36.7, table 140). */
struct ata_sanitize_status {
	bool completed_ok; /* count bit 15: the last sanitize completed without error */
	bool in_progress;  /* count bit 14 */
	bool frozen;	   /* count bit 13: SANITIZE FREEZE LOCK in effect */
	bool failed;	   /* the drive answered with ERR: the last sanitize failed */
	uint8_t reason;	   /* then: LBA 7:0, 1 = sanitize command unsuccessful, ... */
	uint16_t progress; /* LBA 15:0, in 65536ths */
};

/* Sends SANITIZE STATUS EXT; a failed sanitize is 0 with st->failed (not an error here). */
int ata_sanitize_status_read(const struct ioctl_ops *ops, int fd, bool clear_failure,
			     struct ata_sanitize_status *st, char *err, size_t errlen);

/* How to wait between polls (the caller's clock: tests pass one that does not sleep). */
struct ata_poll {
	uint64_t interval_ns;			      /* 0: 1 s */
	void (*wait)(void *ctx, uint64_t ns);	      /* NULL: nanosleep */
	void (*progress)(void *ctx, double fraction); /* may be NULL */
	/* may be NULL; true stops the polling (SIGINT): the sanitize goes on in the drive, which
	 * finishes it even across a power cycle (ACS-3 4.18.4) */
	bool (*stop)(void *ctx);
	void *ctx;
};

/*
 * Starts sanitize op (one of the SANITIZE ones) and polls SANITIZE STATUS EXT until the drive
 * reports it complete. Returns 0, or -EIO with the drive's answer (the start refused, or the
 * sanitize failed, with the reason; the drive then stays in the sanitize failed state, which
 * only a successful sanitize or one with the failure cleared ends), -EINTR when poll->stop said
 * so (the drive carries on), or -errno from SG_IO.
 */
int ata_sanitize_run(const struct ioctl_ops *ops, int fd, enum ata_purge_op op,
		     const struct ata_poll *poll, char *err, size_t errlen); /* poll NULL: 1 s */

/* The SECURITY commands, each with its block; password NULL means ATA_PURGE_PASSWORD.
 * ata_security_erase_unit sends ERASE PREPARE then ERASE UNIT (ACS-3 requires them
 * back to back) with timeout_ms. 0 or -errno with the drive's answer. */
int ata_security_set_password(const struct ioctl_ops *ops, int fd, const char *password, char *err,
			      size_t errlen);
int ata_security_erase_unit(const struct ioctl_ops *ops, int fd, const char *password,
			    bool enhanced, uint32_t timeout_ms, char *err, size_t errlen);
int ata_security_unlock(const struct ioctl_ops *ops, int fd, const char *password, char *err,
			size_t errlen);
int ata_security_disable_password(const struct ioctl_ops *ops, int fd, const char *password,
				  char *err, size_t errlen);

#endif
