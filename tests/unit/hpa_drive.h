// SPDX-License-Identifier: MIT
/*
 * hpa_drive: a scripted SATA drive for the HPA/AMAC tests, behind the SG_IO hook of an ioctl
 * table (host/ioctl_ops.h). It keeps a capacity state and answers as ACS-2/ACS-3 say a drive
 * does:
 *   - IDENTIFY: words 100-103 = current max LBA + 1; word 82 bit 10 HPA (unless amac or
 *     no_hpa_bit), word 83
 *     0x4400 (valid, 48-bit) | bit 11 when dco; word 86 bit 15 and word 119 = 0x4100 (AMAC)
 *     when amac; word 106 0x4000 (512-byte sectors); word 128 security bits.
 *   - READ NATIVE MAX ADDRESS EXT (0x27) / GET NATIVE MAX ADDRESS EXT (0x78/0): the native max.
 *   - SET MAX ADDRESS EXT (0x37): aborted unless the command before it was 0x27 (ACS-2
 *     7.51.1), when a DCO or security lock/freeze applies, past the native max, or for a second
 *     non-volatile set in one power cycle (hdparm.8); COUNT bit 0 = VV.
 *   - SET ACCESSIBLE MAX ADDRESS EXT (0x78/1): only when amac; FREEZE (0x78/2) freezes it.
 *   - DEVICE CONFIGURATION IDENTIFY (0xB1/0xC2): words 3-6 = dco_max_lba, word 255 signature
 *     0xA5 and checksum.
 *   - no_passthrough: every command answered ILLEGAL REQUEST / 20h (a bridge without SAT).
 *   - fail_op: one opcode answered with an ATA abort (status 0x51, error 0x04) whatever.
 * Every CDB is kept (cdbs, ncdb). Nothing here uses cmocka: a test binary that is not a cmocka
 * program can use it too.
 */
#ifndef SSDLAB_TEST_HPA_DRIVE_H
#define SSDLAB_TEST_HPA_DRIVE_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <scsi/sg.h>

#define HPA_DRIVE_MAX_CDB 32

struct hpa_drive {
	uint64_t native_max_lba, current_max_lba;
	bool last_volatile; /* how the current max was set */
	bool nv_set_this_cycle;
	bool amac, amac_frozen;
	bool no_hpa_bit; /* IDENTIFY advertises no HPA (QEMU's word 82 = 0x4021) but 0x27 answers */
	bool dco;
	uint64_t dco_max_lba;
	bool frozen, locked;
	uint8_t fail_op;     /* 0: none */
	bool no_passthrough; /* a bridge: fixed sense ILLEGAL REQUEST, INVALID COMMAND OPERATION
				CODE */
	uint8_t last_op;
	uint8_t cdbs[HPA_DRIVE_MAX_CDB][16];
	int ncdb;
};

static inline void hpa_drive_w(uint8_t *p, unsigned w, uint16_t v)
{
	p[2 * w] = (uint8_t)v;
	p[2 * w + 1] = (uint8_t)(v >> 8);
}

static inline void hpa_drive_identify(const struct hpa_drive *d, uint8_t *id)
{
	static const char model[] = "SCRIPTED HPA DRIVE";
	uint64_t n = d->current_max_lba + 1;

	memset(id, 0, 512);
	for (unsigned i = 0; i < 40; i++) /* words 27-46, first character in the high byte */
		id[54 + (i ^ 1)] = (uint8_t)(i < sizeof model - 1 ? model[i] : ' ');
	for (unsigned i = 0; i < 20; i++) /* words 10-19: serial HPA0001 */
		id[20 + (i ^ 1)] = (uint8_t)(i < 7 ? "HPA0001"[i] : ' ');
	hpa_drive_w(id, 80, 0x07f0);
	hpa_drive_w(id, 82, d->amac || d->no_hpa_bit ? 0x0000 : 0x0400);
	hpa_drive_w(id, 83, (uint16_t)(0x4400 | (d->dco ? 0x0800 : 0)));
	hpa_drive_w(id, 84, 0x4000);
	hpa_drive_w(id, 85, d->amac ? 0x0000 : 0x0400);
	hpa_drive_w(id, 86, d->amac ? 0x8000 : 0x0000);
	hpa_drive_w(id, 119, d->amac ? 0x4100 : 0x4000);
	hpa_drive_w(id, 100, (uint16_t)n);
	hpa_drive_w(id, 101, (uint16_t)(n >> 16));
	hpa_drive_w(id, 102, (uint16_t)(n >> 32));
	hpa_drive_w(id, 106, 0x4000);
	hpa_drive_w(id, 128,
		    (uint16_t)(0x0001 | (d->locked ? 0x0006 : 0) | (d->frozen ? 0x0008 : 0)));
}

/* Descriptor sense with an ATA Status Return descriptor (SAT-3 12.2.2.6). */
static inline void hpa_drive_sense(struct sg_io_hdr *h, uint8_t status, uint8_t error, uint64_t lba)
{
	uint8_t *sb = h->sbp, *d = sb + 8;

	memset(sb, 0, 22);
	sb[0] = 0x72;
	sb[1] = error ? 0x0b : 0x01; /* ABORTED COMMAND, or RECOVERED ERROR with 00h/1Dh */
	sb[3] = error ? 0x00 : 0x1d;
	sb[7] = 14;
	d[0] = 0x09, d[1] = 0x0c, d[2] = 1, d[3] = error;
	d[6] = (uint8_t)(lba >> 24), d[7] = (uint8_t)lba;
	d[8] = (uint8_t)(lba >> 32), d[9] = (uint8_t)(lba >> 8);
	d[10] = (uint8_t)(lba >> 40), d[11] = (uint8_t)(lba >> 16);
	d[12] = 0x40, d[13] = status;
	h->sb_len_wr = 22;
	h->status = 0x02;
	h->driver_status = 0x08;
}

static inline int hpa_drive_sg_io(void *ctx, int fd, struct sg_io_hdr *h)
{
	struct hpa_drive *d = ctx;
	const uint8_t *c = h->cmdp;
	uint8_t op = c[14], prev = d->last_op;
	uint16_t feature = (uint16_t)(c[3] << 8 | c[4]);
	uint64_t lba = (uint64_t)c[11] << 40 | (uint64_t)c[9] << 32 | (uint64_t)c[7] << 24 |
		       (uint64_t)c[12] << 16 | (uint64_t)c[10] << 8 | c[8];
	bool blocked = d->locked || d->frozen;

	(void)fd;
	if (h->interface_id != 'S' || h->cmd_len != 16 || c[0] != 0x85)
		return -EINVAL;
	if (d->ncdb < HPA_DRIVE_MAX_CDB)
		memcpy(d->cdbs[d->ncdb++], c, 16);
	d->last_op = op;
	if (d->no_passthrough) {
		uint8_t *sb = h->sbp;
		memset(sb, 0, 18);
		sb[0] = 0x70, sb[2] = 0x05, sb[7] = 10, sb[12] = 0x20;
		h->sb_len_wr = 18;
		h->status = 0x02;
		return 0;
	}
	if (op == d->fail_op)
		goto abort;
	switch (op) {
	case 0xec:
		if (h->dxfer_len != 512)
			return -EINVAL;
		hpa_drive_identify(d, h->dxferp);
		return 0;
	case 0x27:
		if (d->amac)
			goto abort; /* ACS-3 drives without HPA abort it */
		hpa_drive_sense(h, 0x50, 0, d->native_max_lba);
		return 0;
	case 0x37:
		/* ACS-2 7.51: the read right before, no DCO/security block, one non-volatile set a
		 * power cycle */
		if (d->amac || prev != 0x27 || blocked || lba > d->native_max_lba ||
		    (!(c[6] & 1) ? false : d->nv_set_this_cycle))
			goto abort;
		d->current_max_lba = lba;
		d->last_volatile = !(c[6] & 1);
		if (c[6] & 1)
			d->nv_set_this_cycle = true;
		hpa_drive_sense(h, 0x50, 0, 0);
		return 0;
	case 0x78:
		if (!d->amac)
			goto abort;
		if (feature == 0x0000) {
			hpa_drive_sense(h, 0x50, 0, d->native_max_lba);
			return 0;
		}
		if (feature == 0x0001) {
			if (d->amac_frozen || blocked || lba > d->native_max_lba)
				goto abort;
			d->current_max_lba = lba;
			d->last_volatile = false;
			hpa_drive_sense(h, 0x50, 0, 0);
			return 0;
		}
		if (feature == 0x0002) {
			d->amac_frozen = true;
			hpa_drive_sense(h, 0x50, 0, 0);
			return 0;
		}
		goto abort;
	case 0xb1:
		if (!d->dco || feature != 0xc2 || h->dxfer_len != 512)
			goto abort;
		{
			uint8_t *p = h->dxferp, sum = 0;
			memset(p, 0, 512);
			hpa_drive_w(p, 0, 0x0002);
			for (unsigned w = 0; w < 4; w++)
				hpa_drive_w(p, 3 + w, (uint16_t)(d->dco_max_lba >> (16 * w)));
			p[510] = 0xa5;
			for (unsigned i = 0; i < 511; i++)
				sum = (uint8_t)(sum + p[i]);
			p[511] = (uint8_t)(0x100 - sum);
		}
		return 0;
	default:
		goto abort;
	}
abort:
	hpa_drive_sense(h, 0x51, 0x04, 0);
	return 0;
}

#endif
