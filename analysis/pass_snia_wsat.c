/* SPDX-License-Identifier: MIT */
/*
 * pass_snia_wsat: the WSAT block of summary.json's "snia" (pass_snia.c): a write_until phase's
 * IOPS and mean latency per chunk against time and against the bytes written (also as capacity
 * multiples), and the levels of snia_wsat_levels() (analysis/snia.h): the fresh-out-of-box
 * plateau, the drop and the steady level, with the rule that found them.
 */
#include "analysis/pass.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "base/jsonnum.h"
#include "analysis/reader.h"
#include "analysis/snia.h"

#define RULE                                                                                       \
	"plateau: median IOPS of the chunks ending within the first 0.5x capacity; drop: the first " \
	"chunk more than 10% below the plateau with the next 2 chunks also below; steady: I/Os "    \
	"over time of the chunks starting in the last 1x capacity written (the last chunk when "     \
	"none does)"

int pass_snia_wsat(const struct analyze_input *in, int64_t phase, int64_t repeat,
		   struct json_object *block, char *err, size_t errlen)
{
	struct json_object *tgt, *s, *col[6], *x;
	static const char *const cols[6] = {"t_ns", "t_profile_ns", "bytes", "x", "iops",
					    "lat_mean_ns"};
	struct reader_chunks ch = {0};
	struct snia_wsat w;
	uint64_t cap = 0, written = 0, t = 0;
	double scale;
	int e = 0, rc;

	if (json_object_object_get_ex(in->manifest, "target", &tgt))
		(void)jsonnum_get_u64(tgt, "capacity", &cap);
	if (!cap) {
		pass_err(err, errlen, "manifest.json: the target has no capacity (the WSAT block "
				      "measures writes in capacity multiples)");
		return -EBADMSG;
	}
	rc = reader_write_until(&in->records, phase, repeat, &ch);
	if (rc)
		return rc;
	rc = snia_wsat_levels(ch.c, ch.n, cap, &w);
	if (rc)
		goto out;
	scale = ch.first_scale > 0 ? ch.first_scale : 1;
	s = json_object_new_object();
	for (int i = 0; i < 6; i++)
		col[i] = json_object_new_array();
	/* One point per chunk at its end: time is the chunks' measured time summed (the target's
	 * clock; t_profile_ns divides by the run's time scale), bytes those written so far. */
	for (size_t i = 0; i < ch.n; i++) {
		const struct wsat_chunk *c = &ch.c[i];

		written += c->bytes;
		t += c->elapsed_ns;
		jsonnum_build_push(col[0], json_object_new_uint64(t), &e);
		jsonnum_build_push(col[1], jsonnum_new((double)t / scale), &e);
		jsonnum_build_push(col[2], json_object_new_uint64(written), &e);
		jsonnum_build_push(col[3], jsonnum_new((double)written / (double)cap), &e);
		jsonnum_build_push(
		    col[4], jsonnum_new(c->elapsed_ns ? c->ios * 1e9 / (double)c->elapsed_ns : NAN),
		    &e);
		jsonnum_build_push(col[5], jsonnum_new(c->lat_mean_ns), &e);
	}
	for (int i = 0; i < 6; i++)
		jsonnum_build_add(s, cols[i], col[i], &e);
	jsonnum_build_add(block, "capacity", json_object_new_uint64(cap), &e);
	jsonnum_build_add(block, "chunks", json_object_new_uint64(ch.n), &e);
	jsonnum_build_add(block, "written_bytes", json_object_new_uint64(written), &e);
	jsonnum_build_num(block, "written_x", (double)written / (double)cap, &e);
	jsonnum_build_add(block, "series", s, &e);
	jsonnum_build_add(block, "rule", json_object_new_string(RULE), &e);
	x = json_object_new_object();
	jsonnum_build_num(x, "iops", w.plateau_iops, &e);
	jsonnum_build_add(x, "chunks", json_object_new_uint64(w.plateau_chunks), &e);
	jsonnum_build_add(x, "end_bytes", json_object_new_uint64(w.has_drop ? w.drop_bytes : written),
			  &e);
	jsonnum_build_num(x, "end_x", (double)(w.has_drop ? w.drop_bytes : written) / (double)cap,
			  &e);
	jsonnum_build_add(block, "plateau", x, &e);
	if (w.has_drop) {
		x = json_object_new_object();
		jsonnum_build_add(x, "chunk", json_object_new_uint64(w.drop_chunk), &e);
		jsonnum_build_add(x, "bytes", json_object_new_uint64(w.drop_bytes), &e);
		jsonnum_build_num(x, "x", (double)w.drop_bytes / (double)cap, &e);
		jsonnum_build_add(block, "drop", x, &e);
	} else {
		jsonnum_build_num(block, "drop", NAN, &e);
	}
	x = json_object_new_object();
	jsonnum_build_num(x, "iops", w.steady_iops, &e);
	jsonnum_build_add(x, "chunks", json_object_new_uint64(w.steady_chunks), &e);
	jsonnum_build_add(x, "from_bytes", json_object_new_uint64(w.steady_from_bytes), &e);
	jsonnum_build_num(x, "from_x", (double)w.steady_from_bytes / (double)cap, &e);
	jsonnum_build_num(x, "of_plateau", w.steady_iops / w.plateau_iops, &e);
	jsonnum_build_add(block, "steady", x, &e);
	rc = e;
out:
	free(ch.c);
	return rc;
}
