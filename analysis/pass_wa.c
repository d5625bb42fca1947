/* SPDX-License-Identifier: MIT */
/*
 * pass_wa: the analysis pass for summary.json's "wa": write amplification per phase and over the
 * run, from the snapshots (analysis/wa.h). A pass of analyze.c's table (pass.h).
 */
#include "analysis/pass.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "base/jsonnum.h"
#include "results/snapshot.h"
#include "analysis/reader.h"
#include "analysis/wa.h"

/* The "wa" entry of the snapshots a..b (from_seq, to_seq, labels, counter deltas, wa). */
struct json_object *pass_wa_entry(const struct reader_snaps *s, size_t a, size_t b, int64_t phase,
				  int64_t repeat, int with_phase)
{
	struct json_object *o = json_object_new_object();
	const struct counter *h0, *h1, *n0, *n1;
	int ok = s->parsed[a] && s->parsed[b];
	double wa = NAN;

	if (!o)
		return NULL;
	if (with_phase && (pass_add_int(o, "phase", phase) || pass_add_int(o, "repeat", repeat)))
		goto fail;
	if (pass_add_int(o, "from_seq", s->seq[a]) || pass_add_int(o, "to_seq", s->seq[b]) ||
	    pass_add_str(o, "from_label", ok ? s->s[a].label : "") ||
	    pass_add_str(o, "to_label", ok ? s->s[b].label : ""))
		goto fail;
	h0 = ok ? snapshot_get(&s->s[a], "host_bytes_written") : NULL;
	h1 = ok ? snapshot_get(&s->s[b], "host_bytes_written") : NULL;
	n0 = ok ? snapshot_get(&s->s[a], "nand_bytes_written") : NULL;
	n1 = ok ? snapshot_get(&s->s[b], "nand_bytes_written") : NULL;
	if (jsonnum_add(o, "host_bytes_written",
			h0 && h1 ? jsonnum_new(h1->value - h0->value) : NULL) ||
	    jsonnum_add(o, "nand_bytes_written",
			n0 && n1 ? jsonnum_new(n1->value - n0->value) : NULL))
		goto fail;
	if (ok && wa_between(&s->s[a], &s->s[b], &wa))
		wa = NAN;
	if (jsonnum_add(o, "wa", jsonnum_new(wa)))
		goto fail;
	return o;
fail:
	json_object_put(o);
	return NULL;
}

/*
 * WA per (phase, repeat) over the snapshots that bound it (wa_phase_spans): "wa" over the
 * measured part (from the ramp end when the phase's first job had a ramp, like the figures),
 * "wa_total" over the whole phase; without a ramp they are equal. And over the whole run, from
 * the first snapshot to the last.
 */
int pass_wa(const struct analyze_input *in, struct json_object *summary, char *err, size_t errlen)
{
	struct json_object *wa = json_object_new_object(), *arr, *run;
	const struct reader_snaps *s = &in->snaps;
	struct wa_span *sp;
	size_t nsp;

	if (jsonnum_add(summary, "wa", wa) || !wa)
		return -ENOMEM;
	arr = json_object_new_array();
	if (jsonnum_add(wa, "phases", arr) || !arr)
		return -ENOMEM;
	sp = calloc(s->n ? s->n : 1, sizeof(*sp));
	if (!sp)
		return -ENOMEM;
	nsp = wa_phase_spans(s->at, s->n, sp);
	for (size_t i = 0; i < nsp; i++) {
		struct json_object *tot = pass_wa_entry(s, sp[i].total_from, sp[i].to, 0, 0, 0);
		struct json_object *e =
		    pass_wa_entry(s, sp[i].from, sp[i].to, sp[i].phase, sp[i].repeat, 1);

		if (!e || !tot ||
		    jsonnum_add(e, "wa_total",
				json_object_get(json_object_object_get(tot, "wa"))) ||
		    json_object_array_add(arr, e)) {
			json_object_put(tot);
			json_object_put(e);
			free(sp);
			return -ENOMEM;
		}
		json_object_put(tot);
	}
	free(sp);
	run = s->n >= 2 ? pass_wa_entry(s, 0, s->n - 1, 0, 0, 0) : NULL;
	if (s->n >= 2 && !run)
		return -ENOMEM;
	return jsonnum_add(wa, "run", run);
}
