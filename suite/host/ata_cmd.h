/* SPDX-License-Identifier: MIT */
/*
 * ata_cmd: ATA commands sent to a SATA drive as SCSI ATA PASS-THROUGH(16) (SAT, opcode 0x85)
 * through the SG_IO hook of the ioctl table (host/ioctl_ops.h). A command is a small struct
 * (name, ATA fields, protocol, data length); the CDB is built from it in one place, so that
 * `--dry-run` prints exactly the bytes the send path would send.
 *
 * Results: a command that returns registers (non-data with CK_COND) gets them from the ATA
 * Status Return sense descriptor (descriptor format sense 0x72, descriptor code 0x09; SAT-3
 * 12.2.2.6; hdparm sgio.c, reference ftl_smart_hpa.md E). An ATA status with ERR or DF set,
 * or a sense key other than NO SENSE / RECOVERED ERROR, is -EIO with a message.
 */
#ifndef SSDLAB_HOST_ATA_CMD_H
#define SSDLAB_HOST_ATA_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host/ioctl_ops.h"

#define ATA_CMD_CDB_LEN 16
#define ATA_SECTOR 512u

/* ATA opcodes (ACS-3 7.x; reference E's table) and the SMART subcommands (feature field). */
#define ATA_OP_IDENTIFY 0xec
#define ATA_OP_SMART 0xb0
#define ATA_OP_READ_LOG_EXT 0x2f
#define ATA_OP_READ_NATIVE_MAX_EXT 0x27
#define ATA_SMART_READ_DATA 0xd0
#define ATA_SMART_READ_THRESHOLDS 0xd1
#define ATA_SMART_RETURN_STATUS 0xda
/* Every SMART command carries 0x4F in LBA(15:8) and 0xC2 in LBA(23:16) (ACS-3 7.44). */
#define ATA_SMART_LBA 0xc24f00ull
#define ATA_LOG_DEVSTAT 0x04 /* Device Statistics, a GP log (ACS-3 A.5) */

/* SAT PROTOCOL field values (SAT-3 table 136). */
enum ata_proto {
	ATA_PROTO_NONDATA = 3,
	ATA_PROTO_PIO_IN = 4,
	ATA_PROTO_PIO_OUT = 5, /* data to the drive (the SECURITY commands' password block) */
};

struct ata_cmd {
	const char *name; /* "IDENTIFY DEVICE", ... (static string) */
	uint8_t command;
	uint16_t feature;
	uint16_t count;
	uint64_t lba; /* 48 bits */
	uint8_t device;
	enum ata_proto protocol;
	bool ext;	   /* a 48-bit command: the SAT EXTEND bit */
	bool ck_cond;	   /* return the registers in the sense data */
	uint32_t data_len; /* bytes read from (PIO-in) or written to (PIO-out) the drive; 0 for
			    * non-data */
	uint32_t timeout_ms; /* the SG_IO timeout; 0: the default (15 s). A SECURITY ERASE UNIT
			      * takes the drive's own estimate (host/ata_purge.h) */
};

/* The registers a command returned (ATA Status Return descriptor). */
struct ata_regs {
	uint8_t status, error, device;
	uint16_t count;
	uint64_t lba;
	bool ext; /* the descriptor's EXTEND bit: the HOB bytes (count and LBA 47:24) are valid */
};

struct ata_cmd ata_cmd_identify(void);
struct ata_cmd ata_cmd_smart_read_data(void);
struct ata_cmd ata_cmd_smart_read_thresholds(void);
struct ata_cmd ata_cmd_smart_return_status(void);
/* READ LOG EXT of one 512-byte page of GP log `log`. */
struct ata_cmd ata_cmd_read_log_ext(uint8_t log, uint8_t page);
struct ata_cmd ata_cmd_read_native_max_ext(void);

/* The ATA PASS-THROUGH(16) CDB for c (SAT-3 12.2.2; hdparm sgio.c sg16()). */
void ata_cmd_cdb(const struct ata_cmd *c, uint8_t cdb[ATA_CMD_CDB_LEN]);

/* One line naming the command, its ATA fields and its CDB in hex, for --dry-run. Returns
 * what snprintf returns. */
int ata_cmd_describe(const struct ata_cmd *c, char *buf, size_t len);

/*
 * Sends c on fd through ops->sg_io; a PIO-in command reads c->data_len bytes into buf, a PIO-out
 * command sends c->data_len bytes from buf. regs (may be NULL) gets the returned registers; a
 * ck_cond command that returns none is -EIO. Returns 0, -errno from the ioctl, or -EIO (an ATA
 * error, a SCSI error) with a message in err. On an ATA error (ERR or DF) regs gets the
 * registers too: some commands put their error reason there (SANITIZE's in LBA 7:0).
 */
int ata_cmd_send(const struct ioctl_ops *ops, int fd, const struct ata_cmd *c, void *buf,
		 struct ata_regs *regs, char *err, size_t errlen);

/* Parses sense data: 1 and *regs filled when it holds ATA registers (the descriptor 0x09 of
 * descriptor-format sense, or SAT's fixed-format fields: LBA 23:0, and ext set only when the
 * flags say the high bytes are zero), 0 when not;
 * key, asc and ascq get the sense key and codes (0 when absent). */
int ata_sense_parse(const uint8_t *sb, size_t len, struct ata_regs *regs, uint8_t *key, uint8_t *asc,
		    uint8_t *ascq);

#endif
