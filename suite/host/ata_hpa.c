// SPDX-License-Identifier: MIT
/*
 * ata_hpa: HPA and accessible max address through ATA PASS-THROUGH(16) (see ata_hpa.h).
 */
#include "host/ata_hpa.h"

#include <errno.h>
#include <string.h>

#include "host/ata_identify.h"

static uint16_t word(const uint8_t *id, unsigned w)
{
	return (uint16_t)(id[2 * w] | id[2 * w + 1] << 8);
}

/* Words 83, 86 and 119 hold flags only when bits 15:14 are 01b (ACS-3 7.12.7). */
static bool valid_0_1(const uint8_t *id, unsigned w)
{
	return (word(id, w) & 0xc000) == 0x4000;
}

const char *ata_hpa_method_name(enum ata_hpa_method m)
{
	switch (m) {
	case ATA_HPA_HPA:
		return "HPA";
	case ATA_HPA_AMAC:
		return "AMAC";
	case ATA_HPA_NONE:
		break;
	}
	return "none";
}

/* Non-data 48-bit commands with the LBA bit in DEVICE, as hdparm sends them (reference E). */
static struct ata_cmd nondata48(const char *name, uint8_t command, uint16_t feature, uint16_t count,
				uint64_t lba, bool ck_cond)
{
	return (struct ata_cmd){.name = name,
				.command = command,
				.feature = feature,
				.count = count,
				.lba = lba,
				.device = 0x40,
				.protocol = ATA_PROTO_NONDATA,
				.ext = true,
				.ck_cond = ck_cond};
}

/* ACS-2 7.51 SET MAX ADDRESS EXT: LBA = the new max LBA, COUNT bit 0 = VV (value volatile when
 * clear). It returns nothing we need, but CK_COND makes the registers come back so that an
 * abort is seen in them. */
struct ata_cmd ata_cmd_set_max_ext(uint64_t max_lba, bool volatile_value)
{
	return nondata48("SET MAX ADDRESS EXT", ATA_OP_SET_MAX_EXT, 0, volatile_value ? 0 : 1,
			 max_lba, true);
}

/* ACS-3 7.6: the native max LBA comes back in the LBA registers. */
struct ata_cmd ata_cmd_get_native_max_ext(void)
{
	return nondata48("GET NATIVE MAX ADDRESS EXT", ATA_OP_AMAC, ATA_AMAC_GET_NATIVE, 0, 0,
			 true);
}

struct ata_cmd ata_cmd_set_accessible_max_ext(uint64_t max_lba)
{
	return nondata48("SET ACCESSIBLE MAX ADDRESS EXT", ATA_OP_AMAC, ATA_AMAC_SET_ACCESSIBLE, 0,
			 max_lba, true);
}

struct ata_cmd ata_cmd_freeze_accessible_max_ext(void)
{
	return nondata48("FREEZE ACCESSIBLE MAX ADDRESS EXT", ATA_OP_AMAC, ATA_AMAC_FREEZE, 0, 0,
			 true);
}

/* ACS-2 7.11.3: DEVICE CONFIGURATION IDENTIFY, PIO-in of one 512-byte page, 28-bit. */
struct ata_cmd ata_cmd_dco_identify(void)
{
	return (struct ata_cmd){.name = "DEVICE CONFIGURATION IDENTIFY",
				.command = ATA_OP_DCO,
				.feature = ATA_DCO_IDENTIFY,
				.count = 1,
				.protocol = ATA_PROTO_PIO_IN,
				.data_len = ATA_SECTOR};
}

enum ata_hpa_method ata_hpa_method_of(const uint8_t *id)
{
	/* word 86 bit 15: words 119-120 are valid; word 119 bit 8: AMAC */
	if ((word(id, 86) & 0x8000) && valid_0_1(id, 119) && (word(id, 119) & 0x0100))
		return ATA_HPA_AMAC;
	if (word(id, 82) != 0xffff && (word(id, 82) & 0x0400))
		return ATA_HPA_HPA;
	return ATA_HPA_NONE;
}

/* The DCO page: words 3-6 the maximum LBA (ACS-2 table 21); word 255 bits 7:0 the signature
 * 0xA5 and 15:8 the checksum that makes all 512 bytes sum to 0 (mod 256). */
static int dco_decode(const uint8_t *p, uint64_t *max_lba, char *why, size_t whylen)
{
	uint8_t sum = 0;

	for (unsigned i = 0; i < ATA_SECTOR; i++)
		sum = (uint8_t)(sum + p[i]);
	if (p[510] == 0xa5 && sum != 0) {
		snprintf(why, whylen, "DEVICE CONFIGURATION IDENTIFY: bad checksum");
		return -EBADMSG;
	}
	*max_lba = (uint64_t)word(p, 6) << 48 | (uint64_t)word(p, 5) << 32 |
		   (uint64_t)word(p, 4) << 16 | word(p, 3);
	return 0;
}

int ata_hpa_probe(const struct ioctl_ops *ops, int fd, struct ata_hpa_state *st, char *err,
		  size_t errlen)
{
	uint8_t id[ATA_IDENTIFY_LEN], dco[ATA_SECTOR];
	struct ata_identity ident;
	struct ata_hpa_state s;
	struct ata_regs r;
	struct ata_cmd c;
	int ret;

	memset(&s, 0, sizeof s);
	ret = ata_identify_read(ops, fd, id, err, errlen);
	if (ret) {
		/* ILLEGAL REQUEST to ATA PASS-THROUGH itself: the SCSI layer below (a USB bridge, a
		 * SAS HBA) does not carry ATA commands; say so rather than leave a bare sense key
		 */
		size_t n = strlen(err);
		if (ret == -EIO && strstr(err, "SCSI sense key 0x5") && n < errlen)
			snprintf(err + n, errlen - n,
				 " (ATA PASS-THROUGH refused below the drive: a USB "
				 "bridge or SAS HBA that drops ATA commands)");
		return ret;
	}
	ata_identify_decode(id, &ident);
	memcpy(s.model, ident.model, sizeof s.model);
	memcpy(s.serial, ident.serial, sizeof s.serial);
	s.logical_sector = ident.logical_sector;
	s.security_frozen = ident.security_frozen;
	s.security_locked = ident.security_locked;
	s.method = ata_hpa_method_of(id);
	if (!ident.lba48) {
		snprintf(err, errlen,
			 "%s: not a 48-bit drive: its capacity is not changed by ssdlab",
			 ident.model);
		return -EOPNOTSUPP;
	}
	s.current_max_lba = ident.user_sectors ? ident.user_sectors - 1 : 0;
	/* a drive that advertises neither method may still answer READ NATIVE MAX (QEMU's AHCI
	 * disk does): its state is shown, a change is refused (ata_hpa_refusal) */
	c = s.method == ATA_HPA_AMAC ? ata_cmd_get_native_max_ext() : ata_cmd_read_native_max_ext();
	ret = ata_cmd_send(ops, fd, &c, NULL, &r, err, errlen);
	if (ret && s.method == ATA_HPA_NONE) {
		snprintf(err, errlen,
			 "%s: supports neither HPA nor Accessible Max Address Configuration "
			 "(IDENTIFY words 82, 119) and does not answer READ NATIVE MAX ADDRESS EXT",
			 ident.model);
		return -EOPNOTSUPP;
	}
	if (ret)
		return ret;
	if (!r.ext) {
		/* only LBA 23:0 came back: the native max would be wrong past 8 GiB */
		snprintf(err, errlen, "%s: the registers came back without their high bytes",
			 c.name);
		return -EIO;
	}
	s.native_max_lba = r.lba;
	if (s.native_max_lba > s.current_max_lba)
		s.hidden_bytes = (s.native_max_lba - s.current_max_lba) * s.logical_sector;
	/* word 83 bit 11: DCO supported; ACS-3 drives often abort it (DCO is obsolete there) */
	s.dco_supported = valid_0_1(id, 83) && (word(id, 83) & 0x0800);
	if (s.dco_supported) {
		c = ata_cmd_dco_identify();
		if (!ata_cmd_send(ops, fd, &c, dco, NULL, s.dco_why, sizeof s.dco_why) &&
		    !dco_decode(dco, &s.dco_max_lba, s.dco_why, sizeof s.dco_why)) {
			s.dco_known = true;
			s.dco_limits = s.dco_max_lba > s.native_max_lba;
		}
	}
	*st = s;
	return 0;
}

int ata_hpa_refusal(const struct ata_hpa_state *st, bool usb, uint64_t new_max_lba,
		    bool volatile_value, bool allow_existing, char *why, size_t whylen)
{
	if (usb) {
		snprintf(why, whylen,
			 "the drive is behind a USB bridge: many drop or mangle ATA "
			 "pass-through, and a half-sent capacity change cannot be checked; "
			 "connect it to a SATA port");
		return -EPERM;
	}
	if (st->method == ATA_HPA_NONE) {
		snprintf(why, whylen,
			 "the drive advertises neither HPA (IDENTIFY word 82 bit 10) nor "
			 "Accessible Max Address Configuration (word 119 bit 8): no capacity "
			 "command is sent to it");
		return -EOPNOTSUPP;
	}
	if (st->security_locked) {
		snprintf(why, whylen,
			 "the drive's security state is locked (IDENTIFY word 128 bit 2): it "
			 "aborts capacity commands until unlocked with its password");
		return -EPERM;
	}
	if (st->security_frozen) {
		snprintf(why, whylen,
			 "the drive's security state is frozen (IDENTIFY word 128 bit 3; the BIOS "
			 "froze it "
			 "at boot): a suspend/resume or a hot-plug of the drive unfreezes it");
		return -EPERM;
	}
	if (st->dco_limits) {
		snprintf(why, whylen,
			 "a Device Configuration Overlay limits the native max LBA to %llu (the "
			 "drive has "
			 "%llu): ssdlab does not change a drive already cut down by DCO",
			 (unsigned long long)st->native_max_lba,
			 (unsigned long long)st->dco_max_lba);
		return -EPERM;
	}
	if (!allow_existing && st->current_max_lba < st->native_max_lba) {
		snprintf(
		    why, whylen,
		    "the drive already carries a host protected area ssdlab did not set (max LBA "
		    "%llu "
		    "of native %llu, %llu bytes hidden): remove it first (hdparm -N) or leave it",
		    (unsigned long long)st->current_max_lba, (unsigned long long)st->native_max_lba,
		    (unsigned long long)st->hidden_bytes);
		return -EPERM;
	}
	if (new_max_lba == 0 || new_max_lba > st->native_max_lba) {
		snprintf(why, whylen, "max LBA %llu is outside 1..%llu (the native max)",
			 (unsigned long long)new_max_lba, (unsigned long long)st->native_max_lba);
		return -EINVAL;
	}
	if (st->method == ATA_HPA_AMAC && volatile_value) {
		snprintf(why, whylen,
			 "Accessible Max Address Configuration has no volatile form: the "
			 "change is persistent (--persistent)");
		return -EOPNOTSUPP;
	}
	return 0;
}

static int run(const struct ioctl_ops *ops, int fd, const struct ata_cmd *c, struct ata_regs *r,
	       bool dry, FILE *dry_out, char *err, size_t errlen)
{
	char line[320];

	if (dry) {
		ata_cmd_describe(c, line, sizeof line);
		fprintf(dry_out ? dry_out : stdout, "  %s\n", line);
		return 0;
	}
	return ata_cmd_send(ops, fd, c, NULL, r, err, errlen);
}

int ata_hpa_set(const struct ioctl_ops *ops, int fd, enum ata_hpa_method m, uint64_t max_lba,
		bool volatile_value, bool dry, FILE *dry_out, char *err, size_t errlen)
{
	struct ata_regs r;
	struct ata_cmd c;
	int ret;

	if (m == ATA_HPA_AMAC) {
		if (volatile_value) {
			snprintf(err, errlen,
				 "Accessible Max Address Configuration has no volatile form");
			return -EOPNOTSUPP;
		}
		c = ata_cmd_set_accessible_max_ext(max_lba);
		return run(ops, fd, &c, &r, dry, dry_out, err, errlen);
	}
	if (m != ATA_HPA_HPA) {
		snprintf(err, errlen,
			 "the drive supports neither HPA nor Accessible Max Address Configuration");
		return -EOPNOTSUPP;
	}
	/* ACS-2 7.51.1: SET MAX ADDRESS EXT must immediately follow READ NATIVE MAX ADDRESS EXT,
	 * else the drive aborts it */
	c = ata_cmd_read_native_max_ext();
	ret = run(ops, fd, &c, &r, dry, dry_out, err, errlen);
	if (ret)
		return ret;
	c = ata_cmd_set_max_ext(max_lba, volatile_value);
	return run(ops, fd, &c, &r, dry, dry_out, err, errlen);
}
