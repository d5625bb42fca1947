/* SPDX-License-Identifier: MIT */
/*
 * analyze: summary.json from a results directory (see analyze.h). The passes run in table
 * order on read-only inputs; a pass may read what an earlier pass added to the summary (the
 * cells pass takes the steady-state windows from the steady_state pass).
 *
 * Determinism: inputs are taken in file order (records) and file-name order (snapshots),
 * groups are kept in first-seen order, numbers go through jsonnum (shortest round-trip form),
 * nothing depends on the clock, the locale, the environment or hash order.
 */
#include "analysis/analyze.h"
#include "analysis/pass.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "config.h"
#include "base/jsonnum.h"
#include "analysis/reader.h"

/* In order: later passes may read what earlier ones wrote (cells reads steady_state). */
static const struct analyze_pass passes[] = {
    {"steady_state", pass_steady_state},
    {"cells", pass_cells},
    {"wa", pass_wa},
    {"flags", pass_flags},
    {"thermal", pass_thermal},
    {"slc_cache", pass_slc},
    {"gc_recovery", pass_gcrate},
    {"gc_passes", pass_gcpasses},
    {"trim_check", pass_trimcheck},
    {"surface", pass_surface},
    {"op_variants", pass_opvariants},
    {"snia", pass_snia},
    {"snia_dirth", pass_snia_dirth},
    {"snia_hir", pass_snia_hir},
    {"snia_ecw", pass_snia_ecw},
    {"headline", pass_headline},
};

/*
 * Every record must be one the analysis understands: a record it skipped would silently change
 * the figures (a cell dropped from a steady-state window). The kinds the runner writes
 * (runner.c: job_step and plain_step callers, the resume marker); a new kind is added here with
 * the pass that reads it. Returns 0, or -EBADMSG naming the line (records are one a line).
 */
static int check_records(const char *dir, const struct results_records *rr, char *err,
			 size_t errlen)
{
	static const char *const known[] = {"cell", "precondition", "write_until", "purge",
					    "trim", "idle",	    "resume", "cooldown",
					    "trim_check", "surface",
					    "dirth_point", "burst"};
	struct reader_key k;

	for (size_t i = 0; i < rr->n; i++) {
		bool ok = false;

		if (reader_key(rr->rec[i], &k)) {
			pass_err(
			    err, errlen,
			    "%s/records.jsonl: line %zu lacks a key field (phase, repeat, round, "
			    "cell and kind are required)",
			    dir, i + 1);
			return -EBADMSG;
		}
		for (size_t j = 0; j < sizeof(known) / sizeof(known[0]) && !ok; j++)
			ok = !strcmp(k.kind, known[j]);
		if (!ok) {
			pass_err(err, errlen,
				 "%s/records.jsonl: line %zu has an unknown kind '%.40s' (expected "
				 "cell, "
				 "precondition, write_until, purge, trim, idle, resume, cooldown, "
				 "trim_check, surface, dirth_point or burst)",
				 dir, i + 1, k.kind);
			return -EBADMSG;
		}
	}
	return 0;
}

int analyze_dir(const char *dir, struct json_object **out, char *err, size_t errlen)
{
	struct analyze_input in;
	struct json_object *summary = NULL, *rec;
	int rc;

	memset(&in, 0, sizeof(in));
	in.dir = dir;
	rc = results_read_manifest(dir, &in.manifest);
	if (rc) {
		pass_err(err, errlen, "%s/manifest.json: %s", dir,
			 rc == -EBADMSG ? "not valid JSON" : strerror(-rc));
		return rc;
	}
	rc = results_read_records(dir, &in.records);
	if (rc) {
		if (rc == -EBADMSG)
			pass_err(
			    err, errlen,
			    "%s/records.jsonl: line %u is corrupt (not the last line, so not a "
			    "torn write)",
			    dir, in.records.bad_line);
		else
			pass_err(err, errlen, "%s/records.jsonl: %s", dir, strerror(-rc));
		goto out;
	}
	rc = check_records(dir, &in.records, err, errlen);
	if (rc)
		goto out;
	rc = results_read_snapshots(dir, &in.snapshots);
	if (rc) {
		pass_err(err, errlen, "%s/snapshots: %s", dir,
			 rc == -EBADMSG ? "a file is not valid JSON" : strerror(-rc));
		goto out;
	}
	rc = reader_snaps_load(&in.snapshots, &in.snaps);
	if (rc)
		goto out;
	rc = -ENOMEM;
	summary = json_object_new_object();
	rec = summary ? json_object_new_object() : NULL;
	if (!summary || pass_add_int(summary, "schema", RESULTS_SCHEMA) ||
	    pass_add_str(summary, "analyzer", "ssdlab " SSDLAB_VERSION) ||
	    jsonnum_add(summary, "records", rec) || !rec ||
	    pass_add_int(rec, "count", (int64_t)in.records.n) ||
	    jsonnum_add(rec, "torn_last_line_dropped",
			json_object_new_boolean(in.records.torn_last)) ||
	    pass_add_int(rec, "snapshots", (int64_t)in.snapshots.n))
		goto out;
	for (size_t i = 0; i < sizeof(passes) / sizeof(passes[0]); i++) {
		rc = passes[i].run(&in, summary, err, errlen);
		if (rc) {
			if (err && !*err)
				pass_err(err, errlen, "analysis pass %s: %s", passes[i].name,
					 strerror(-rc));
			goto out;
		}
	}
	*out = summary;
	summary = NULL;
	rc = 0;
out:
	json_object_put(summary);
	json_object_put(in.manifest);
	results_records_release(&in.records);
	results_snapshots_release(&in.snapshots);
	reader_snaps_release(&in.snaps);
	return rc;
}

int analyze_write(const char *dir, struct json_object **out, char *err, size_t errlen)
{
	struct json_object *s = NULL;
	int rc = analyze_dir(dir, &s, err, errlen);

	if (rc)
		return rc;
	rc = results_write_summary(dir, s);
	if (rc) {
		pass_err(err, errlen, "%s/summary.json: %s", dir, strerror(-rc));
		json_object_put(s);
		return rc;
	}
	if (out)
		*out = s;
	else
		json_object_put(s);
	return 0;
}
