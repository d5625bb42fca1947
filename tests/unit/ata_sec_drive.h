// SPDX-License-Identifier: MIT
/*
 * ata_sec_drive: a scripted SATA drive for the purge tests (host/ioctl_ops.h's SG_IO hook), a
 * small state machine of the ACS-3 SECURITY and SANITIZE feature sets (not a reply table: the
 * answer to a command depends on the ones before it):
 *
 *   security:  disabled --SET PASSWORD--> enabled --ERASE PREPARE, ERASE UNIT--> disabled
 *              enabled --ERASE UNIT that fails (fail_erase)--> enabled + locked
 *              locked --UNLOCK(pw)--> enabled --DISABLE PASSWORD(pw)--> disabled
 *              frozen: SET PASSWORD, ERASE PREPARE/UNIT, DISABLE abort (ACS-3 4.18.11)
 *   sanitize:  idle --BLOCK ERASE/CRYPTO (right key)--> in progress (polls_total STATUS polls)
 *              --> completed ok, or failed (fail_sanitize): STATUS then answers ERR with
 *              reason 1 in LBA 7:0
 *
 * IDENTIFY is ata_script.h's build_identify() with word 128 made from the state and words 89/90
 * from erase_w89/erase_w90. An abort is SAT's answer to an ATA error: sense key ABORTED COMMAND
 * with an ATA Status Return descriptor, status 0x51 (DRDY|DSC|ERR), error 0x04 (ABRT). Every
 * CDB, its SG_IO timeout and the last PIO-out block are kept for the checks. Include after
 * cmocka.h.
 */
#ifndef SSDLAB_TEST_ATA_SEC_DRIVE_H
#define SSDLAB_TEST_ATA_SEC_DRIVE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <scsi/sg.h>

#include "ata_script.h"

#define SD_MAX_CMDS 32

struct sec_drive {
	/* configuration */
	bool frozen, enhanced, fail_erase, fail_sanitize, no_security;
	bool abort_setpw; /* SET PASSWORD aborts though word 128 says supported */
	bool no_sanitize; /* IDENTIFY word 59 without the SANITIZE feature set */
	uint16_t erase_w89, erase_w90;
	unsigned polls_total; /* STATUS polls a sanitize lasts (the last one reports completion) */
	/* state */
	bool enabled, locked, prepared;
	char pw[33];
	int san; /* 0 idle, 1 in progress, 2 completed ok, 3 failed */
	unsigned polls;
	unsigned erased, erased_enhanced, sanitized;
	/* what was sent */
	uint8_t cdb[SD_MAX_CMDS][16];
	unsigned timeout[SD_MAX_CMDS];
	int n;
	uint8_t block[512];
};

static inline int sd_abort(struct sg_io_hdr *h, uint8_t reason)
{
	uint8_t sb[22];
	build_sense(sb, 0x0b, 0x51, 0x04, reason, true);
	memcpy(h->sbp, sb, sizeof sb);
	h->sb_len_wr = sizeof sb;
	h->status = 0x02;
	h->driver_status = 0x08;
	return 0;
}

/* Registers of a CK_COND command that worked: RECOVERED ERROR, ATA PASS-THROUGH INFORMATION
 * AVAILABLE, status 0x50. */
static inline int sd_regs(struct sg_io_hdr *h, uint16_t count, uint64_t lba)
{
	uint8_t sb[22];
	build_sense(sb, 0x01, 0x50, 0x00, lba, true);
	sb[8 + 4] = (uint8_t)(count >> 8), sb[8 + 5] = (uint8_t)count;
	memcpy(h->sbp, sb, sizeof sb);
	h->sb_len_wr = sizeof sb;
	h->status = 0x02;
	h->driver_status = 0x08;
	return 0;
}

static inline bool sd_pw_ok(const struct sec_drive *d)
{
	return !strncmp((const char *)d->block + 2, d->pw, 32);
}

static inline int sec_drive_sg_io(void *ctx, int fd, struct sg_io_hdr *h)
{
	struct sec_drive *d = ctx;
	const uint8_t *c = h->cmdp;
	uint16_t feature = (uint16_t)(c[3] << 8 | c[4]);
	uint64_t lba = (uint64_t)c[11] << 40 | (uint64_t)c[9] << 32 | (uint64_t)c[7] << 24 |
		       (uint64_t)c[12] << 16 | (uint64_t)c[10] << 8 | c[8];

	assert_int_equal(fd, 7);
	assert_int_equal(h->cmd_len, 16);
	assert_true(d->n < SD_MAX_CMDS);
	memcpy(d->cdb[d->n], c, 16);
	d->timeout[d->n++] = h->timeout;
	if (h->dxfer_direction == SG_DXFER_TO_DEV) {
		assert_int_equal(h->dxfer_len, 512);
		memcpy(d->block, h->dxferp, 512);
	}
	switch (c[14]) {
	case 0xec: {
		uint8_t *id = h->dxferp;
		assert_int_equal(h->dxfer_direction, SG_DXFER_FROM_DEV);
		build_identify(id, true);
		if (d->no_sanitize)
			put_w(id, 59, 0);
		put_w(id, 89, d->erase_w89);
		put_w(id, 90, d->erase_w90);
		put_w(id, 128,
		      d->no_security
			  ? 0
			  : (uint16_t)(0x0001 | (d->enabled ? 0x0002 : 0) |
				       (d->locked ? 0x0004 : 0) | (d->frozen ? 0x0008 : 0) |
				       (d->enhanced ? 0x0020 : 0)));
		return 0;
	}
	case 0xf1: /* SET PASSWORD */
		if (d->no_security || d->frozen || d->locked || d->abort_setpw)
			return sd_abort(h, 0);
		memcpy(d->pw, d->block + 2, 32);
		d->pw[32] = 0;
		d->enabled = true;
		return 0;
	case 0xf2: /* UNLOCK */
		if (!d->locked || !sd_pw_ok(d))
			return sd_abort(h, 0);
		d->locked = false;
		return 0;
	case 0xf3: /* ERASE PREPARE */
		if (d->no_security || d->frozen)
			return sd_abort(h, 0);
		d->prepared = true;
		return 0;
	case 0xf4: { /* ERASE UNIT */
		bool prepared = d->prepared;
		d->prepared = false;
		if (!prepared || !d->enabled || !sd_pw_ok(d))
			return sd_abort(h, 0);
		if (d->fail_erase) {
			/* as after a reset mid-erase: the password stays, and it locks at power-on
			 */
			d->locked = true;
			return sd_abort(h, 0);
		}
		d->enabled = d->locked = false;
		d->erased++;
		if (d->block[0] & 0x02)
			d->erased_enhanced++;
		return 0;
	}
	case 0xf6: /* DISABLE PASSWORD */
		if (d->locked || d->frozen || !d->enabled || !sd_pw_ok(d))
			return sd_abort(h, 0);
		d->enabled = false;
		return 0;
	case 0xb4: /* SANITIZE */
		if (d->locked || d->no_sanitize)
			return sd_abort(h, 0);
		if (feature == 0x0000) {
			if (d->san == 3)
				return sd_abort(h, 1);
			if (d->san == 1 && ++d->polls >= d->polls_total) {
				d->san = d->fail_sanitize ? 3 : 2;
				if (d->san == 3)
					return sd_abort(h, 1);
				d->sanitized++;
			}
			if (d->san == 1)
				return sd_regs(h, 0x4000,
					       (uint64_t)(d->polls * 65536u / d->polls_total));
			return sd_regs(h, d->san == 2 ? 0x8000 : 0, 0);
		}
		if ((feature == 0x0012 && lba == 0x426b4572u) ||
		    (feature == 0x0011 && lba == 0x43727970u)) {
			d->san = 1;
			d->polls = 0;
			return 0;
		}
		return sd_abort(h, 2);
	}
	fail_msg("unscripted command 0x%02x", c[14]);
	return -EIO;
}

#endif
