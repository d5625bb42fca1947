/* SPDX-License-Identifier: MIT */
/*
 * pass_flags: the analysis pass for summary.json's "flags": what a reader of the figures must know
 * (steady state not reached, resumed, host-limited cells, I/O errors, a torn last line, purges that
 * only discarded, reads of unmapped LBAs). A pass of analyze.c's table (pass.h).
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

	if (jsonnum_add(f, "purge_not_pts", arr) || !arr)
		return -ENOMEM;
	for (size_t i = 0; i < in->records.n; i++) {
		struct json_object *rec = in->records.rec[i], *x, *e;
		const char *method = jsonget_str(rec, "method");
		int64_t settle = 0;
		struct reader_key k;

		if (reader_key(rec, &k) || strcmp(k.kind, "purge"))
			continue;
		if (json_object_object_get_ex(rec, "pts_purge", &x)
			? json_object_get_boolean(x)
			: method && !strcmp(method, "sim-reset"))
			continue;
		(void)jsonget_int(rec, "settle_ns", &settle);
		e = json_object_new_object();
		if (json_object_array_add(arr, e) || !e || pass_add_int(e, "phase", k.phase) ||
		    pass_add_int(e, "repeat", k.repeat) || pass_add_str(e, "method", method) ||
		    pass_add_int(e, "settle_ns", settle))
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
	uint64_t bytes = 0, of = 0, n = 0, hit = 0;
	struct json_object *o, *x;

	for (size_t i = 0; i < in->records.n; i++) {
		uint64_t b, ob;

		if (!json_object_object_get_ex(in->records.rec[i], "reads_unmapped", &x) ||
		    jsonnum_get_u64(x, "bytes", &b) || jsonnum_get_u64(x, "of_bytes", &ob))
			continue;
		n++;
		hit += b > 0;
		bytes += b;
		of += ob;
	}
	x = json_object_object_get_ex(in->manifest, "reads_without_fill", &x) ? x : NULL;
	if (jsonnum_add(f, "reads_without_fill",
			json_object_new_boolean(x && json_object_get_boolean(x))))
		return -ENOMEM;
	if (!n)
		return jsonnum_add(f, "reads_unmapped", NULL);
	o = json_object_new_object();
	if (jsonnum_add(f, "reads_unmapped", o) || !o ||
	    jsonnum_add(o, "bytes", json_object_new_uint64(bytes)) ||
	    jsonnum_add(o, "of_bytes", json_object_new_uint64(of)) ||
	    jsonnum_add(o, "fraction", of ? jsonnum_new((double)bytes / (double)of) : NULL) ||
	    pass_add_int(o, "records", (int64_t)n) ||
	    pass_add_int(o, "records_with_unmapped", (int64_t)hit))
		return -ENOMEM;
	return 0;
}

int pass_flags(const struct analyze_input *in, struct json_object *summary, char *err,
	       size_t errlen)
{
	struct json_object *f = json_object_new_object(), *nr, *hl, *rp, *arr, *noio;
	size_t resumes = 0, errors = 0;

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
	for (size_t i = 0; i < in->records.n; i++) {
		struct json_object *rec = in->records.rec[i], *e;
		struct reader_key k;

		if (reader_key(rec, &k))
			continue;
		if (!strcmp(k.kind, "resume")) {
			static const char *const copy[] = {"gap_wall_ns", "gap_target_ns",
							   "sim_replayed", "steps_replayed"};

			/* Where the walk picked up, and how long the drive was left alone. */
			resumes++;
			e = json_object_new_object();
			if (json_object_array_add(rp, e) || !e ||
			    pass_add_int(e, "phase", k.phase) ||
			    pass_add_int(e, "repeat", k.repeat) ||
			    pass_add_int(e, "round", k.round))
				return -ENOMEM;
			for (size_t c = 0; c < sizeof(copy) / sizeof(copy[0]); c++) {
				struct json_object *v;

				if (json_object_object_get_ex(rec, copy[c], &v) &&
				    jsonnum_add(e, copy[c], json_object_get(v)))
					return -ENOMEM;
			}
		}
		errors += json_object_object_get_ex(rec, "error", NULL);
		if (reader_has_flag(rec, "no_io")) {
			e = json_object_new_object();
			if (json_object_array_add(noio, e) || !e ||
			    pass_add_int(e, "phase", k.phase) ||
			    pass_add_int(e, "repeat", k.repeat) ||
			    pass_add_int(e, "round", k.round) || pass_add_str(e, "kind", k.kind) ||
			    pass_add_str(e, "cell", k.cell) ||
			    pass_add_str(e, "reason", jsonget_str(rec, "no_io_reason")))
				return -ENOMEM;
		}
		if (!reader_has_flag(rec, "host_limited"))
			continue;
		e = json_object_new_object();
		if (json_object_array_add(hl, e) || !e || pass_add_int(e, "phase", k.phase) ||
		    pass_add_int(e, "repeat", k.repeat) || pass_add_int(e, "round", k.round) ||
		    pass_add_str(e, "kind", k.kind) || pass_add_str(e, "cell", k.cell))
			return -ENOMEM;
	}
	if (flag_reads_unmapped(in, f))
		return -ENOMEM;
	if (jsonnum_add(f, "resumed", json_object_new_boolean(resumes > 0)) ||
	    pass_add_int(f, "resumes", (int64_t)resumes) ||
	    pass_add_int(f, "io_errors", (int64_t)errors) ||
	    jsonnum_add(f, "torn_last_line_dropped",
			json_object_new_boolean(in->records.torn_last)))
		return -ENOMEM;
	return flag_purges(in, f);
}
