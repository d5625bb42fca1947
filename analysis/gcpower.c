/* SPDX-License-Identifier: MIT */
/* gcpower: the power states in force, from the manifest (gcpower.h). */
#include "analysis/gcpower.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/jsonnum.h"

/* o[key] when it is a JSON boolean: 1 or 0; -1 when absent, null or another type (unknown). */
static int tri(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_boolean))
		return -1;
	return json_object_get_boolean(v) ? 1 : 0;
}

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_object))
		return NULL;
	return v;
}

static void add_str(struct json_object *o, const char *key, const char *s, int *e)
{
	if (s)
		jsonnum_build_add(o, key, json_object_new_string(s), e);
	else
		jsonnum_build_num(o, key, NAN, e); /* a JSON null */
}

/* v copied (a new reference), or a JSON null when absent. */
static void add_copy(struct json_object *o, const char *key, struct json_object *v, int *e)
{
	if (v)
		jsonnum_build_add(o, key, json_object_get(v), e);
	else
		jsonnum_build_num(o, key, NAN, e);
}

struct json_object *gcpower_json(struct json_object *manifest, int *e)
{
	struct json_object *o = json_object_new_object(), *t = get(manifest, "target"), *ps = NULL,
			   *drive = get(t, "drive"),
			   *apst = get(get(drive, "nvme_identify"), "apst"),
			   *ata = get(drive, "ata");
	const char *kind = t ? jsonget_str(t, "kind") : NULL;

	if (!o) {
		*e = -ENOMEM;
		return NULL;
	}
	if (manifest && json_object_object_get_ex(manifest, "power_states", &ps) && ps) {
		/* the runner's own record wins: it says what was set, not what identify reported */
		add_str(o, "apst", "recorded", e);
		add_str(o, "source", "manifest.power_states", e);
		add_copy(o, "recorded", ps, e);
		add_str(o, "note", "as the runner recorded them (manifest.power_states)", e);
	} else if (apst) {
		int s = tri(apst, "supported"), en = tri(apst, "enabled");

		add_str(o, "apst",
			s == 0	  ? "not_supported"
			: en == 1 ? "enabled"
			: en == 0 ? "disabled"
				  : "unknown",
			e);
		add_str(o, "source", "drive.nvme_identify", e);
		add_str(o, "note",
			en == 1
			    ? "APST on: the drive may enter a non-operational power state while "
			      "idle, which can stop its idle GC"
			    : "from the drive's identify data when the run started",
			e);
	} else if (ata) {
		int h = tri(get(ata, "hipm"), "enabled");

		add_str(o, "apst", "not_applicable", e);
		add_str(o, "alpm", h == 1 ? "in_use" : h == 0 ? "not_in_use" : "unknown", e);
		add_copy(o, "dipm", get(ata, "dipm"), e);
		add_copy(o, "devslp", get(ata, "devslp"), e);
		add_str(o, "source", "drive.ata", e);
		add_str(o, "note",
			h == 1
			    ? "link power management in use: the link may sleep while the drive "
			      "idles"
			    : "from the drive's identify data and the host's ALPM policy when the "
			      "run started",
			e);
	} else if (kind && !strcmp(kind, "sim")) {
		add_str(o, "apst", "none", e);
		add_str(o, "source", NULL, e);
		add_str(o, "note", "the virtual SSD models no power states", e);
	} else {
		add_str(o, "apst", "unknown", e);
		add_str(o, "source", NULL, e);
		add_str(
		    o, "note",
		    "not recorded in the manifest; see ssdlab info (APST, ALPM) for the drive's",
		    e);
	}
	if (*e) {
		json_object_put(o);
		return NULL;
	}
	return o;
}
