/* SPDX-License-Identifier: MIT */
/*
 * pass_flags: the analysis pass for summary.json's "flags": what a reader of the figures must know
 * (steady state not reached, resumed, host-limited cells, I/O errors, a torn last line, purges that
 * only discarded, reads of unmapped LBAs, a host-write counter that disagrees with the
 * records). A pass of analyze.c's table (pass.h).
 */
#include "analysis/pass.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/jsonnum.h"
#include "analysis/reader.h"

/*
 * flags.purge_not_pts: the purges that only discarded. A discard is not a SNIA PTS purge (no
 * secure erase, sanitize or format: the drive's flash keeps its state). A record without
 * pts_purge (written before the key existed) is judged by its method: then only the virtual
 * SSD's "sim-reset" was a real purge.
 */
static int flag_purges(const struct analyze_input *in, struct json_object *f)
{
	struct json_object *arr = json_object_new_array();
	struct reader_purge *p = NULL;
	size_t n = 0;
	int rc = -ENOMEM;

	if (jsonnum_add(f, "purge_not_pts", arr) || !arr || reader_purges(&in->records, &p, &n))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct json_object *e;

		if (p[i].pts_purge >= 0 ? p[i].pts_purge
					: p[i].method && !strcmp(p[i].method, "sim-reset"))
			continue;
		e = json_object_new_object();
		if (json_object_array_add(arr, e) || !e || pass_add_int(e, "phase", p[i].phase) ||
		    pass_add_int(e, "repeat", p[i].repeat) ||
		    pass_add_str(e, "method", p[i].method) ||
		    pass_add_int(e, "settle_ns", p[i].settle_ns))
			goto out;
	}
	rc = 0;
out:
	free(p);
	return rc;
}

/*
 * flags.host_write_mismatch: the phases whose host-write counter moved by more than one of its
 * units away from the bytes the records say ssdlab wrote (pass_wa's host_check): a wrong unit in
 * the drive database, or another writer on the drive meanwhile. Read from summary.wa.
 */
static int flag_host_mismatch(struct json_object *summary, struct json_object *f)
{
	struct json_object *arr = json_object_new_array(), *wa, *phases, *c, *m;

	if (jsonnum_add(f, "host_write_mismatch", arr) || !arr)
		return -ENOMEM;
	if (!json_object_object_get_ex(summary, "wa", &wa) ||
	    !json_object_object_get_ex(wa, "phases", &phases))
		return 0;
	for (size_t i = 0; i < json_object_array_length(phases); i++) {
		struct json_object *p = json_object_array_get_idx(phases, i), *e;
		int64_t phase = 0, repeat = 0;

		if (!json_object_object_get_ex(p, "host_check", &c) || !c ||
		    !json_object_object_get_ex(c, "match", &m) || json_object_get_boolean(m))
			continue;
		(void)jsonget_int(p, "phase", &phase);
		(void)jsonget_int(p, "repeat", &repeat);
		e = json_object_new_object();
		if (json_object_array_add(arr, e) || !e || pass_add_int(e, "phase", phase) ||
		    pass_add_int(e, "repeat", repeat) ||
		    jsonnum_add(e, "counter_bytes", jsonnum_new(jsonget_num(c, "counter_bytes"))) ||
		    jsonnum_add(e, "written_bytes", jsonnum_new(jsonget_num(c, "written_bytes"))) ||
		    jsonnum_add(e, "resolution", jsonnum_new(jsonget_num(c, "resolution"))))
			return -ENOMEM;
	}
	return 0;
}

/*
 * Reads that say nothing about the flash: flags.reads_unmapped sums the records' reads_unmapped
 * (a target that knows its map counts the reads of never-written or trimmed LBAs), null when no
 * record has it; flags.reads_without_fill copies the manifest's mark of a run that only reads a
 * real target (whose map nobody can see).
 */
static int flag_reads_unmapped(const struct analyze_input *in, struct json_object *f)
{
	struct reader_unmapped u;
	struct json_object *o, *x;

	reader_reads_unmapped(&in->records, &u);
	x = json_object_object_get_ex(in->manifest, "reads_without_fill", &x) ? x : NULL;
	if (jsonnum_add(f, "reads_without_fill",
			json_object_new_boolean(x && json_object_get_boolean(x))))
		return -ENOMEM;
	if (!u.records)
		return jsonnum_add(f, "reads_unmapped", NULL);
	o = json_object_new_object();
	if (jsonnum_add(f, "reads_unmapped", o) || !o ||
	    jsonnum_add(o, "bytes", json_object_new_uint64(u.bytes)) ||
	    jsonnum_add(o, "of_bytes", json_object_new_uint64(u.of_bytes)) ||
	    jsonnum_add(o, "fraction",
			u.of_bytes ? jsonnum_new((double)u.bytes / (double)u.of_bytes) : NULL) ||
	    pass_add_int(o, "records", (int64_t)u.records) ||
	    pass_add_int(o, "records_with_unmapped", (int64_t)u.records_with_unmapped))
		return -ENOMEM;
	return 0;
}

/* flags.resume_points: where the walk picked up, and how long the drive was left alone (the
 * figures a resume marker has, in the order the runner writes them). */
static int flag_resumes(const struct reader_resume *r, size_t n, struct json_object *rp)
{
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_new_object();

		if (json_object_array_add(rp, e) || !e || pass_add_int(e, "phase", r[i].phase) ||
		    pass_add_int(e, "repeat", r[i].repeat) || pass_add_int(e, "round", r[i].round) ||
		    (r[i].has_gap_wall &&
		     jsonnum_add(e, "gap_wall_ns", json_object_new_uint64(r[i].gap_wall_ns))) ||
		    (r[i].has_gap_target &&
		     jsonnum_add(e, "gap_target_ns", json_object_new_uint64(r[i].gap_target_ns))) ||
		    (r[i].has_sim_replayed &&
		     jsonnum_add(e, "sim_replayed", json_object_new_boolean(r[i].sim_replayed))) ||
		    (r[i].has_steps_replayed &&
		     jsonnum_add(e, "steps_replayed", json_object_new_uint64(r[i].steps_replayed))))
			return -ENOMEM;
	}
	return 0;
}

/* flags.no_io, flags.host_limited and the count of I/O errors, from the records' notes. */
static int flag_notes(const struct reader_note *nt, size_t n, struct json_object *noio,
		      struct json_object *hl, size_t *errors)
{
	for (size_t i = 0; i < n; i++) {
		const struct reader_key *k = &nt[i].k;
		struct json_object *e;

		*errors += nt[i].error;
		if (nt[i].no_io) {
			e = json_object_new_object();
			if (json_object_array_add(noio, e) || !e ||
			    pass_add_int(e, "phase", k->phase) ||
			    pass_add_int(e, "repeat", k->repeat) ||
			    pass_add_int(e, "round", k->round) || pass_add_str(e, "kind", k->kind) ||
			    pass_add_str(e, "cell", k->cell) ||
			    pass_add_str(e, "reason", nt[i].no_io_reason))
				return -ENOMEM;
		}
		if (!nt[i].host_limited)
			continue;
		e = json_object_new_object();
		if (json_object_array_add(hl, e) || !e || pass_add_int(e, "phase", k->phase) ||
		    pass_add_int(e, "repeat", k->repeat) || pass_add_int(e, "round", k->round) ||
		    pass_add_str(e, "kind", k->kind) || pass_add_str(e, "cell", k->cell))
			return -ENOMEM;
	}
	return 0;
}

int pass_flags(const struct analyze_input *in, struct json_object *summary, char *err,
	       size_t errlen)
{
	struct json_object *f = json_object_new_object(), *nr, *hl, *rp, *arr, *noio;
	struct reader_note *notes = NULL;
	struct reader_resume *res = NULL;
	size_t resumes = 0, errors = 0, nnotes = 0;
	int rc = -ENOMEM;

	if (jsonnum_add(summary, "flags", f) || !f)
		return -ENOMEM;
	nr = json_object_new_array();
	hl = json_object_new_array();
	rp = json_object_new_array();
	if (jsonnum_add(f, "steady_state_not_reached", nr) || !nr ||
	    jsonnum_add(f, "host_limited", hl) || !hl || jsonnum_add(f, "resume_points", rp) || !rp)
		return -ENOMEM;
	noio = json_object_new_array(); /* measurements without figures, and why */
	if (jsonnum_add(f, "no_io", noio) || !noio)
		return -ENOMEM;
	if (json_object_object_get_ex(summary, "steady_state", &arr))
		for (size_t i = 0; i < json_object_array_length(arr); i++) {
			struct json_object *s = json_object_array_get_idx(arr, i), *e;
			const char *v = jsonget_str(s, "verdict");
			int64_t p = 0, r = 0;

			if (v && !strcmp(v, "reached"))
				continue;
			(void)jsonget_int(s, "phase", &p);
			(void)jsonget_int(s, "repeat", &r);
			e = json_object_new_object();
			if (json_object_array_add(nr, e) || !e || pass_add_int(e, "phase", p) ||
			    pass_add_int(e, "repeat", r) ||
			    pass_add_str(e, "cell", jsonget_str(s, "cell")) ||
			    pass_add_str(e, "metric", jsonget_str(s, "metric")) ||
			    pass_add_str(e, "verdict", v))
				return -ENOMEM;
		}
	if (reader_notes(&in->records, &notes, &nnotes) ||
	    reader_resumes(&in->records, &res, &resumes))
		goto out;
	if (flag_resumes(res, resumes, rp) || flag_notes(notes, nnotes, noio, hl, &errors))
		goto out;
	if (flag_reads_unmapped(in, f))
		goto out;
	if (jsonnum_add(f, "resumed", json_object_new_boolean(resumes > 0)) ||
	    pass_add_int(f, "resumes", (int64_t)resumes) ||
	    pass_add_int(f, "io_errors", (int64_t)errors) ||
	    jsonnum_add(f, "torn_last_line_dropped",
			json_object_new_boolean(in->records.torn_last)))
		goto out;
	rc = flag_purges(in, f);
	if (!rc)
		rc = flag_host_mismatch(summary, f);
out:
	free(notes);
	free(res);
	return rc;
}
