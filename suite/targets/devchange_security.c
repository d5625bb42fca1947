// SPDX-License-Identifier: MIT
/*
 * devchange_security: the ATA security password as a devchange kind (see devchange_security.h).
 */
#include "targets/devchange_security.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "host/ata_cmd.h"
#include "host/ata_identify.h"
#include "host/ata_purge.h"

static const struct ioctl_ops *ops_of(const struct devchange_ctx *c)
{
	return c->ops ? c->ops : &ioctl_ops_real;
}

static bool member_bool(struct json_object *o, const char *key)
{
	struct json_object *v;
	return o && json_object_object_get_ex(o, key, &v) && json_object_get_boolean(v);
}

static const char *password_of(struct json_object *o)
{
	struct json_object *v;
	if (o && json_object_object_get_ex(o, "password", &v) &&
	    json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return ATA_PURGE_PASSWORD;
}

struct json_object *devchange_security_value(bool set, const char *password)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (json_object_object_add(o, "password_set", json_object_new_boolean(set)) ||
	    json_object_object_add(o, "locked", json_object_new_boolean(false)) ||
	    json_object_object_add(
		o, "password", json_object_new_string(password ? password : ATA_PURGE_PASSWORD))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static int read_caps(const struct devchange_ctx *c, struct ata_purge_caps *caps, char *err,
		     size_t errlen)
{
	uint8_t id[ATA_IDENTIFY_LEN];
	int ret;

	if (c->transport != DRIVEDB_ATA) {
		snprintf(err, errlen, "%s: the ATA security password needs a SATA drive", c->path);
		return -EOPNOTSUPP;
	}
	ret = ata_identify_read(ops_of(c), c->fd, id, err, errlen);
	if (ret)
		return ret;
	ata_purge_caps_decode(id, caps);
	if (!caps->security) {
		snprintf(err, errlen, "%s: the drive has no SECURITY feature set", c->path);
		return -EOPNOTSUPP;
	}
	return 0;
}

static int sec_read(const struct devchange_ctx *c, struct json_object **value, char *err,
		    size_t errlen)
{
	struct ata_purge_caps caps;
	struct json_object *o;
	int ret = read_caps(c, &caps, err, errlen);

	if (ret)
		return ret;
	o = json_object_new_object();
	if (!o ||
	    json_object_object_add(o, "password_set",
				   json_object_new_boolean(caps.security_enabled)) ||
	    json_object_object_add(o, "locked", json_object_new_boolean(caps.security_locked))) {
		json_object_put(o);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	*value = o;
	return 0;
}

static int sec_describe(const struct devchange_ctx *c, struct json_object *to, char *cmd,
			size_t cmdlen)
{
	(void)c;
	if (member_bool(to, "password_set"))
		snprintf(cmd, cmdlen, "ATA SECURITY SET PASSWORD 0xF1 (user password \"%s\", high)",
			 password_of(to));
	else
		snprintf(
		    cmd, cmdlen,
		    "ATA SECURITY UNLOCK 0xF2 (when locked) and SECURITY DISABLE PASSWORD 0xF6 "
		    "(user password \"%s\")",
		    password_of(to));
	return 0;
}

static void dry_print(const struct devchange_ctx *c, uint8_t op)
{
	struct ata_cmd cmd = ata_cmd_security(op);
	char line[512];

	ata_cmd_describe(&cmd, line, sizeof line);
	fprintf(c->dry_out ? c->dry_out : stdout, "%s\n", line);
}

static int sec_send(const struct devchange_ctx *c, struct json_object *to, char *err, size_t errlen)
{
	const char *pw = password_of(to);
	struct ata_purge_caps caps;
	int ret;

	if (member_bool(to, "password_set")) {
		if (c->dry_run) {
			dry_print(c, ATA_OP_SEC_SET_PASSWORD);
			return 0;
		}
		return ata_security_set_password(ops_of(c), c->fd, pw, err, errlen);
	}
	if (c->dry_run) {
		dry_print(c, ATA_OP_SEC_UNLOCK);
		dry_print(c, ATA_OP_SEC_DISABLE_PASSWORD);
		return 0;
	}
	/* Clearing: unlock first where the drive is locked (DISABLE PASSWORD aborts on a locked
	 * drive, ACS-3 7.46.1), then disable. */
	ret = read_caps(c, &caps, err, errlen);
	if (ret)
		return ret;
	if (caps.security_enabled && caps.security_frozen) {
		/* DISABLE PASSWORD aborts in the frozen state (ACS-3 4.18.11, SEC6) */
		snprintf(err, errlen,
			 "%s: the password is set but the drive's security is frozen, which "
			 "refuses SECURITY DISABLE PASSWORD: unfreeze it with a suspend and "
			 "resume or a hot-plug of its SATA cable, then run the restore again",
			 c->path);
		return -EPERM;
	}
	if (caps.security_locked) {
		ret = ata_security_unlock(ops_of(c), c->fd, pw, err, errlen);
		if (ret)
			return ret;
	}
	if (caps.security_enabled)
		ret = ata_security_disable_password(ops_of(c), c->fd, pw, err, errlen);
	return ret;
}

static bool sec_same(struct json_object *a, struct json_object *b)
{
	return member_bool(a, "password_set") == member_bool(b, "password_set") &&
	       member_bool(a, "locked") == member_bool(b, "locked");
}

const struct devchange_kind devchange_kind_security = {
    .name = "security",
    .id_prefix = "sec",
    .read = sec_read,
    .describe = sec_describe,
    .send = sec_send,
    .same = sec_same,
};
