// SPDX-License-Identifier: MIT
/*
 * smart_print: what `ssdlab smart` prints for both paths (cmd_smart.c's NVMe and --load,
 * smart_ata.c's live SATA): the snapshot JSON, the ata-smart raw keys and text table, and the
 * "now" snapshot through targets/drive_snapshot.h. Its own file so that the two commands'
 * files both call it and neither calls the other back (no include circle).
 */
#include "cli/smart_print.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/jsonnum.h"


int smart_ata_devstat_json(struct json_object *raw, const struct devcounters *dc, const char *note)
{
	struct json_object *o = json_object_new_object();
	int e = 0;

	if (!o)
		return -ENOMEM;
	for (size_t i = 0; i < dc->n && !e; i++)
		if (!strncmp(dc->c[i].key, DEVSTAT_PREFIX, strlen(DEVSTAT_PREFIX)))
			/* 48-bit values: exact in a double */
			jsonnum_build_num(o, dc->c[i].key + strlen(DEVSTAT_PREFIX), (double)dc->c[i].value, &e);
	jsonnum_build_add(raw, "device_statistics", o, &e);
	if (!e)
		e = jsonnum_add(raw, "device_statistics_note", note && *note ? json_object_new_string(note) : NULL);
	return e;
}

/* The ata-smart snapshot's own raw keys (docs/results-format.md), added to o: identity, SMART
 * status, the attribute table and, for a live drive, the Device Statistics. 0 or -ENOMEM. */
static int ata_raw_add(struct json_object *o, const struct ata_smart *s, const struct devcounters *dc,
		       const char *note)
{
	struct json_object *arr = json_object_new_array();
	int e = 0;

	if (!arr)
		return -ENOMEM;
	jsonnum_build_add(o, "model", json_object_new_string(s->model), &e);
	jsonnum_build_add(o, "serial", json_object_new_string(s->serial), &e);
	jsonnum_build_add(o, "firmware", json_object_new_string(s->firmware), &e);
	if (s->status_valid)
		jsonnum_build_add(o, "smart_status", json_object_new_string(s->status_good ? "good" : "bad"), &e);
	else
		jsonnum_build_num(o, "smart_status", NAN, &e); /* not in the blob: null */
	for (size_t i = 0; i < s->n && !e; i++) {
		const struct ata_smart_attr *a = &s->a[i];
		struct json_object *x = json_object_new_object();
		if (!x) {
			e = -ENOMEM;
			break;
		}
		jsonnum_build_num(x, "id", a->id, &e);
		jsonnum_build_add(x, "name", json_object_new_string(a->name), &e);
		jsonnum_build_num(x, "flags", a->flags, &e);
		jsonnum_build_num(x, "current", a->current, &e);
		jsonnum_build_num(x, "worst", a->worst, &e);
		/* no SMTH block: null, as NaN goes out */
		jsonnum_build_num(x, "threshold", a->threshold_valid ? a->threshold : NAN, &e);
		jsonnum_build_num(x, "raw", (double)a->raw, &e); /* 48 bits: exact in a double */
		jsonnum_build_add(x, "unit", json_object_new_string(a->unit), &e);
		jsonnum_build_num(x, "value", a->value, &e);
		jsonnum_build_add(x, "verified", json_object_new_boolean(a->verified), &e);
		if (json_object_array_add(arr, x)) {
			json_object_put(x);
			e = -ENOMEM;
		}
	}
	jsonnum_build_add(o, "attributes", arr, &e);
	if (dc && !e)
		e = smart_ata_devstat_json(o, dc, note);
	return e;
}

/* Prints snap as the snapshot JSON (docs/results-format.md). */
int smart_print_snapshot(const struct snapshot *snap)
{
	struct json_object *o = snapshot_to_json(snap);

	if (!o)
		return -ENOMEM;
	printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
							     JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return 0;
}

int smart_print_ata_json(const struct ata_smart *s, struct snapshot *snap, const struct devcounters *dc,
			 const char *devstat_note)
{
	int ret = ata_raw_add(snap->raw, s, dc, devstat_note);

	return ret ? ret : smart_print_snapshot(snap);
}

void smart_print_ata_text(const struct ata_smart *s)
{
	printf("model %s, serial %s, firmware %s; SMART status %s\n", s->model, s->serial, s->firmware,
	       !s->status_valid ? "not recorded" : s->status_good ? "good" : "BAD");
	printf("ID# %-24s %6s %5s %5s %5s %15s  %s\n", "Name", "Flags", "Value", "Worst", "Thres", "Raw",
	       "Decoded");
	for (size_t i = 0; i < s->n; i++) {
		const struct ata_smart_attr *a = &s->a[i];
		char thr[8] = "-";
		if (a->threshold_valid)
			snprintf(thr, sizeof thr, "%u", a->threshold);
		printf("%3u %-24s 0x%04x %5u %5u %5s %15llu  ", a->id, a->name, a->flags, a->current, a->worst,
		       thr, (unsigned long long)a->raw);
		if (!strcmp(a->unit, "raw"))
			printf("raw (no unit known)\n");
		else
			printf("%.0f %s%s\n", a->value, a->unit, a->verified ? "" : " (unverified)");
	}
}

int smart_take_now(const struct drive_snapshot_cfg *cfg, const char *dev, struct snapshot *snap, char *err,
		   size_t errlen)
{
	struct drive_snapshot *ds = NULL;
	int e = 0, ret;

	snprintf(snap->label, sizeof snap->label, "now");
	ret = drive_snapshot_open(cfg, &ds, err, errlen);
	if (!ret)
		ret = drive_snapshot_take(ds, false, snap, err, errlen);
	if (!ret) {
		jsonnum_build_add(snap->raw, "device", json_object_new_string(dev), &e);
		if (e)
			snprintf(err, errlen, "%s", strerror(-e));
		ret = e;
	}
	drive_snapshot_free(ds);
	return ret;
}

