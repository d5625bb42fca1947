// SPDX-License-Identifier: MIT
/*
 * devchange_hpa: the "hpa" kind's row (see devchange_hpa.h). Every function re-reads the drive
 * (IDENTIFY and the native max) because the method and the native max are the drive's, not
 * the journal's: a restore after a power cycle must see what the drive says now.
 */
#include "targets/devchange_hpa.h"

#include <errno.h>
#include <json-c/json.h>
#include <string.h>

#include "host/ata_hpa.h"

static const struct ioctl_ops *ops_of(const struct devchange_ctx *c)
{
	return c->ops ? c->ops : &ioctl_ops_real;
}

struct json_object *devchange_hpa_value(uint64_t max_lba, uint64_t native_max_lba,
					bool volatile_value)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (json_object_object_add(o, "max_lba", json_object_new_uint64(max_lba)) ||
	    json_object_object_add(o, "native_max_lba", json_object_new_uint64(native_max_lba)) ||
	    json_object_object_add(o, "volatile", json_object_new_boolean(volatile_value))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

int devchange_hpa_parse(struct json_object *v, uint64_t *max_lba, uint64_t *native_max_lba,
			bool *volatile_value)
{
	struct json_object *m, *n, *vv;

	if (!json_object_object_get_ex(v, "max_lba", &m) ||
	    !json_object_is_type(m, json_type_int) ||
	    !json_object_object_get_ex(v, "native_max_lba", &n) ||
	    !json_object_is_type(n, json_type_int) ||
	    !json_object_object_get_ex(v, "volatile", &vv) ||
	    !json_object_is_type(vv, json_type_boolean))
		return -EINVAL;
	*max_lba = json_object_get_uint64(m);
	*native_max_lba = json_object_get_uint64(n);
	*volatile_value = json_object_get_boolean(vv);
	return 0;
}

static int hpa_read(const struct devchange_ctx *c, struct json_object **value, char *err,
		    size_t errlen)
{
	struct ata_hpa_state st;
	struct json_object *v;
	int ret;

	if (c->transport != DRIVEDB_ATA) {
		snprintf(err, errlen,
			 "%s: HPA is a SATA setting (NVMe over-provisioning is by namespace)",
			 c->path);
		return -EOPNOTSUPP;
	}
	ret = ata_hpa_probe(ops_of(c), c->fd, &st, err, errlen);
	if (ret)
		return ret;
	v = devchange_hpa_value(st.current_max_lba, st.native_max_lba, false);
	if (!v) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	*value = v;
	return 0;
}

/* The commands that set max on a drive of method m, on one line (the journal's "command"). */
static void describe_method(enum ata_hpa_method m, uint64_t max, bool vol, char *cmd, size_t cmdlen)
{
	struct ata_cmd ac =
	    m == ATA_HPA_AMAC ? ata_cmd_set_accessible_max_ext(max) : ata_cmd_set_max_ext(max, vol);

	if (m == ATA_HPA_HPA) {
		int n = snprintf(cmd, cmdlen, "READ NATIVE MAX ADDRESS EXT, then ");
		if (n < 0 || (size_t)n >= cmdlen)
			return;
		cmd += n, cmdlen -= (size_t)n;
	}
	ata_cmd_describe(&ac, cmd, cmdlen);
}

static int hpa_describe(const struct devchange_ctx *c, struct json_object *to, char *cmd,
			size_t cmdlen)
{
	struct ata_hpa_state st;
	uint64_t max, native;
	bool vol;
	char err[256];
	int ret;

	if (devchange_hpa_parse(to, &max, &native, &vol)) {
		snprintf(cmd, cmdlen, "(a bad hpa value)");
		return -EINVAL;
	}
	if (c->dry_run) {
		/* nothing is sent in a dry run, IDENTIFY included: the method a volatile value
		 * implies (AMAC has none), else both */
		if (vol) {
			describe_method(ATA_HPA_HPA, max, vol, cmd, cmdlen);
		} else {
			snprintf(cmd, cmdlen,
				 "SET MAX ADDRESS EXT (HPA, VV set) or SET ACCESSIBLE MAX "
				 "ADDRESS EXT (AMAC), max LBA %llu",
				 (unsigned long long)max);
		}
		return 0;
	}
	ret = ata_hpa_probe(ops_of(c), c->fd, &st, err, sizeof err);
	if (ret) {
		snprintf(cmd, cmdlen, "%s", err);
		return ret;
	}
	describe_method(st.method, max, vol, cmd, cmdlen);
	return 0;
}

static int hpa_send(const struct devchange_ctx *c, struct json_object *to, char *err, size_t errlen)
{
	struct ata_hpa_state st;
	uint64_t max, native;
	bool vol;
	int ret;

	if (devchange_hpa_parse(to, &max, &native, &vol)) {
		snprintf(err, errlen, "hpa: the value lacks max_lba, native_max_lba or volatile");
		return -EINVAL;
	}
	if (c->dry_run) {
		FILE *f = c->dry_out ? c->dry_out : stdout;
		/* no IDENTIFY in a dry run: the commands of each method the value allows */
		if (!vol)
			fprintf(f, "on an HPA drive:\n");
		ret = ata_hpa_set(NULL, -1, ATA_HPA_HPA, max, vol, true, f, err, errlen);
		if (!ret && !vol) {
			fprintf(f, "on an AMAC drive (ACS-3):\n");
			ret = ata_hpa_set(NULL, -1, ATA_HPA_AMAC, max, vol, true, f, err, errlen);
		}
		return ret;
	}
	ret = ata_hpa_probe(ops_of(c), c->fd, &st, err, errlen);
	if (ret)
		return ret;
	/* an existing HPA is allowed here: the caller refused a foreign one before journaling,
	 * and a restore undoes ssdlab's own */
	ret = ata_hpa_refusal(&st, false, max, vol, true, err, errlen);
	if (ret)
		return ret;
	if (native != st.native_max_lba) {
		snprintf(err, errlen,
			 "the drive's native max LBA is %llu, the value says %llu: not the same "
			 "drive layout, nothing sent",
			 (unsigned long long)st.native_max_lba, (unsigned long long)native);
		return -ESTALE;
	}
	return ata_hpa_set(ops_of(c), c->fd, st.method, max, vol, false, NULL, err, errlen);
}

static bool hpa_same(struct json_object *a, struct json_object *b)
{
	uint64_t ma, na, mb, nb;
	bool va, vb;

	if (devchange_hpa_parse(a, &ma, &na, &va) || devchange_hpa_parse(b, &mb, &nb, &vb))
		return false;
	return ma == mb;
}

/* SET MAX ADDRESS EXT with VV set, and every AMAC set, survive a power cycle */
static bool hpa_persistent(struct json_object *to)
{
	uint64_t m, n;
	bool v;

	return !devchange_hpa_parse(to, &m, &n, &v) && !v;
}

const struct devchange_kind devchange_kind_hpa = {
    .name = "hpa",
    .id_prefix = "hpa",
    .read = hpa_read,
    .describe = hpa_describe,
    .send = hpa_send,
    .same = hpa_same,
    .persistent = hpa_persistent,
};
