/* SPDX-License-Identifier: MIT */
/*
 * endurance: a profile's writes against the drive's rated endurance (endurance.h).
 */
#include "cli/endurance.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "config.h"
#include "base/jsonnum.h"
#include "base/units.h"
#include "host/drivedb.h"
#include "targets/target.h"

void cli_rated_endurance(const struct target_info *ti, double user_tbw, struct cli_rated *out)
{
	char path[PATH_MAX + 64];
	const char *src = NULL;
	struct drivedb *db = NULL;
	struct ydoc_error err;
	const struct drivedb_entry *e;
	double bytes = 0;

	memset(out, 0, sizeof(*out));
	if (user_tbw > 0) {
		out->known = true;
		out->bytes = user_tbw * 1e12;
		snprintf(out->source, sizeof(out->source), "--tbw");
		return;
	}
	if (ti->kind != TARGET_KIND_BLOCKDEV || !*ti->model)
		return;
	/* where `ssdlab drives` reads it (drivedb.h) */
	if (drivedb_default_path(path, sizeof(path)) || drivedb_load(path, &db, &err))
		return;
	e = drivedb_lookup(db, *ti->nvme.ns ? DRIVEDB_NVME : DRIVEDB_ATA, ti->model);
	if (e && !drivedb_rated_endurance(e, ti->model, ti->capacity, &bytes, &src)) {
		out->known = true;
		out->bytes = bytes;
		snprintf(out->source, sizeof(out->source), "drive database: %s (%s)", e->name, src);
	}
	drivedb_free(db);
}

const char *cli_endurance_line(uint64_t bytes, bool lower_bound, const struct cli_rated *r,
			       char *buf, size_t len)
{
	char a[48], b[48], c[48];
	int decimals = 2;
	double pct;

	if (!r->known || !(r->bytes > 0)) {
		snprintf(buf, len, "no rated endurance known (give --tbw N, in TB written)");
		return buf;
	}
	pct = 100.0 * (double)bytes / r->bytes;
	/* two significant digits of a small share at least: 0.0014%, not 0.00% */
	while (pct > 0 && decimals < 8 && pct < 10.0 / pow(10, decimals))
		decimals++;
	snprintf(buf, len, "this profile writes %s%s %s = %s%% of the rated %s TBW (%s)",
		 lower_bound ? "at least " : "",
		 units_fmt_double((double)bytes / (bytes >= 1e12 ? 1e12 : 1e9), 2, a, sizeof(a)),
		 bytes >= 1e12 ? "TB" : "GB", units_fmt_double(pct, decimals, b, sizeof(b)),
		 units_fmt_double(r->bytes / 1e12, 0, c, sizeof(c)), r->source);
	return buf;
}

struct json_object *cli_rated_json(const struct cli_rated *r)
{
	struct json_object *o;
	int e = 0;

	if (!r->known || !(o = json_object_new_object()))
		return NULL;
	jsonnum_build_num(o, "tbw", r->bytes / 1e12, &e);
	jsonnum_build_num(o, "bytes", r->bytes, &e);
	jsonnum_build_add(o, "source", json_object_new_string(r->source), &e);
	if (e) {
		json_object_put(o);
		return NULL;
	}
	return o;
}
