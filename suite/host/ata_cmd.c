// SPDX-License-Identifier: MIT
/*
 * ata_cmd: ATA PASS-THROUGH(16) through the ioctl table's SG_IO hook (see ata_cmd.h).
 */
#include "host/ata_cmd.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define SENSE_LEN 32
#define TIMEOUT_MS 15000u /* SMART READ may spin a disk up; drives answer in well under this */

/* ATA status bits (ACS-3 6.2): ERR 0, DF 5. Error register bit 2 ABRT. */
#define ATA_STAT_ERR 0x01
#define ATA_STAT_DF 0x20
#define ATA_ERR_ABRT 0x04

/* SCSI status CHECK CONDITION (SAM-5): how SAT hands back the registers of a CK_COND command. */
#define SCSI_CHECK_CONDITION 0x02

_Static_assert(ATA_CMD_CDB_LEN == 16, "ATA PASS-THROUGH(16) has 16 CDB bytes");

static struct ata_cmd pio_in(const char *name, uint8_t command, uint16_t feature, uint64_t lba,
			     uint8_t device, bool ext)
{
	return (struct ata_cmd){.name = name,
				.command = command,
				.feature = feature,
				.count = 1,
				.lba = lba,
				.device = device,
				.protocol = ATA_PROTO_PIO_IN,
				.ext = ext,
				.data_len = ATA_SECTOR};
}

struct ata_cmd ata_cmd_identify(void)
{
	return pio_in("IDENTIFY DEVICE", ATA_OP_IDENTIFY, 0, 0, 0, false);
}

struct ata_cmd ata_cmd_smart_read_data(void)
{
	return pio_in("SMART READ DATA", ATA_OP_SMART, ATA_SMART_READ_DATA, ATA_SMART_LBA, 0, false);
}

struct ata_cmd ata_cmd_smart_read_thresholds(void)
{
	return pio_in("SMART READ THRESHOLDS", ATA_OP_SMART, ATA_SMART_READ_THRESHOLDS, ATA_SMART_LBA, 0,
		      false);
}

struct ata_cmd ata_cmd_smart_return_status(void)
{
	return (struct ata_cmd){.name = "SMART RETURN STATUS",
				.command = ATA_OP_SMART,
				.feature = ATA_SMART_RETURN_STATUS,
				.lba = ATA_SMART_LBA,
				.protocol = ATA_PROTO_NONDATA,
				.ck_cond = true};
}

/* The log address goes in LBA(7:0) and the page number in LBA(15:8) (ACS-3 7.24.3). */
struct ata_cmd ata_cmd_read_log_ext(uint8_t log, uint8_t page)
{
	return pio_in("READ LOG EXT", ATA_OP_READ_LOG_EXT, 0, (uint64_t)page << 8 | log, 0, true);
}

/* Device 0x40 (the LBA bit) as hdparm sends it: without it an emulated drive (QEMU) answers
 * in CHS (reference E, "How hdparm -N works"). */
struct ata_cmd ata_cmd_read_native_max_ext(void)
{
	return (struct ata_cmd){.name = "READ NATIVE MAX ADDRESS EXT",
				.command = ATA_OP_READ_NATIVE_MAX_EXT,
				.device = 0x40,
				.protocol = ATA_PROTO_NONDATA,
				.ext = true,
				.ck_cond = true};
}

void ata_cmd_cdb(const struct ata_cmd *c, uint8_t cdb[ATA_CMD_CDB_LEN])
{
	memset(cdb, 0, ATA_CMD_CDB_LEN);
	cdb[0] = 0x85;
	cdb[1] = (uint8_t)(c->protocol << 1 | (c->ext ? 1 : 0));
	/* byte 2: CK_COND (bit 5); for data: T_DIR from the device (bit 3), BYT_BLOK (bit 2,
	 * the length in 512-byte blocks), T_LENGTH = 2 (the length is in the COUNT field). */
	cdb[2] = (uint8_t)((c->ck_cond ? 0x20 : 0) |
			   (c->data_len ? (c->protocol == ATA_PROTO_PIO_OUT ? 0 : 0x08) | 0x04 | 0x02 : 0));
	cdb[3] = (uint8_t)(c->feature >> 8);
	cdb[4] = (uint8_t)c->feature;
	cdb[5] = (uint8_t)(c->count >> 8);
	cdb[6] = (uint8_t)c->count;
	cdb[7] = (uint8_t)(c->lba >> 24);
	cdb[8] = (uint8_t)c->lba;
	cdb[9] = (uint8_t)(c->lba >> 32);
	cdb[10] = (uint8_t)(c->lba >> 8);
	cdb[11] = (uint8_t)(c->lba >> 40);
	cdb[12] = (uint8_t)(c->lba >> 16);
	cdb[13] = c->device;
	cdb[14] = c->command;
}

int ata_cmd_describe(const struct ata_cmd *c, char *buf, size_t len)
{
	uint8_t cdb[ATA_CMD_CDB_LEN];
	char hex[3 * ATA_CMD_CDB_LEN + 1];

	ata_cmd_cdb(c, cdb);
	for (int i = 0; i < ATA_CMD_CDB_LEN; i++)
		snprintf(hex + 3 * i, sizeof hex - 3 * (size_t)i, "%02x%s", cdb[i],
			 i + 1 < ATA_CMD_CDB_LEN ? " " : "");
	return snprintf(buf, len,
			"%s: command 0x%02x feature 0x%04x count 0x%04x lba 0x%012llx device 0x%02x "
			"protocol %s%s, %u bytes %s; CDB %s",
			c->name, c->command, c->feature, c->count, (unsigned long long)c->lba, c->device,
			c->protocol == ATA_PROTO_PIO_IN	   ? "PIO-in"
			: c->protocol == ATA_PROTO_PIO_OUT ? "PIO-out"
							   : "non-data",
			c->ext ? " 48-bit" : "", c->data_len,
			c->protocol == ATA_PROTO_PIO_OUT ? "out" : "in", hex);
}

int ata_sense_parse(const uint8_t *sb, size_t len, struct ata_regs *regs, uint8_t *key, uint8_t *asc,
		    uint8_t *ascq)
{
	*key = *asc = *ascq = 0;
	if (len < 8)
		return 0;
	uint8_t code = sb[0] & 0x7f;
	if (code == 0x72 || code == 0x73) {
		/* descriptor format (SPC-4 4.5.2): descriptors from byte 8, sb[7] bytes of them */
		*key = sb[1] & 0x0f, *asc = sb[2], *ascq = sb[3];
		size_t end = 8 + (size_t)sb[7];
		if (end > len)
			end = len;
		for (size_t off = 8; off + 2 <= end; off += 2 + (size_t)sb[off + 1]) {
			const uint8_t *d = sb + off;
			if (d[0] != 0x09 || off + 14 > end)
				continue;
			/* ATA Status Return (SAT-3 12.2.2.6): 2 EXTEND, 3 error, 4/5 count 15:8/7:0,
			 * 6/7 LBA 31:24/7:0, 8/9 LBA 39:32/15:8, 10/11 LBA 47:40/23:16, 12 device,
			 * 13 status. */
			regs->ext = d[2] & 1;
			regs->error = d[3];
			regs->count = (uint16_t)(d[4] << 8 | d[5]);
			regs->lba = (uint64_t)d[10] << 40 | (uint64_t)d[8] << 32 | (uint64_t)d[6] << 24 |
				    (uint64_t)d[11] << 16 | (uint64_t)d[9] << 8 | d[7];
			regs->device = d[12];
			regs->status = d[13];
			return 1;
		}
		return 0;
	}
	if (code == 0x70 || code == 0x71) {
		/* fixed format (SPC-4 4.5.3) */
		*key = sb[2] & 0x0f;
		if (len >= 14)
			*asc = sb[12], *ascq = sb[13];
		/* SAT-3 12.2.2.7: with ASC/ASCQ 00h/1Dh (ATA PASS-THROUGH INFORMATION AVAILABLE) or
		 * an ATA error, INFORMATION holds error, status, device, count(7:0) and
		 * COMMAND-SPECIFIC INFORMATION bit 7 EXTEND then LBA 7:0, 15:8, 23:16. */
		if (len < 12)
			return 0;
		regs->error = sb[3];
		regs->status = sb[4];
		regs->device = sb[5];
		regs->count = sb[6];
		/* The high bytes are not in fixed format, but with EXTEND set and COUNT UPPER NONZERO
		 * and LBA UPPER NONZERO clear they are known to be zero: the values are complete.
		 * (Kernels that honour D_SENSE=0 for CK_COND answer this way, not in descriptors.) */
		regs->ext = (sb[8] & 0x80) && !(sb[8] & 0x60);
		regs->lba = (uint64_t)sb[11] << 16 | (uint64_t)sb[10] << 8 | sb[9];
		return 1;
	}
	return 0;
}

int ata_cmd_send(const struct ioctl_ops *ops, int fd, const struct ata_cmd *c, void *buf,
		 struct ata_regs *regs, char *err, size_t errlen)
{
	uint8_t cdb[ATA_CMD_CDB_LEN], sense[SENSE_LEN], key, asc, ascq;
	struct sg_io_hdr h;
	struct ata_regs r;
	int ret, have;

	ata_cmd_cdb(c, cdb);
	memset(sense, 0, sizeof sense);
	memset(&h, 0, sizeof h);
	memset(&r, 0, sizeof r);
	h.interface_id = 'S';
	h.cmd_len = ATA_CMD_CDB_LEN;
	h.cmdp = cdb;
	h.mx_sb_len = sizeof sense;
	h.sbp = sense;
	h.timeout = c->timeout_ms ? c->timeout_ms : TIMEOUT_MS;
	h.dxfer_direction = !c->data_len			 ? SG_DXFER_NONE
			    : c->protocol == ATA_PROTO_PIO_OUT ? SG_DXFER_TO_DEV
								 : SG_DXFER_FROM_DEV;
	h.dxfer_len = c->data_len;
	h.dxferp = c->data_len ? buf : NULL;
	ret = ops->sg_io(ops->ctx, fd, &h);
	if (ret) {
		snprintf(err, errlen, "%s: SG_IO: %s", c->name, strerror(-ret));
		return ret;
	}
	if (h.host_status) {
		snprintf(err, errlen, "%s: SG_IO host status 0x%x (the transport failed)", c->name,
			 h.host_status);
		return -EIO;
	}
	have = ata_sense_parse(sense, h.sb_len_wr < sizeof sense ? h.sb_len_wr : sizeof sense, &r, &key,
			       &asc, &ascq);
	if (have && (r.status & (ATA_STAT_ERR | ATA_STAT_DF))) {
		snprintf(err, errlen, "%s: ATA error: status 0x%02x, error 0x%02x%s%s", c->name, r.status,
			 r.error, r.error & ATA_ERR_ABRT ? " (command aborted: the drive does not support it"
							   " or refused it)" : "",
			 r.status & ATA_STAT_DF ? " (device fault)" : "");
		if (regs)
			*regs = r;
		return -EIO;
	}
	/* NO SENSE and RECOVERED ERROR (SAT's "ATA pass-through information available") carry the
	 * registers of a command that worked; any other key is a failure. */
	if (key > 1) {
		snprintf(err, errlen, "%s: SCSI sense key 0x%x, ASC 0x%02x, ASCQ 0x%02x", c->name, key, asc,
			 ascq);
		return -EIO;
	}
	if (h.status && h.status != SCSI_CHECK_CONDITION) {
		snprintf(err, errlen, "%s: SCSI status 0x%02x", c->name, h.status);
		return -EIO;
	}
	if (c->ck_cond && !have) {
		snprintf(err, errlen, "%s: the drive returned no ATA registers (no ATA Status Return "
				      "descriptor in the sense data)", c->name);
		return -EIO;
	}
	if (c->data_len && h.resid > 0) {
		snprintf(err, errlen, "%s: %d of %u bytes not transferred", c->name, h.resid, c->data_len);
		return -EIO;
	}
	if (regs)
		*regs = r;
	return 0;
}
