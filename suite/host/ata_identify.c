// SPDX-License-Identifier: MIT
/*
 * ata_identify: IDENTIFY DEVICE decode and the HPA read (see ata_identify.h).
 */
#include "host/ata_identify.h"

#include <stdio.h>
#include <string.h>

#include "host/ata_cmd.h"

static uint16_t word(const uint8_t *id, unsigned w)
{
	return (uint16_t)(id[2 * w] | id[2 * w + 1] << 8);
}

static bool bit(const uint8_t *id, unsigned w, unsigned b)
{
	return (word(id, w) >> b) & 1;
}

/* Words 83, 84, 87 and 106 are valid only when bits 15:14 are 01b (ACS-3 7.12.7). */
static bool valid_0_1(const uint8_t *id, unsigned w)
{
	return (word(id, w) & 0xc000) == 0x4000;
}

void ata_identify_string(const uint8_t *id, unsigned w0, unsigned nwords, char *dst)
{
	size_t n = 0;

	for (unsigned w = w0; w < w0 + nwords; w++) {
		dst[n++] = (char)id[2 * w + 1];
		dst[n++] = (char)id[2 * w];
	}
	dst[n] = '\0';
	while (n > 0 && (dst[n - 1] == ' ' || dst[n - 1] == '\0'))
		dst[--n] = '\0';
	size_t lead = strspn(dst, " ");
	memmove(dst, dst + lead, n - lead + 1);
}

/* Word 80, major version number: bit 4 ATA/ATAPI-4 ... bit 8 ATA8-ACS, 9 ACS-2, 10 ACS-3,
 * 11 ACS-4 (ACS-4 table 45). 0000h and FFFFh: not reported. */
static const char *major_name(int v)
{
	static const char *const names[] = {
	    [4] = "ATA/ATAPI-4", [5] = "ATA/ATAPI-5", [6] = "ATA/ATAPI-6", [7] = "ATA/ATAPI-7",
	    [8] = "ATA8-ACS",	 [9] = "ACS-2",	      [10] = "ACS-3",	    [11] = "ACS-4",
	    [12] = "ACS-5",
	};
	if (v < 0 || v >= (int)(sizeof names / sizeof names[0]) || !names[v])
		return "unknown";
	return names[v];
}

void ata_identify_decode(const uint8_t id[ATA_IDENTIFY_LEN], struct ata_identity *out)
{
	struct ata_identity d;
	uint16_t w80 = word(id, 80), w106 = word(id, 106);

	memset(&d, 0, sizeof d);
	ata_identify_string(id, 10, 10, d.serial);
	ata_identify_string(id, 23, 4, d.firmware);
	ata_identify_string(id, 27, 20, d.model);
	d.major_version = -1;
	if (w80 != 0 && w80 != 0xffff)
		for (int b = 14; b >= 1; b--)
			if (w80 >> b & 1) {
				d.major_version = b;
				break;
			}
	d.major_name = major_name(d.major_version);
	d.lba48 = valid_0_1(id, 83) && bit(id, 83, 10);
	/* Word 106: bit 12 the logical sector is longer than 256 words (its size in words
	 * 117-118), bit 13 several logical sectors per physical one, 2^(bits 3:0) of them. */
	d.logical_sector = ATA_SECTOR;
	d.physical_sector = ATA_SECTOR;
	if (valid_0_1(id, 106)) {
		if (w106 >> 12 & 1)
			d.logical_sector = 2u * ((uint32_t)word(id, 117) | (uint32_t)word(id, 118) << 16);
		d.physical_sector = d.logical_sector;
		if (w106 >> 13 & 1)
			d.physical_sector = d.logical_sector << (w106 & 0xf);
	}
	if (d.lba48)
		d.user_sectors = (uint64_t)word(id, 100) | (uint64_t)word(id, 101) << 16 |
				 (uint64_t)word(id, 102) << 32 | (uint64_t)word(id, 103) << 48;
	else
		d.user_sectors = (uint64_t)word(id, 60) | (uint64_t)word(id, 61) << 16;
	d.smart_supported = bit(id, 82, 0);
	d.smart_enabled = bit(id, 85, 0);
	d.write_cache_supported = bit(id, 82, 5);
	d.write_cache_enabled = bit(id, 85, 5);
	d.hpa_supported = bit(id, 82, 10);
	d.hpa_enabled = bit(id, 85, 10);
	d.gpl = valid_0_1(id, 84) && bit(id, 84, 5);
	d.trim = bit(id, 169, 0);
	d.trim_drat = d.trim && bit(id, 69, 14);
	d.trim_rzat = d.trim && bit(id, 69, 5);
	/* Word 128, security status: 0 supported, 1 enabled, 2 locked, 3 frozen. */
	d.security_supported = bit(id, 128, 0);
	d.security_enabled = bit(id, 128, 1);
	d.security_locked = bit(id, 128, 2);
	d.security_frozen = bit(id, 128, 3);
	/* Word 59: 12 SANITIZE feature set, 13 CRYPTO SCRAMBLE EXT, 14 OVERWRITE EXT, 15 BLOCK
	 * ERASE EXT. */
	d.sanitize = bit(id, 59, 12);
	d.sanitize_crypto = d.sanitize && bit(id, 59, 13);
	d.sanitize_overwrite = d.sanitize && bit(id, 59, 14);
	d.sanitize_block_erase = d.sanitize && bit(id, 59, 15);
	/* Words 76-79, Serial ATA capabilities and features; 0000h/FFFFh on a PATA device. */
	uint16_t w76 = word(id, 76);
	d.sata_valid = w76 != 0 && w76 != 0xffff;
	if (d.sata_valid) {
		d.hipm = bit(id, 76, 9);
		d.dipm_supported = bit(id, 78, 3);
		d.dipm_enabled = bit(id, 79, 3);
		d.devslp_supported = bit(id, 78, 8);
		d.devslp_enabled = bit(id, 79, 8);
	}
	*out = d;
}

int ata_identify_read(const struct ioctl_ops *ops, int fd, uint8_t id[ATA_IDENTIFY_LEN], char *err,
		      size_t errlen)
{
	struct ata_cmd c = ata_cmd_identify();

	return ata_cmd_send(ops, fd, &c, id, NULL, err, errlen);
}

void ata_hpa_read(const struct ioctl_ops *ops, int fd, const struct ata_identity *ident,
		  struct ata_hpa *hpa)
{
	struct ata_cmd c = ata_cmd_read_native_max_ext();
	struct ata_regs r;

	memset(hpa, 0, sizeof *hpa);
	if (!ident->lba48) {
		snprintf(hpa->why, sizeof hpa->why, "not a 48-bit drive (READ NATIVE MAX ADDRESS EXT not sent)");
		return;
	}
	if (ata_cmd_send(ops, fd, &c, NULL, &r, hpa->why, sizeof hpa->why))
		return;
	if (!r.ext) {
		/* only LBA 23:0 came back: the native max would be wrong for a drive past 8 GiB */
		snprintf(hpa->why, sizeof hpa->why, "%s: the registers came back without their high bytes",
			 c.name);
		return;
	}
	hpa->known = true;
	hpa->native_max_lba = r.lba;
	hpa->current_max_lba = ident->user_sectors ? ident->user_sectors - 1 : 0;
	if (hpa->native_max_lba > hpa->current_max_lba)
		hpa->hidden_bytes = (hpa->native_max_lba - hpa->current_max_lba) * ident->logical_sector;
}
