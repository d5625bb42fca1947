// SPDX-License-Identifier: MIT
/*
 * ata_purge: SANITIZE and SECURITY ERASE through ATA PASS-THROUGH(16) (see ata_purge.h).
 */
#include "host/ata_purge.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define MIN_MS (60u * 1000u)
#define MARGIN_MS (30ull * MIN_MS)

static uint16_t word(const uint8_t *id, unsigned w)
{
	return (uint16_t)(id[2 * w] | id[2 * w + 1] << 8);
}

/* Words 89/90 (ACS-3 7.12.7.40/41): bit 15 set means bits 14:0 hold the time, else bits 7:0;
 * the time is in units of 2 minutes, 0 means the drive gives none. */
static unsigned erase_minutes(uint16_t w)
{
	unsigned v = w & 0x8000 ? w & 0x7fffu : w & 0xffu;
	return 2 * v;
}

void ata_purge_caps_decode(const uint8_t id[ATA_IDENTIFY_LEN], struct ata_purge_caps *out)
{
	struct ata_identity ident;
	uint16_t w128 = word(id, 128);

	ata_identify_decode(id, &ident);
	*out = (struct ata_purge_caps){
	    .sanitize = ident.sanitize,
	    .sanitize_block = ident.sanitize_block_erase,
	    .sanitize_crypto = ident.sanitize_crypto,
	    .sanitize_overwrite = ident.sanitize_overwrite,
	    .security = w128 & 0x0001,
	    .security_enabled = w128 & 0x0002,
	    .security_locked = w128 & 0x0004,
	    .security_frozen = w128 & 0x0008,
	    .security_count_expired = w128 & 0x0010,
	    .enhanced_erase = w128 & 0x0020,
	    .erase_minutes = erase_minutes(word(id, 89)),
	    .enhanced_erase_minutes = erase_minutes(word(id, 90)),
	    .bytes =
		ident.user_sectors * (ident.logical_sector ? ident.logical_sector : ATA_SECTOR),
	};
}

uint32_t ata_security_erase_timeout_ms(const struct ata_purge_caps *c, bool enhanced)
{
	unsigned minutes = enhanced ? c->enhanced_erase_minutes : c->erase_minutes;
	uint64_t ms;

	if (minutes)
		ms = 2ull * minutes * MIN_MS + MARGIN_MS;
	else /* hdparm: 1 s per 30 MB plus 30 minutes */
		ms = c->bytes / 30000000ull * 1000ull + MARGIN_MS;
	return ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
}

static const char *op_name(enum ata_purge_op op)
{
	switch (op) {
	case ATA_PURGE_SANITIZE_BLOCK:
		return "SANITIZE BLOCK ERASE EXT";
	case ATA_PURGE_SANITIZE_CRYPTO:
		return "SANITIZE CRYPTO SCRAMBLE EXT";
	case ATA_PURGE_SANITIZE_OVERWRITE:
		return "SANITIZE OVERWRITE EXT";
	case ATA_PURGE_SECURITY_ERASE:
		return "SECURITY ERASE UNIT";
	}
	return "?";
}

int ata_purge_check(const struct ata_purge_caps *c, const char *link, enum ata_purge_op op,
		    char *why, size_t len)
{
	const char *name = op_name(op);
	bool sanitize = op != ATA_PURGE_SECURITY_ERASE;

	if (link && !strcmp(link, "usb")) {
		snprintf(
		    why, len,
		    "%s refused: the drive sits behind a USB bridge, which drops or rewrites ATA "
		    "pass-through (a security erase through one can leave the drive locked); "
		    "connect it to a SATA port",
		    name);
		return -EOPNOTSUPP;
	}
	if (c->security_locked) {
		snprintf(why, len,
			 "%s refused: the drive is security-locked (a password is set and not "
			 "unlocked); `ssdlab restore DIR` unlocks a drive ssdlab locked",
			 name);
		return -EACCES;
	}
	if (sanitize) {
		bool have = op == ATA_PURGE_SANITIZE_BLOCK    ? c->sanitize_block
			    : op == ATA_PURGE_SANITIZE_CRYPTO ? c->sanitize_crypto
							      : c->sanitize_overwrite;
		if (!c->sanitize || !have) {
			snprintf(why, len, "%s: the drive does not support it (IDENTIFY word 59)",
				 name);
			return -EOPNOTSUPP;
		}
		return 0;
	}
	if (!c->security) {
		snprintf(why, len,
			 "%s: the drive has no SECURITY feature set (IDENTIFY word 128 bit 0)",
			 name);
		return -EOPNOTSUPP;
	}
	if (c->security_frozen) {
		snprintf(
		    why, len,
		    "%s refused: the drive's security is frozen (IDENTIFY word 128 bit 3; the "
		    "BIOS freezes drives at boot) and would abort SECURITY commands; unfreeze it "
		    "with a suspend and resume (systemctl suspend, then wake the machine) or by "
		    "unplugging and replugging the drive's SATA cable (hot-plug), then try again",
		    name);
		return -EPERM;
	}
	if (c->security_enabled) {
		snprintf(why, len,
			 "%s refused: the drive already has a user password set (when an earlier "
			 "ssdlab run set it, `ssdlab restore DIR` on that run's results removes "
			 "it; ssdlab does not touch a password it did not journal)",
			 name);
		return -EACCES;
	}
	if (c->security_count_expired) {
		snprintf(why, len,
			 "%s refused: the drive's password attempt counter has expired (word 128 "
			 "bit 4); a power cycle resets it",
			 name);
		return -EPERM;
	}
	return 0;
}

static struct ata_cmd nondata_ext(const char *name, uint8_t command, uint16_t feature, uint64_t lba,
				  bool ck_cond)
{
	return (struct ata_cmd){.name = name,
				.command = command,
				.feature = feature,
				.lba = lba,
				.device = 0x40,
				.protocol = ATA_PROTO_NONDATA,
				.ext = true,
				.ck_cond = ck_cond};
}

struct ata_cmd ata_cmd_sanitize(enum ata_purge_op op)
{
	switch (op) {
	case ATA_PURGE_SANITIZE_CRYPTO:
		return nondata_ext(op_name(op), ATA_OP_SANITIZE, ATA_SANITIZE_CRYPTO_EXT,
				   ATA_SANITIZE_KEY_CRYPTO, false);
	case ATA_PURGE_SANITIZE_OVERWRITE:
		/* one pass of zeroes: the pattern (LBA 31:0) 0, count 1 pass (bits 3:0) */
		{
			struct ata_cmd c =
			    nondata_ext(op_name(op), ATA_OP_SANITIZE, ATA_SANITIZE_OVERWRITE_EXT,
					(uint64_t)ATA_SANITIZE_KEY_OVERWRITE << 32, false);
			c.count = 1;
			return c;
		}
	case ATA_PURGE_SANITIZE_BLOCK:
	case ATA_PURGE_SECURITY_ERASE:
		break;
	}
	return nondata_ext(op_name(ATA_PURGE_SANITIZE_BLOCK), ATA_OP_SANITIZE,
			   ATA_SANITIZE_BLOCK_EXT, ATA_SANITIZE_KEY_BLOCK, false);
}

/* CLEAR SANITIZE OPERATION FAILED is count bit 0 (ACS-3 7.36.7.3). */
struct ata_cmd ata_cmd_sanitize_status(bool clear_failure)
{
	struct ata_cmd c =
	    nondata_ext("SANITIZE STATUS EXT", ATA_OP_SANITIZE, ATA_SANITIZE_STATUS_EXT, 0, true);
	c.count = clear_failure ? 1 : 0;
	return c;
}

struct ata_cmd ata_cmd_security(uint8_t op)
{
	const char *name = op == ATA_OP_SEC_SET_PASSWORD       ? "SECURITY SET PASSWORD"
			   : op == ATA_OP_SEC_UNLOCK	       ? "SECURITY UNLOCK"
			   : op == ATA_OP_SEC_ERASE_PREPARE    ? "SECURITY ERASE PREPARE"
			   : op == ATA_OP_SEC_ERASE_UNIT       ? "SECURITY ERASE UNIT"
			   : op == ATA_OP_SEC_DISABLE_PASSWORD ? "SECURITY DISABLE PASSWORD"
							       : "SECURITY ?";
	if (op == ATA_OP_SEC_ERASE_PREPARE)
		return (struct ata_cmd){.name = name, .command = op, .protocol = ATA_PROTO_NONDATA};
	/* 28-bit commands with one 512-byte block (count 1) */
	return (struct ata_cmd){.name = name,
				.command = op,
				.count = 1,
				.protocol = ATA_PROTO_PIO_OUT,
				.data_len = ATA_SECTOR};
}

void ata_security_block(uint8_t blk[ATA_SECTOR], const char *password, bool enhanced)
{
	size_t n = strlen(password);

	memset(blk, 0, ATA_SECTOR);
	blk[0] = enhanced ? 0x02 : 0x00; /* bit 0 clear: the user password */
	memcpy(blk + 2, password, n > ATA_PASSWORD_LEN ? ATA_PASSWORD_LEN : n);
}

int ata_sanitize_status_read(const struct ioctl_ops *ops, int fd, bool clear_failure,
			     struct ata_sanitize_status *st, char *err, size_t errlen)
{
	struct ata_cmd c = ata_cmd_sanitize_status(clear_failure);
	struct ata_regs r = {0};
	char e[256];
	int ret = ata_cmd_send(ops, fd, &c, NULL, &r, e, sizeof e);

	if (ret == -EIO && (r.status & 0x01)) {
		/* ERR: the last sanitize failed (ACS-3 7.36.7.4), reason in LBA 7:0 */
		*st = (struct ata_sanitize_status){.failed = true, .reason = (uint8_t)r.lba};
		return 0;
	}
	if (ret) {
		snprintf(err, errlen, "%s", e);
		return ret;
	}
	*st = (struct ata_sanitize_status){.completed_ok = r.count & 0x8000,
					   .in_progress = r.count & 0x4000,
					   .frozen = r.count & 0x2000,
					   .progress = (uint16_t)r.lba};
	return 0;
}

static const char *sanitize_reason(uint8_t reason)
{
	/* ACS-3 table 141 (SANITIZE DEVICE ERROR REASON) */
	switch (reason) {
	case 1:
		return "sanitize command unsuccessful";
	case 2:
		return "invalid or unsupported sanitize device command";
	case 3:
		return "device in sanitize frozen state";
	case 4:
		return "sanitize antifreeze lock in effect";
	}
	return "reason not given";
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000u),
			      .tv_nsec = (long)(ns % 1000000000u)};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int ata_sanitize_run(const struct ioctl_ops *ops, int fd, enum ata_purge_op op,
		     const struct ata_poll *poll_in, char *err, size_t errlen)
{
	static const struct ata_poll every_second = {0};
	const struct ata_poll *poll = poll_in ? poll_in : &every_second;
	uint64_t interval = poll->interval_ns ? poll->interval_ns : 1000000000u;
	struct ata_cmd c = ata_cmd_sanitize(op);
	struct ata_regs r = {0};
	struct ata_sanitize_status st;
	char e[256];
	int ret;

	if (op == ATA_PURGE_SECURITY_ERASE)
		return -EINVAL;
	ret = ata_cmd_send(ops, fd, &c, NULL, &r, e, sizeof e);
	if (ret == -EIO && (r.status & 0x01)) {
		snprintf(err, errlen, "%s refused by the drive: %s (%s)", c.name,
			 sanitize_reason((uint8_t)r.lba), e);
		return -EIO;
	}
	if (ret) {
		snprintf(err, errlen, "%s", e);
		return ret;
	}
	for (;;) {
		ret = ata_sanitize_status_read(ops, fd, false, &st, err, errlen);
		if (ret)
			return ret;
		if (st.failed) {
			snprintf(
			    err, errlen,
			    "%s failed: %s (the drive stays in the sanitize failed state until a "
			    "sanitize completes)",
			    c.name, sanitize_reason(st.reason));
			return -EIO;
		}
		if (!st.in_progress) {
			if (st.completed_ok) {
				if (poll->progress)
					poll->progress(poll->ctx, 1.0);
				return 0;
			}
			snprintf(err, errlen,
				 "%s: the drive reports no sanitize in progress and none completed",
				 c.name);
			return -EIO;
		}
		if (poll->progress)
			poll->progress(poll->ctx, st.progress / 65536.0);
		if (poll->stop && poll->stop(poll->ctx)) {
			snprintf(err, errlen,
				 "%s: stopped waiting at %.1f%%; the drive finishes the sanitize "
				 "on its own",
				 c.name, st.progress / 655.36);
			return -EINTR;
		}
		if (poll->wait)
			poll->wait(poll->ctx, interval);
		else
			sleep_ns(interval);
	}
}

static int send_block(const struct ioctl_ops *ops, int fd, uint8_t op, const char *password,
		      bool enhanced, uint32_t timeout_ms, char *err, size_t errlen)
{
	struct ata_cmd c = ata_cmd_security(op);
	uint8_t blk[ATA_SECTOR];

	ata_security_block(blk, password ? password : ATA_PURGE_PASSWORD, enhanced);
	c.timeout_ms = timeout_ms;
	return ata_cmd_send(ops, fd, &c, blk, NULL, err, errlen);
}

int ata_security_set_password(const struct ioctl_ops *ops, int fd, const char *password, char *err,
			      size_t errlen)
{
	return send_block(ops, fd, ATA_OP_SEC_SET_PASSWORD, password, false, 0, err, errlen);
}

int ata_security_erase_unit(const struct ioctl_ops *ops, int fd, const char *password,
			    bool enhanced, uint32_t timeout_ms, char *err, size_t errlen)
{
	struct ata_cmd prep = ata_cmd_security(ATA_OP_SEC_ERASE_PREPARE);
	int ret = ata_cmd_send(ops, fd, &prep, NULL, NULL, err, errlen);

	if (ret)
		return ret;
	return send_block(ops, fd, ATA_OP_SEC_ERASE_UNIT, password, enhanced, timeout_ms, err,
			  errlen);
}

int ata_security_unlock(const struct ioctl_ops *ops, int fd, const char *password, char *err,
			size_t errlen)
{
	return send_block(ops, fd, ATA_OP_SEC_UNLOCK, password, false, 0, err, errlen);
}

int ata_security_disable_password(const struct ioctl_ops *ops, int fd, const char *password,
				  char *err, size_t errlen)
{
	return send_block(ops, fd, ATA_OP_SEC_DISABLE_PASSWORD, password, false, 0, err, errlen);
}
