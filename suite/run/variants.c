/* SPDX-License-Identifier: MIT */
/*
 * variants: the capacity changes of a `variants` phase (run/variants.h): the virtual SSD's
 * capacity setting or a discarded, never-written tail, and their undoing.
 */
#include "run/variants.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/units.h"
#include "run/drive_settings.h"
#include "targets/devchange.h"
#include "targets/devchange_hpa.h"
#include "targets/devchange_nvme_ns.h"
#include "targets/target.h"

/* Appends "method: reason" to the skipped list (auto's record of what it passed by). */
static void skip(struct variants_state *s, const char *method, const char *why)
{
	size_t l = strlen(s->skipped);

	snprintf(s->skipped + l, sizeof(s->skipped) - l, "%s%s: %s", l ? "; " : "", method, why);
}

/* 0 when the run's drive can have its capacity changed by method m (hpa or namespace), else
 * -EOPNOTSUPP (or the drive's -errno) with the reason in err. Sends only reads. */
static int drive_can(struct drive_settings *ds, enum variant_method m, char *err, size_t len)
{
	const struct devchange_ctx *c;
	struct json_object *v = NULL;
	int rc;

	if (!ds) {
		snprintf(err, len, "not a drive");
		return -EOPNOTSUPP;
	}
	c = drive_settings_change_ctx(ds, err, len);
	if (!c)
		return -EOPNOTSUPP;
	if (m == VARIANT_NAMESPACE) {
		if (c->transport != DRIVEDB_NVME) {
			snprintf(err, len, "not an NVMe drive");
			return -EOPNOTSUPP;
		}
		return devchange_nvme_ns_supported(c, err, len);
	}
	if (c->transport != DRIVEDB_ATA) {
		snprintf(err, len, "not a SATA drive");
		return -EOPNOTSUPP;
	}
	/* the kind's read answers -EOPNOTSUPP when the drive has neither HPA nor AMAC */
	rc = devchange_kind_hpa.read(c, &v, err, len);
	json_object_put(v);
	return rc;
}

int variants_begin(struct target *t, struct drive_settings *ds, const struct phase_variants *v,
		   struct variants_state *s, char *err, size_t len)
{
	unsigned caps = target_caps(t);
	enum variant_method m = v->method;
	struct variants_state n = {0};
	char why[256] = "";

	if (m == VARIANT_AUTO) {
		/* sim first (exact), then the drive's own resizes (the flash unmapped really is
		 * spare), then the trimmed tail (spare only where TRIM is honoured) */
		if (caps & TARGET_CAP_SET_CAPACITY)
			m = VARIANT_SIM;
		else
			skip(&n, "sim", "not a virtual SSD");
		if (m == VARIANT_AUTO) {
			if (!drive_can(ds, VARIANT_NAMESPACE, why, sizeof(why)))
				m = VARIANT_NAMESPACE;
			else
				skip(&n, "namespace", why);
		}
		if (m == VARIANT_AUTO) {
			if (!drive_can(ds, VARIANT_HPA, why, sizeof(why)))
				m = VARIANT_HPA;
			else
				skip(&n, "hpa", why);
		}
		if (m == VARIANT_AUTO)
			m = VARIANT_TRIM_TAIL;
	}
	if (m == VARIANT_SIM && !(caps & TARGET_CAP_SET_CAPACITY)) {
		snprintf(err, len,
			 "variants: method sim needs a target that sets its capacity "
			 "(the virtual SSD)");
		return -EOPNOTSUPP;
	}
	if ((m == VARIANT_HPA || m == VARIANT_NAMESPACE) && v->method != VARIANT_AUTO) {
		int rc = drive_can(ds, m, why, sizeof(why));

		if (rc) {
			snprintf(err, len, "variants: method %s: %s", phase_variant_method_name(m),
				 why);
			return rc;
		}
	}
	/* hpa and namespace discard the whole device before each variant */
	if (m != VARIANT_SIM && !(caps & TARGET_CAP_DISCARD)) {
		snprintf(err, len, "variants: method %s needs a target that discards",
			 phase_variant_method_name(m));
		return -EOPNOTSUPP;
	}
	n.method = m;
	n.ds = m == VARIANT_HPA || m == VARIANT_NAMESPACE ? ds : NULL;
	n.orig_capacity = target_info(t)->capacity;
	n.size = n.orig_capacity;
	*s = n;
	return 0;
}

/* The devchange value that sets the drive's capacity to size bytes: a new object in *to. */
static int drive_value(struct target *t, const struct devchange_ctx *c, enum variant_method m,
		       uint64_t size, struct json_object **to, char *err, size_t len)
{
	struct json_object *cur = NULL;
	uint64_t max_lba, native;
	uint32_t lbs = target_info(t)->logical_block_size;
	bool vol;
	int rc;

	if (m == VARIANT_NAMESPACE)
		return devchange_nvme_ns_shrunk(c, size, to, err, len);
	rc = devchange_kind_hpa.read(c, &cur, err, len);
	if (rc)
		return rc;
	rc = devchange_hpa_parse(cur, &max_lba, &native, &vol);
	json_object_put(cur);
	if (rc) {
		snprintf(err, len, "the drive's HPA value is malformed");
		return rc;
	}
	/* volatile: a power cycle gives the whole capacity back even if the restore never ran */
	*to = devchange_hpa_value(size / (lbs ? lbs : 512) - 1, native, true);
	if (!*to) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

/*
 * namespace: the namespace the target had open was deleted and created again, so its handle
 * refers to the deleted one; the target is opened again and must now have `want` bytes (what
 * the rescan told the kernel). 0, or -errno with the reason in err.
 */
static int reopen_check(struct target *t, uint64_t want, char *err, size_t len)
{
	int rc = target_reopen(t);

	if (rc) {
		snprintf(err, len, "variants: opening %s again after the namespace change: %s",
			 target_info(t)->path, target_error(t));
		return rc;
	}
	if (target_info(t)->capacity != want) {
		snprintf(err, len,
			 "variants: after the namespace change %s has %llu bytes, not %llu",
			 target_info(t)->path, (unsigned long long)target_info(t)->capacity,
			 (unsigned long long)want);
		return -EIO;
	}
	return 0;
}

/* hpa, namespace: the whole device discarded (what the previous variant made visible), then
 * the new capacity set through the journal, then anything newly visible discarded too. */
static int drive_apply(struct target *t, struct variants_state *s, uint64_t size, char *err,
		       size_t len)
{
	const struct devchange_ctx *c;
	struct json_object *to = NULL;
	char e[384] = "";
	int rc;

	rc = target_discard(t, 0, s->size);
	if (rc) {
		snprintf(err, len, "variants: discarding the device (%llu bytes): %s",
			 (unsigned long long)s->size, target_error(t));
		return rc;
	}
	if (size == s->size)
		return 0;
	c = drive_settings_change_ctx(s->ds, e, sizeof(e));
	if (!c) {
		snprintf(err, len, "variants: the journal: %s", e);
		return -EIO;
	}
	rc = drive_value(t, c, s->method, size, &to, e, sizeof(e));
	if (rc) {
		snprintf(err, len, "variants: the %s value for %llu bytes: %s",
			 phase_variant_method_name(s->method), (unsigned long long)size, e);
		return rc;
	}
	/* changed first: a failed set may still have changed the drive; the restore reads the
	 * journal, which has the entry whatever happened */
	s->changed = true;
	rc = devchange_set(c,
			   s->method == VARIANT_HPA ? devchange_kind_hpa.name
						    : devchange_kind_nvme_namespace.name,
			   to, e, sizeof(e));
	json_object_put(to);
	if (rc) {
		snprintf(err, len, "variants: setting the capacity to %llu bytes (%s): %s",
			 (unsigned long long)size, phase_variant_method_name(s->method), e);
		return rc;
	}
	if (s->method == VARIANT_NAMESPACE) {
		rc = reopen_check(t, size, err, len);
		if (rc)
			return rc;
	}
	if (size > s->size) {
		rc = target_discard(t, s->size, size - s->size);
		if (rc) {
			snprintf(err, len, "variants: discarding the grown tail: %s",
				 target_error(t));
			return rc;
		}
	}
	return 0;
}

int variants_apply(struct target *t, const struct phase_variants *v, unsigned i,
		   struct variants_state *s, char *err, size_t len)
{
	uint64_t size = units_fraction_floor(s->orig_capacity, v->fraction[i], VARIANTS_ALIGN);
	int rc;

	if (!size) {
		snprintf(err, len, "variants: %.4g%% of the capacity is less than %llu bytes",
			 v->fraction[i] * 100.0, (unsigned long long)VARIANTS_ALIGN);
		return -EINVAL;
	}
	if (s->method == VARIANT_HPA || s->method == VARIANT_NAMESPACE) {
		rc = drive_apply(t, s, size, err, len);
		if (rc)
			return rc;
		/* the kernel's block device keeps its old size: the workloads are confined */
		s->limit = size < s->orig_capacity ? size : 0;
	} else if (s->method == VARIANT_SIM) {
		/* mark it changed first: a failed set may still have unmapped part of the tail */
		s->changed = true;
		rc = target_set_capacity(t, size);
		if (rc) {
			snprintf(err, len, "variants: setting the capacity to %llu bytes: %s",
				 (unsigned long long)size, target_error(t));
			return rc;
		}
		s->changed = size != s->orig_capacity;
		s->limit = 0;
	} else {
		/* LBAs written by an earlier variant past the new end would stay mapped (not spare)
		 * if the body's purge is no full discard: discard them here too */
		if (size < s->orig_capacity) {
			rc = target_discard(t, size, s->orig_capacity - size);
			if (rc) {
				snprintf(err, len,
					 "variants: discarding the tail past %llu bytes: %s",
					 (unsigned long long)size, target_error(t));
				return rc;
			}
		}
		s->limit = size < s->orig_capacity ? size : 0;
	}
	s->size = size;
	return 0;
}

int variants_restore(struct target *t, struct variants_state *s, char *err, size_t len)
{
	int rc;

	s->limit = 0;
	if (!s->changed)
		return 0;
	if (s->method == VARIANT_HPA || s->method == VARIANT_NAMESPACE) {
		rc = drive_settings_restore_kind(s->ds,
						 s->method == VARIANT_HPA
						     ? devchange_kind_hpa.name
						     : devchange_kind_nvme_namespace.name,
						 err, len);
		if (rc)
			return rc;
		s->changed = false;
		s->size = s->orig_capacity;
		return s->method == VARIANT_NAMESPACE ? reopen_check(t, s->orig_capacity, err, len)
						     : 0;
	}
	if (s->method != VARIANT_SIM)
		return 0;
	rc = target_set_capacity(t, s->orig_capacity);
	if (rc) {
		snprintf(err, len, "variants: restoring the capacity of %llu bytes: %s",
			 (unsigned long long)s->orig_capacity, target_error(t));
		return rc;
	}
	s->changed = false;
	s->size = s->orig_capacity;
	return 0;
}

uint64_t variants_spare_added(const struct variants_state *s)
{
	return s->orig_capacity - s->size;
}
