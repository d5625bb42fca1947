// SPDX-License-Identifier: MIT
/*
 * ata_script: a scripted SG_IO table for the unit tests (host/ioctl_ops.h), and the hand-built
 * pages they answer with: the replies are matched by ATA command, feature and READ LOG EXT page;
 * every CDB sent is kept for the checks (the fd must be 7). build_identify() is a SATA SSD
 * described word by word (test_ata_cmd.c's header works its values out); build_sense() an ATA
 * Status Return descriptor. Include after cmocka.h.
 */
#ifndef SSDLAB_TEST_ATA_SCRIPT_H
#define SSDLAB_TEST_ATA_SCRIPT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <scsi/sg.h>

#include "host/ata_cmd.h"
#include "host/ioctl_ops.h"

#define MAX_SEEN 16

struct reply {
	uint8_t command, feature;
	int page;		/* READ LOG EXT page (cdb[10]); -1 any */
	const uint8_t *data;	/* 512 bytes copied to the buffer, or NULL */
	const uint8_t *sense;	/* written to the sense buffer, or NULL */
	size_t sense_len;
	int ret;		/* what sg_io returns */
};

struct script {
	const struct reply *r;
	size_t n;
	uint8_t seen[MAX_SEEN][16];
	int calls;
};

static inline int scripted_sg_io(void *ctx, int fd, struct sg_io_hdr *h)
{
	struct script *s = ctx;
	const uint8_t *cdb = h->cmdp;

	assert_int_equal(fd, 7);
	assert_int_equal(h->interface_id, 'S');
	assert_int_equal(h->cmd_len, 16);
	assert_true(s->calls < MAX_SEEN);
	memcpy(s->seen[s->calls++], cdb, 16);
	for (size_t i = 0; i < s->n; i++) {
		const struct reply *r = &s->r[i];
		if (r->command != cdb[14] || r->feature != cdb[4] || (r->page >= 0 && r->page != cdb[10]))
			continue;
		if (r->ret)
			return r->ret;
		if (r->data) {
			assert_int_equal(h->dxfer_direction, SG_DXFER_FROM_DEV);
			assert_int_equal(h->dxfer_len, 512);
			memcpy(h->dxferp, r->data, 512);
		}
		if (r->sense) {
			assert_true(r->sense_len <= h->mx_sb_len);
			memcpy(h->sbp, r->sense, r->sense_len);
			h->sb_len_wr = (unsigned char)r->sense_len;
			h->status = 0x02; /* CHECK CONDITION */
			h->driver_status = 0x08;
		}
		return 0;
	}
	fail_msg("unscripted command 0x%02x feature 0x%02x", cdb[14], cdb[4]);
	return -EIO;
}

static inline void put_w(uint8_t *id, unsigned w, uint16_t v)
{
	id[2 * w] = (uint8_t)v;
	id[2 * w + 1] = (uint8_t)(v >> 8);
}

/* ATA string: first character in the high byte of each word. */
static inline void put_s(uint8_t *id, unsigned w, unsigned nwords, const char *str)
{
	size_t len = strlen(str);
	for (unsigned i = 0; i < 2 * nwords; i++) {
		char c = i < len ? str[i] : ' ';
		id[2 * w + (i ^ 1)] = (uint8_t)c;
	}
}

#define ATA_SCRIPT_MODEL "HANDMADE SSD MODEL NAME LONGER THAN 16"

static inline void build_identify(uint8_t *id, bool gpl)
{
	memset(id, 0, 512);
	put_s(id, 10, 10, "SER123");
	put_s(id, 23, 4, "FW01");
	put_s(id, 27, 20, ATA_SCRIPT_MODEL);
	put_w(id, 59, 0xb000);		/* sanitize, crypto scramble, block erase; no overwrite */
	put_w(id, 60, 0xffff);		/* 28-bit max: ignored for a 48-bit drive */
	put_w(id, 61, 0x0fff);
	put_w(id, 69, 0x4020);		/* deterministic read after TRIM, reads zeroes */
	put_w(id, 76, 0x0300);		/* HIPM (bit 9), NCQ (bit 8) */
	put_w(id, 78, 0x0108);		/* DEVSLP and DIPM supported */
	put_w(id, 79, 0x0008);		/* DIPM enabled, DEVSLP not */
	put_w(id, 80, 0x07f0);		/* ATA/ATAPI-4 .. ACS-3: highest bit 10 */
	put_w(id, 82, 0x0423);		/* SMART, security, write cache, HPA */
	put_w(id, 83, 0x4400);		/* valid, 48-bit */
	put_w(id, 84, gpl ? 0x4020 : 0x4000);
	put_w(id, 85, 0x0401);		/* SMART and HPA enabled, write cache disabled */
	put_w(id, 100, 0x4240);		/* 1,000,000 = 0x000F4240 */
	put_w(id, 101, 0x000f);
	put_w(id, 106, 0x6003);
	put_w(id, 128, 0x0009);		/* security supported, frozen */
	put_w(id, 169, 0x0001);		/* TRIM */
}

/* Descriptor-format sense with an ATA Status Return descriptor (SAT-3 12.2.2.6). */
static inline void build_sense(uint8_t sb[22], uint8_t key, uint8_t status, uint8_t error, uint64_t lba, bool ext)
{
	memset(sb, 0, 22);
	sb[0] = 0x72;
	sb[1] = key;
	sb[3] = key == 0x01 ? 0x1d : 0x00; /* ATA PASS-THROUGH INFORMATION AVAILABLE */
	sb[7] = 14;
	uint8_t *d = sb + 8;
	d[0] = 0x09;
	d[1] = 0x0c;
	d[2] = ext ? 1 : 0;
	d[3] = error;
	d[6] = (uint8_t)(lba >> 24), d[7] = (uint8_t)lba;
	d[8] = (uint8_t)(lba >> 32), d[9] = (uint8_t)(lba >> 8);
	d[10] = (uint8_t)(lba >> 40), d[11] = (uint8_t)(lba >> 16);
	d[12] = 0x40;
	d[13] = status;
}

#endif
