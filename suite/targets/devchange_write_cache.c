/* SPDX-License-Identifier: MIT */
/*
 * devchange_write_cache: the drive's volatile write cache, on or off (issue 13 point 6: PTS
 * Enterprise runs with it off, Client with it on). Value: {"enabled": bool}.
 *
 *   SATA: SET FEATURES (0xEF) subcommand 0x02 enables, 0x82 disables the volatile write cache
 *         (ACS-3 7.45.5), a non-data command sent as ATA PASS-THROUGH(16); read back from
 *         IDENTIFY DEVICE word 85 bit 5 (ACS-3 table 45). The setting lasts until the next
 *         power cycle or hard reset unless the drive keeps it (ACS-3 says it may revert to the
 *         default after a reset, hence the phase-boundary re-check).
 *   NVMe: Set Features (0x09) FID 0x06 Volatile Write Cache, CDW11 bit 0 WCE, CDW10 bit 31 (SV,
 *         save) clear so that nothing survives a reset (NVMe Base 2.0 5.27.1.4); read back with
 *         Get Features 0x06 (current). The feature is controller-wide: nsid 0.
 */
#include "targets/devchange.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/errmsg.h"
#include "host/ata_cmd.h"
#include "host/ata_identify.h"
#include "host/nvme_admin.h"
#include "host/nvme_ident.h"

#define ATA_OP_SET_FEATURES 0xef
#define ATA_SF_WCACHE_ON 0x02
#define ATA_SF_WCACHE_OFF 0x82
#define NVME_ADMIN_SET_FEATURES 0x09

static const struct ioctl_ops *ops_of(const struct devchange_ctx *c)
{
	return c->ops ? c->ops : &ioctl_ops_real;
}

/* {"enabled": bool}'s value; -1 when the value has another shape. */
static int enabled_of(struct json_object *v)
{
	struct json_object *e = NULL;

	if (!v || !json_object_object_get_ex(v, "enabled", &e) ||
	    !json_object_is_type(e, json_type_boolean))
		return -1;
	return json_object_get_boolean(e);
}

static int value(bool on, struct json_object **out, char *err, size_t errlen)
{
	struct json_object *o = json_object_new_object();

	if (!o || json_object_object_add(o, "enabled", json_object_new_boolean(on))) {
		json_object_put(o);
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	}
	*out = o;
	return 0;
}

static struct ata_cmd ata_set_cache(bool on)
{
	return (struct ata_cmd){.name = on ? "SET FEATURES (enable volatile write cache)"
					   : "SET FEATURES (disable volatile write cache)",
				.command = ATA_OP_SET_FEATURES,
				.feature = on ? ATA_SF_WCACHE_ON : ATA_SF_WCACHE_OFF,
				.protocol = ATA_PROTO_NONDATA};
}

static void nvme_set_cache(struct nvme_admin_cmd *cmd, bool on)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->opcode = NVME_ADMIN_SET_FEATURES;
	cmd->cdw10 = NVME_FEAT_VWC; /* bit 31 SV clear: not saved across a reset */
	cmd->cdw11 = on ? 1u : 0u;
}

static int wc_read(const struct devchange_ctx *c, struct json_object **out, char *err,
		   size_t errlen)
{
	if (c->transport == DRIVEDB_NVME) {
		int r = nvme_feature_enabled(ops_of(c), c->fd, NVME_FEAT_VWC, err, errlen);

		if (r == -EOPNOTSUPP)
			return errmsg_set(err, errlen, r,
					  "%s has no volatile write cache (Get Features 0x06 "
					  "refused)",
					  c->path);
		if (r < 0)
			return r;
		return value(r == 1, out, err, errlen);
	}
	{
		uint8_t id[ATA_IDENTIFY_LEN];
		struct ata_identity d;
		int rc = ata_identify_read(ops_of(c), c->fd, id, err, errlen);

		if (rc)
			return rc;
		ata_identify_decode(id, &d);
		if (!d.write_cache_supported)
			return errmsg_set(err, errlen, -EOPNOTSUPP,
					  "%s has no volatile write cache (IDENTIFY "
					  "word 82 bit 5 clear)",
					  c->path);
		return value(d.write_cache_enabled, out, err, errlen);
	}
}

static int wc_describe(const struct devchange_ctx *c, struct json_object *to, char *cmd,
		       size_t cmdlen)
{
	int on = enabled_of(to);

	if (on < 0)
		return snprintf(cmd, cmdlen, "write_cache: a value without \"enabled\"");
	if (c->transport == DRIVEDB_NVME) {
		struct nvme_admin_cmd a;

		nvme_set_cache(&a, on);
		nvme_cmd_describe(&a, cmd, cmdlen);
		return (int)strlen(cmd);
	}
	{
		struct ata_cmd a = ata_set_cache(on);

		return ata_cmd_describe(&a, cmd, cmdlen);
	}
}

static int wc_send(const struct devchange_ctx *c, struct json_object *to, char *err, size_t errlen)
{
	int on = enabled_of(to);
	char line[JOURNAL_COMMAND_MAX];

	if (on < 0)
		return errmsg_set(err, errlen, -EINVAL, "write_cache: a value without \"enabled\"");
	if (c->dry_run) {
		wc_describe(c, to, line, sizeof(line));
		fprintf(c->dry_out ? c->dry_out : stdout, "  %s\n", line);
		return 0;
	}
	if (c->transport == DRIVEDB_NVME) {
		struct nvme_admin_cmd a;

		nvme_set_cache(&a, on);
		return nvme_admin_send(ops_of(c), c->fd, &a,
				       "Set Features 0x06 (volatile write cache)", err, errlen);
	}
	{
		struct ata_cmd a = ata_set_cache(on);

		return ata_cmd_send(ops_of(c), c->fd, &a, NULL, NULL, err, errlen);
	}
}

static bool wc_same(struct json_object *a, struct json_object *b)
{
	int x = enabled_of(a), y = enabled_of(b);

	return x >= 0 && x == y;
}

const struct devchange_kind devchange_kind_write_cache = {
    .name = "write_cache",
    .id_prefix = "wc",
    .read = wc_read,
    .describe = wc_describe,
    .send = wc_send,
    .same = wc_same,
};
