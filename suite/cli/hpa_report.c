// SPDX-License-Identifier: MIT
/*
 * hpa_report: the text and JSON of `ssdlab hpa DEV` (see hpa_report.h).
 */
#include "cli/hpa_report.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "base/units.h"

int hpa_report_target(const struct ata_hpa_state *st, const char *spec, uint64_t *max_lba,
		      char *err, size_t errlen)
{
	uint64_t native_sectors = st->native_max_lba + 1, sectors, bytes;
	size_t len = strlen(spec);
	double frac;

	if (!st->logical_sector) {
		snprintf(err, errlen, "the drive's logical sector size is unknown");
		return -EINVAL;
	}
	if (len && spec[len - 1] == '%') {
		if (units_parse_percent(spec, &frac) || frac <= 0 || frac > 1) {
			snprintf(err, errlen,
				 "'%s': a percentage of the native capacity, 0%% < P <= 100%%",
				 spec);
			return -EINVAL;
		}
		/* the small term absorbs binary rounding (80% of 1,000,000 is 800,000, not 799,999)
		 */
		sectors = (uint64_t)floor((double)native_sectors * frac + 1e-6);
	} else {
		if (units_parse_size(spec, &bytes)) {
			snprintf(err, errlen,
				 "'%s': a size such as 200g or a percentage such as 80%%", spec);
			return -EINVAL;
		}
		sectors = bytes / st->logical_sector;
	}
	if (sectors == 0) {
		snprintf(err, errlen, "'%s' is less than one %u-byte sector", spec,
			 st->logical_sector);
		return -ERANGE;
	}
	if (sectors > native_sectors) {
		snprintf(err, errlen, "'%s' is more than the drive's native capacity (%llu bytes)",
			 spec, (unsigned long long)(native_sectors * st->logical_sector));
		return -ERANGE;
	}
	*max_lba = sectors - 1;
	return 0;
}

static void lba_line(FILE *f, const char *label, uint64_t max_lba, uint32_t sector)
{
	fprintf(f, "  %-13s LBA %llu (%llu sectors, %llu bytes)\n", label,
		(unsigned long long)max_lba, (unsigned long long)(max_lba + 1),
		(unsigned long long)((max_lba + 1) * sector));
}

void hpa_report_text(FILE *f, const char *path, const struct ata_hpa_state *st)
{
	fprintf(f, "%s: %s (serial %s)\n", path, st->model, st->serial);
	fprintf(f, "  %-13s %s\n", "method",
		st->method == ATA_HPA_AMAC
		    ? "AMAC (ACS-3 Accessible Max Address Configuration; persistent only)"
		: st->method == ATA_HPA_HPA
		    ? "HPA (SET MAX ADDRESS EXT; volatile by default, or persistent)"
		    : "none (the capacity cannot be changed)");
	lba_line(f, "native max", st->native_max_lba, st->logical_sector);
	lba_line(f, "current max", st->current_max_lba, st->logical_sector);
	if (st->current_max_lba < st->native_max_lba)
		fprintf(f, "  %-13s %llu bytes (an accessible max below the native max)\n",
			"hidden", (unsigned long long)st->hidden_bytes);
	else
		fprintf(f, "  %-13s 0 bytes (no host protected area)\n", "hidden");
	if (!st->dco_supported)
		fprintf(f, "  %-13s not supported\n", "DCO");
	else if (!st->dco_known)
		fprintf(f, "  %-13s supported, not read: %s\n", "DCO", st->dco_why);
	else
		fprintf(f, "  %-13s max LBA %llu%s\n", "DCO", (unsigned long long)st->dco_max_lba,
			st->dco_limits
			    ? " (the overlay limits the native max: capacity hidden by DCO)"
			    : " (no limit below the native max)");
	fprintf(f, "  %-13s %s\n", "security",
		st->security_locked ? "locked"
		: st->security_frozen
		    ? "frozen (capacity changes refused until a suspend/resume or hot-plug)"
		    : "not frozen, not locked");
}

/* v NULL is an allocation that failed; a JSON null is added with null_ok (json-c's null is
 * the NULL pointer) */
static int add_v(struct json_object *o, const char *k, struct json_object *v, bool null_ok)
{
	if (!v && !null_ok)
		return -ENOMEM;
	if (json_object_object_add(o, k, v)) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

static int add(struct json_object *o, const char *k, struct json_object *v)
{
	return add_v(o, k, v, false);
}

struct json_object *hpa_report_json(const char *path, const struct ata_hpa_state *st,
				    const char *refusal)
{
	struct json_object *o = json_object_new_object(), *dco = json_object_new_object(),
			   *sec = json_object_new_object();
	int r = 0;

	if (!o || !dco || !sec)
		goto fail;
	r |= add(dco, "supported", json_object_new_boolean(st->dco_supported));
	r |= add(dco, "known", json_object_new_boolean(st->dco_known));
	r |= add_v(dco, "max_lba", st->dco_known ? json_object_new_uint64(st->dco_max_lba) : NULL,
		   !st->dco_known);
	r |= add(dco, "limits", json_object_new_boolean(st->dco_limits));
	r |= add(sec, "frozen", json_object_new_boolean(st->security_frozen));
	r |= add(sec, "locked", json_object_new_boolean(st->security_locked));
	r |= add(o, "schema", json_object_new_int(1));
	r |= add(o, "device", json_object_new_string(path));
	r |= add(o, "model", json_object_new_string(st->model));
	r |= add(o, "serial", json_object_new_string(st->serial));
	r |= add(o, "method", json_object_new_string(ata_hpa_method_name(st->method)));
	r |= add(o, "logical_sector", json_object_new_uint64(st->logical_sector));
	r |= add(o, "native_max_lba", json_object_new_uint64(st->native_max_lba));
	r |= add(o, "current_max_lba", json_object_new_uint64(st->current_max_lba));
	r |= add(o, "hidden_bytes", json_object_new_uint64(st->hidden_bytes));
	r |= add(o, "dco", dco);
	dco = NULL;
	r |= add(o, "security", sec);
	sec = NULL;
	r |= add_v(o, "refusal", refusal ? json_object_new_string(refusal) : NULL, !refusal);
	if (r)
		goto fail;
	return o;
fail:
	json_object_put(dco);
	json_object_put(sec);
	json_object_put(o);
	return NULL;
}
