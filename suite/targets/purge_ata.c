// SPDX-License-Identifier: MIT
/*
 * purge_ata: SANITIZE and SECURITY ERASE as purge methods, the password journaled (see
 * purge_ata.h).
 */
#include "targets/purge_ata.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "host/ata_identify.h"
#include "targets/devchange_security.h"

static void dry_print(const struct devchange_ctx *c, struct ata_cmd cmd)
{
	char line[512];

	ata_cmd_describe(&cmd, line, sizeof line);
	fprintf(c->dry_out ? c->dry_out : stdout, "%s\n", line);
}

static int security_erase(const struct devchange_ctx *c, const struct ioctl_ops *ops,
			  const struct ata_purge_caps *caps, struct purge_ata_done *done, char *err,
			  size_t errlen)
{
	bool enhanced = caps->enhanced_erase;
	uint32_t timeout = ata_security_erase_timeout_ms(caps, enhanced);
	struct json_object *to = devchange_security_value(true, NULL);
	char e[512];
	int ret;

	if (!to) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/* journaled (fsync'ed) before SECURITY SET PASSWORD is sent */
	ret = devchange_set(c, "security", to, err, errlen);
	if (ret)
		goto out;
	if (c->dry_run) {
		dry_print(c, ata_cmd_security(ATA_OP_SEC_ERASE_PREPARE));
		struct ata_cmd unit = ata_cmd_security(ATA_OP_SEC_ERASE_UNIT);
		unit.timeout_ms = timeout;
		dry_print(c, unit);
		goto done;
	}
	ret = ata_security_erase_unit(ops, c->fd, NULL, enhanced, timeout, e, sizeof e);
	if (ret) {
		snprintf(
		    err, errlen,
		    "%s; the drive may be left locked with the journaled password: the restore "
		    "unlocks it and disables the password",
		    e);
		goto out;
	}
done:
	*done = (struct purge_ata_done){.enhanced = enhanced, .timeout_ms = timeout};
out:
	json_object_put(to);
	return ret;
}

/* The method's op and the drive's capabilities from a fresh IDENTIFY (the security state
 * changes with every command and power cycle), checked; 0 or -errno with why. */
static int checked(const struct ioctl_ops *ops, int fd, const char *link, const char *method,
		   enum ata_purge_op *op, struct ata_purge_caps *caps, char *why, size_t len)
{
	uint8_t id[ATA_IDENTIFY_LEN];
	int ret;

	if (!strcmp(method, "ata-sanitize-block"))
		*op = ATA_PURGE_SANITIZE_BLOCK;
	else if (!strcmp(method, "ata-sanitize-crypto"))
		*op = ATA_PURGE_SANITIZE_CRYPTO;
	else if (!strcmp(method, "ata-security-erase"))
		*op = ATA_PURGE_SECURITY_ERASE;
	else {
		snprintf(why, len, "'%s' is not an ATA purge method", method);
		return -EINVAL;
	}
	ret = ata_identify_read(ops, fd, id, why, len);
	if (ret)
		return ret;
	ata_purge_caps_decode(id, caps);
	return ata_purge_check(caps, link, *op, why, len);
}

int purge_ata_check(const struct ioctl_ops *ops, int fd, const char *link, const char *method,
		    bool in_auto, char *why, size_t len)
{
	struct ata_purge_caps caps;
	enum ata_purge_op op;
	int ret = checked(ops ? ops : &ioctl_ops_real, fd, link, method, &op, &caps, why, len);

	if (!ret && in_auto && op == ATA_PURGE_SECURITY_ERASE && !caps.enhanced_erase) {
		snprintf(why, len,
			 "the drive offers only the normal SECURITY ERASE (IDENTIFY word 128 bit "
			 "5 clear), which need not erase the spare area");
		return -EOPNOTSUPP;
	}
	return ret;
}

int purge_ata_run(const struct devchange_ctx *c, const char *link, const char *method,
		  const struct ata_poll *poll, struct purge_ata_done *done, char *err,
		  size_t errlen)
{
	const struct ioctl_ops *ops = c->ops ? c->ops : &ioctl_ops_real;
	struct ata_purge_caps caps;
	enum ata_purge_op op;
	int ret = checked(ops, c->fd, link, method, &op, &caps, err, errlen);

	if (ret)
		return ret;
	if (op == ATA_PURGE_SECURITY_ERASE)
		return security_erase(c, ops, &caps, done, err, errlen);
	if (c->dry_run) {
		dry_print(c, ata_cmd_sanitize(op));
		dry_print(c, ata_cmd_sanitize_status(false));
	} else {
		ret = ata_sanitize_run(ops, c->fd, op, poll, err, errlen);
		if (ret)
			return ret;
	}
	*done = (struct purge_ata_done){0};
	return 0;
}
