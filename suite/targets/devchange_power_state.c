/* SPDX-License-Identifier: MIT */
/*
 * devchange_power_state: the power states that change a drive's idle behaviour (issue 13 point
 * 7), pinned for idle-recovery tests: a drive that drops into a low-power state when idle does
 * less background garbage collection, or none, and takes time to wake.
 *
 *   NVMe: Autonomous Power State Transition (Set/Get Features FID 0x0C, NVMe Base 2.0 5.27.1.6):
 *         CDW11 bit 0 APSTE, and a 256-byte data structure of 32 transition entries (8 bytes
 *         each: idle time prior to transition, idle transition power state). Value {"apst":
 *         bool, "table": "<512 hex digits>"}: the table as found is kept and written back with
 *         the enable bit, so that a restore puts back the host's transitions (the kernel writes
 *         its own at probe and after a reset). SV (save) is never set.
 *   SATA: the host's Aggressive Link Power Management policy, the kernel's
 *         /sys/class/scsi_host/hostN/link_power_management_policy ("max_performance",
 *         "medium_power", "med_power_with_dipm", "min_power", "keep_firmware_settings"). Value
 *         {"alpm": "policy", "devslp": bool|null}: DEVSLP enabled as IDENTIFY word 79 bit 8 says
 *         (recorded only: libata enables it with the min_power policy; null when unknown).
 * "off" is APST disabled / ALPM max_performance.
 */
#include "targets/devchange.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/errmsg.h"
#include "host/ata_identify.h"
#include "host/nvme_admin.h"
#include "host/nvme_ident.h"

#define NVME_ADMIN_SET_FEATURES 0x09

static const struct ioctl_ops *ops_of(const struct devchange_ctx *c)
{
	return c->ops ? c->ops : &ioctl_ops_real;
}

static const char *str_member(struct json_object *v, const char *key)
{
	struct json_object *m = NULL;

	if (!v || !json_object_object_get_ex(v, key, &m) ||
	    !json_object_is_type(m, json_type_string))
		return NULL;
	return json_object_get_string(m);
}

/* The boolean member key: 1/0, -1 absent or not a bool. */
static int bool_member(struct json_object *v, const char *key)
{
	struct json_object *m = NULL;

	if (!v || !json_object_object_get_ex(v, key, &m) ||
	    !json_object_is_type(m, json_type_boolean))
		return -1;
	return json_object_get_boolean(m);
}

/* The APST table from its hex form; 0, or -EINVAL when it is not 512 hex digits. */
static int table_of(struct json_object *v, uint8_t t[NVME_APST_TABLE_LEN])
{
	const char *h = str_member(v, "table");

	if (!h || strlen(h) != 2 * NVME_APST_TABLE_LEN)
		return -EINVAL;
	for (size_t i = 0; i < NVME_APST_TABLE_LEN; i++) {
		unsigned x;

		if (sscanf(h + 2 * i, "%2x", &x) != 1)
			return -EINVAL;
		t[i] = (uint8_t)x;
	}
	return 0;
}

static void set_apst_cmd(struct nvme_admin_cmd *cmd, bool on, uint8_t *table)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->opcode = NVME_ADMIN_SET_FEATURES; /* bits 1:0 = 01: data from the host */
	cmd->cdw10 = NVME_FEAT_APST;	       /* SV (bit 31) clear */
	cmd->cdw11 = on ? 1u : 0u;
	cmd->addr = (uint64_t)(uintptr_t)table;
	cmd->data_len = NVME_APST_TABLE_LEN;
}

static int read_nvme(const struct devchange_ctx *c, struct json_object **out, char *err,
		     size_t errlen)
{
	_Alignas(4096) uint8_t table[NVME_APST_TABLE_LEN];
	char hex[2 * NVME_APST_TABLE_LEN + 1];
	struct nvme_admin_cmd cmd;
	struct json_object *o;
	int rc;

	memset(table, 0, sizeof(table));
	nvme_get_features_cmd(&cmd, NVME_FEAT_APST, table, sizeof(table));
	rc = nvme_admin_send(ops_of(c), c->fd, &cmd, "Get Features 0x0c (APST)", err, errlen);
	if (rc == -EOPNOTSUPP)
		return errmsg_set(err, errlen, rc,
				  "%s has no autonomous power state transitions (Get Features "
				  "0x0c refused)",
				  c->path);
	if (rc)
		return rc;
	for (size_t i = 0; i < sizeof(table); i++)
		snprintf(hex + 2 * i, 3, "%02x", table[i]);
	o = json_object_new_object();
	if (!o || json_object_object_add(o, "apst", json_object_new_boolean(cmd.result & 1)) ||
	    json_object_object_add(o, "table", json_object_new_string(hex))) {
		json_object_put(o);
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	}
	*out = o;
	return 0;
}

static int read_sata(const struct devchange_ctx *c, struct json_object **out, char *err,
		     size_t errlen)
{
	uint8_t id[ATA_IDENTIFY_LEN];
	char policy[64] = "", ierr[256];
	struct json_object *o;
	ssize_t n;
	int fd, devslp = -1;

	if (!c->alpm_path)
		return errmsg_set(err, errlen, -EOPNOTSUPP,
				  "%s: no link power management policy (not on a "
				  "SATA host the kernel manages)",
				  c->path);
	fd = open(c->alpm_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errmsg_set(err, errlen, -errno, "%s: %s", c->alpm_path, strerror(errno));
	n = read(fd, policy, sizeof(policy) - 1);
	close(fd);
	if (n <= 0)
		return errmsg_set(err, errlen, n < 0 ? -errno : -EIO, "%s: cannot read the policy",
				  c->alpm_path);
	policy[n] = '\0';
	policy[strcspn(policy, "\n")] = '\0';
	/* DEVSLP is recorded where the drive says; a drive that does not answer leaves it null. */
	if (!ata_identify_read(ops_of(c), c->fd, id, ierr, sizeof(ierr))) {
		struct ata_identity d;

		ata_identify_decode(id, &d);
		devslp = d.devslp_supported ? d.devslp_enabled : -1;
	}
	o = json_object_new_object();
	if (!o || json_object_object_add(o, "alpm", json_object_new_string(policy)) ||
	    json_object_object_add(o, "devslp",
				   devslp < 0 ? NULL : json_object_new_boolean(devslp))) {
		json_object_put(o);
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	}
	*out = o;
	return 0;
}

static int ps_read(const struct devchange_ctx *c, struct json_object **out, char *err,
		   size_t errlen)
{
	return c->transport == DRIVEDB_NVME ? read_nvme(c, out, err, errlen)
					    : read_sata(c, out, err, errlen);
}

static int ps_describe(const struct devchange_ctx *c, struct json_object *to, char *cmd,
		       size_t cmdlen)
{
	if (c->transport == DRIVEDB_NVME) {
		struct nvme_admin_cmd a;

		set_apst_cmd(&a, bool_member(to, "apst") == 1, NULL);
		nvme_cmd_describe(&a, cmd, cmdlen);
		return (int)strlen(cmd);
	}
	return snprintf(cmd, cmdlen, "write \"%s\" to %s",
			str_member(to, "alpm") ? str_member(to, "alpm") : "?",
			c->alpm_path ? c->alpm_path : "(no link_power_management_policy)");
}

static int ps_send(const struct devchange_ctx *c, struct json_object *to, char *err, size_t errlen)
{
	char line[JOURNAL_COMMAND_MAX];

	if (c->transport == DRIVEDB_NVME ? bool_member(to, "apst") < 0 : !str_member(to, "alpm"))
		return errmsg_set(err, errlen, -EINVAL, "power_state: a value without \"%s\"",
				  c->transport == DRIVEDB_NVME ? "apst" : "alpm");
	if (c->dry_run) {
		ps_describe(c, to, line, sizeof(line));
		fprintf(c->dry_out ? c->dry_out : stdout, "  %s\n", line);
		return 0;
	}
	if (c->transport == DRIVEDB_NVME) {
		_Alignas(4096) uint8_t table[NVME_APST_TABLE_LEN];
		struct nvme_admin_cmd a;

		if (table_of(to, table))
			return errmsg_set(err, errlen, -EINVAL,
					  "power_state: no APST table (512 hex digits) to "
					  "write back");
		set_apst_cmd(&a, bool_member(to, "apst") == 1, table);
		return nvme_admin_send(ops_of(c), c->fd, &a, "Set Features 0x0c (APST)", err,
				       errlen);
	}
	{
		const char *p = str_member(to, "alpm");
		int fd = c->alpm_path ? open(c->alpm_path, O_WRONLY | O_TRUNC | O_CLOEXEC) : -1;
		ssize_t w;

		if (fd < 0)
			return errmsg_set(err, errlen, c->alpm_path ? -errno : -EOPNOTSUPP,
					  "%s: %s", c->alpm_path ? c->alpm_path : c->path,
					  c->alpm_path ? strerror(errno)
						       : "no link power management policy");
		w = write(fd, p, strlen(p));
		if (w < 0) {
			int e = errno;

			close(fd);
			return errmsg_set(err, errlen, -e, "%s: writing \"%s\": %s", c->alpm_path,
					  p, strerror(e));
		}
		close(fd);
		return 0;
	}
}

static bool ps_same(struct json_object *a, struct json_object *b)
{
	const char *x = str_member(a, "alpm"), *y = str_member(b, "alpm");
	const char *ta = str_member(a, "table"), *tb = str_member(b, "table");

	if (x || y)
		return x && y && !strcmp(x, y);
	/* APST: the enable bit, and the table where both have one (what a restore writes back). */
	return bool_member(a, "apst") >= 0 && bool_member(a, "apst") == bool_member(b, "apst") &&
	       (!ta || !tb || !strcmp(ta, tb));
}

const struct devchange_kind devchange_kind_power_state = {
    .name = "power_state",
    .id_prefix = "ps",
    .read = ps_read,
    .describe = ps_describe,
    .send = ps_send,
    .same = ps_same,
};
