// SPDX-License-Identifier: MIT
/*
 * ata_live: live SMART through SG_IO, decoded as a libatasmart blob (see ata_live.h).
 */
#include "host/ata_live.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* SMART RETURN STATUS answers in LBA 23:8: C2h/4Fh "good", 2Ch/F4h "threshold exceeded"
 * (ACS-3 7.44.8). */
#define SMART_LBA_GOOD 0xc24f00ull
#define SMART_LBA_BAD 0x2cf400ull

static void put_block(uint8_t *blob, size_t *len, const char tag[4], const void *data, uint32_t n)
{
	memcpy(blob + *len, tag, 4);
	blob[*len + 4] = (uint8_t)(n >> 24);
	blob[*len + 5] = (uint8_t)(n >> 16);
	blob[*len + 6] = (uint8_t)(n >> 8);
	blob[*len + 7] = (uint8_t)n;
	memcpy(blob + *len + 8, data, n);
	*len += 8 + (size_t)n;
}

size_t ata_live_plan(struct ata_cmd *cmds, size_t max)
{
	const struct ata_cmd all[] = {
	    ata_cmd_identify(),
	    ata_cmd_smart_return_status(),
	    ata_cmd_smart_read_data(),
	    ata_cmd_smart_read_thresholds(),
	    ata_cmd_read_log_ext(ATA_LOG_DEVSTAT, 0x00),
	    ata_cmd_read_log_ext(ATA_LOG_DEVSTAT, ATA_DEVSTAT_GENERAL),
	    ata_cmd_read_log_ext(ATA_LOG_DEVSTAT, ATA_DEVSTAT_SSD),
	};
	size_t n = sizeof all / sizeof all[0];

	for (size_t i = 0; i < n && i < max; i++)
		cmds[i] = all[i];
	return n;
}

int ata_devstat_counters(const uint8_t p[ATA_SECTOR], uint8_t page, struct devcounters *dc)
{
	/* The first qword is the page header: revision (bytes 1:0), page number (byte 2). */
	if (p[2] != page)
		return -EINVAL;
	for (unsigned off = 8; off + 8 <= ATA_SECTOR; off += 8) {
		uint64_t q = 0;
		for (int b = 7; b >= 0; b--)
			q = q << 8 | p[off + (unsigned)b];
		/* bit 63 supported, bit 62 valid (ACS-3 9.5.x, "Device Statistics flags") */
		if (!(q >> 63 & 1) || !(q >> 62 & 1))
			continue;
		int r = devcounters_setf(dc, q & 0xffffffffffffull, "ata:devstat.%u.0x%02x", page, off);
		if (r)
			return r;
	}
	return 0;
}

/* Reads pages 0x01 and 0x07 where page 0x00 lists them. Never fails the snapshot: a drive
 * without the log just has no devstat keys, and the note says why. */
static void read_devstat(const struct ioctl_ops *ops, int fd, struct ata_live *l)
{
	static const uint8_t want[] = {ATA_DEVSTAT_GENERAL, ATA_DEVSTAT_SSD};
	uint8_t list[ATA_SECTOR], page[ATA_SECTOR];
	char err[160];
	struct ata_cmd c;

	if (!l->ident.gpl) {
		snprintf(l->devstat_note, sizeof l->devstat_note,
			 "IDENTIFY word 84 reports no General Purpose Logging: READ LOG EXT not sent");
		return;
	}
	c = ata_cmd_read_log_ext(ATA_LOG_DEVSTAT, 0x00);
	if (ata_cmd_send(ops, fd, &c, list, NULL, err, sizeof err)) {
		snprintf(l->devstat_note, sizeof l->devstat_note, "Device Statistics page 0x00: %s", err);
		return;
	}
	/* Page 0x00: header qword, byte 8 the number of entries, then the page numbers. */
	for (size_t w = 0; w < sizeof want; w++) {
		bool listed = false;
		for (unsigned i = 0; i < list[8] && 9 + i < ATA_SECTOR; i++)
			listed |= list[9 + i] == want[w];
		if (!listed)
			continue;
		c = ata_cmd_read_log_ext(ATA_LOG_DEVSTAT, want[w]);
		if (ata_cmd_send(ops, fd, &c, page, NULL, err, sizeof err)) {
			snprintf(l->devstat_note, sizeof l->devstat_note, "Device Statistics page 0x%02x: %s",
				 want[w], err);
			continue;
		}
		if (ata_devstat_counters(page, want[w], &l->dc)) {
			snprintf(l->devstat_note, sizeof l->devstat_note,
				 "Device Statistics page 0x%02x: its header names page 0x%02x", want[w], page[2]);
			continue;
		}
		l->devstat_read = true;
	}
	if (!l->devstat_read && !l->devstat_note[0])
		snprintf(l->devstat_note, sizeof l->devstat_note,
			 "Device Statistics page 0x00 lists neither page 0x01 nor 0x07");
}

int ata_live_read(const struct ioctl_ops *ops, int fd, struct ata_live *out, char *err, size_t errlen)
{
	uint8_t id[ATA_IDENTIFY_LEN], data[ATA_SECTOR], thr[ATA_SECTOR], st[4];
	struct ata_cmd c;
	struct ata_regs r;
	int ret;

	memset(out, 0, sizeof *out);
	ret = ata_identify_read(ops, fd, id, err, errlen);
	if (ret)
		return ret;
	ata_identify_decode(id, &out->ident);
	if (!out->ident.smart_supported) {
		snprintf(err, errlen, "the drive has no SMART (IDENTIFY word 82 bit 0 clear)");
		return -EOPNOTSUPP;
	}
	if (!out->ident.smart_enabled) {
		snprintf(err, errlen, "SMART is disabled on the drive (IDENTIFY word 85 bit 0 clear; "
				      "`smartctl -s on` enables it)");
		return -EOPNOTSUPP;
	}
	put_block(out->blob, &out->blob_len, "IDFY", id, ATA_IDENTIFY_LEN);
	c = ata_cmd_smart_return_status();
	ret = ata_cmd_send(ops, fd, &c, NULL, &r, err, errlen);
	if (ret)
		return ret;
	uint64_t mid_hi = r.lba & 0xffff00ull;
	if (mid_hi != SMART_LBA_GOOD && mid_hi != SMART_LBA_BAD) {
		snprintf(err, errlen, "%s: LBA mid/high 0x%02x/0x%02x is neither 4Fh/C2h nor F4h/2Ch", c.name,
			 (unsigned)(r.lba >> 8 & 0xff), (unsigned)(r.lba >> 16 & 0xff));
		return -EIO;
	}
	/* SMST: a 4-byte big-endian "good" flag, as libatasmart writes it */
	memset(st, 0, sizeof st);
	st[3] = mid_hi == SMART_LBA_GOOD;
	put_block(out->blob, &out->blob_len, "SMST", st, sizeof st);
	c = ata_cmd_smart_read_data();
	ret = ata_cmd_send(ops, fd, &c, data, NULL, err, errlen);
	if (ret)
		return ret;
	put_block(out->blob, &out->blob_len, "SMDT", data, ATA_SECTOR);
	c = ata_cmd_smart_read_thresholds();
	ret = ata_cmd_send(ops, fd, &c, thr, NULL, err, errlen);
	if (ret)
		return ret;
	put_block(out->blob, &out->blob_len, "SMTH", thr, ATA_SECTOR);
	ret = ata_smart_decode_blob(out->blob, out->blob_len, &out->smart, err, errlen);
	if (ret)
		return ret;
	devcounters_init(&out->dc);
	ret = ata_smart_counters(&out->smart, &out->dc);
	if (ret) {
		snprintf(err, errlen, "too many counters: %s", strerror(-ret));
		return ret;
	}
	read_devstat(ops, fd, out);
	return 0;
}
