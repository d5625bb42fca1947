/* SPDX-License-Identifier: MIT */
/*
 * pass_wa: the analysis pass for summary.json's "wa": write amplification per phase and over the
 * run, from the snapshots (analysis/wa.h), with what makes a real drive's figure honest: the
 * counters' resolution, the interval their rounding leaves, a null WA with its reason where the
 * rounding or a missing counter decides, the host-write counter checked against the bytes the
 * records say ssdlab wrote, WA over a write phase and the idle after it, the SLC/TLC split, and
 * for a drive with no database entry the host-write counter's unit inferred from those bytes.
 * A pass of analyze.c's table (pass.h).
 */
#include "analysis/pass.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonnum.h"
#include "results/snapshot.h"
#include "analysis/reader.h"
#include "analysis/wa.h"

/* [lo, hi], or null without an interval (an infinite hi is a JSON null inside). */
static struct json_object *interval_json(double lo, double hi)
{
	struct json_object *a;

	if (isnan(lo))
		return NULL;
	a = json_object_new_array();
	if (!a)
		return NULL;
	if (json_object_array_add(a, jsonnum_new(lo)) || json_object_array_add(a, jsonnum_new(hi))) {
		json_object_put(a);
		return NULL;
	}
	return a;
}

/* The reason of a null WA: a missing NAND counter says what the drive snapshot said. */
static const char *reason_of(const struct reader_snaps *s, size_t a, size_t b,
			     const struct wa_estimate *e)
{
	/* A file, loop device or zram: the target has no counters at all. */
	if (e->reason == WA_NO_HOST_COUNTER &&
	    (!strcmp(s->s[a].source, "none") || !strcmp(s->s[b].source, "none")))
		return "no counters (snapshot source none)";
	/*
	 * A drive the database knows (an entry) whose entry has no NAND counter: no WA whatever
	 * the host counter, so that is the reason, also where the host counter is missing too
	 * (QEMU's SATA disk: neither 241 nor Device Statistics). A drive with no entry keeps "no
	 * host-write counter": its host unit may still be inferred from the candidates.
	 */
	if (e->reason == WA_NO_NAND_COUNTER ||
	    (e->reason == WA_NO_HOST_COUNTER && s->drive[a].has_drivedb && s->drive[b].has_drivedb)) {
		if (s->drive[b].no_nand_reason)
			return s->drive[b].no_nand_reason;
		if (s->drive[a].no_nand_reason)
			return s->drive[a].no_nand_reason;
	}
	return wa_reason_text(e->reason);
}

/* {nand_bytes_written, wa} of one NAND kind (slc, tlc) over the host delta; no key when the
 * counter is missing at either end. */
static int add_split(struct json_object *o, const char *key, double x0, double x1, double host)
{
	struct json_object *e;

	if (!isfinite(x0) || !isfinite(x1))
		return 0;
	e = json_object_new_object();
	if (jsonnum_add(o, key, e) || !e || jsonnum_add(e, "nand_bytes_written", jsonnum_new(x1 - x0)))
		return -ENOMEM;
	return jsonnum_add(e, "wa",
			   jsonnum_new(host > 0 && x1 >= x0 ? (x1 - x0) / host : NAN));
}

/* host_check: the host-write counter's delta against the bytes the records say were written. */
static int add_host_check(const struct analyze_input *in, struct json_object *o,
			  const struct wa_counts *ca, const struct wa_counts *cb,
			  const struct pass_wa_scope *sc, double *written)
{
	struct json_object *c;
	size_t nrec;
	/* host_bytes_written, also on a Micron drive, where the WA comes from pages (246). */
	double host = cb->host - ca->host, res = fmax(ca->host_res, cb->host_res);

	*written = NAN;
	if (reader_bytes_written(&in->records, sc->phase, sc->repeat, sc->all, sc->has_from_t,
				 sc->from_t, written, &nrec))
		*written = NAN;
	if (!isfinite(host) || !isfinite(*written))
		return jsonnum_add(o, "host_check", NULL);
	c = json_object_new_object();
	if (jsonnum_add(o, "host_check", c) || !c ||
	    jsonnum_add(c, "counter_bytes", jsonnum_new(host)) ||
	    jsonnum_add(c, "written_bytes", jsonnum_new(*written)) ||
	    pass_add_int(c, "records", (int64_t)nrec) ||
	    jsonnum_add(c, "resolution", jsonnum_new(res)))
		return -ENOMEM;
	return jsonnum_add(c, "match", json_object_new_boolean(wa_host_match(host, *written, res)));
}

/* host_unit_inferred for a drive with no database entry that named candidate counters. */
static int add_inferred(const struct reader_snaps *s, size_t a, size_t b, struct json_object *o,
			double written)
{
	const struct reader_drive *da = &s->drive[a], *db = &s->drive[b];
	struct wa_candidate *c;
	struct wa_inferred inf;
	struct json_object *x;
	size_t n = 0;
	int rc;

	if (db->has_drivedb || !db->ncand)
		return 0; /* a drive with an entry, or the sim: nothing to infer */
	c = calloc(db->ncand, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (size_t i = 0; i < db->ncand; i++)
		for (size_t j = 0; j < da->ncand; j++)
			if (!strcmp(db->cand[i].counter, da->cand[j].counter))
				c[n++] = (struct wa_candidate){
				    .counter = db->cand[i].counter,
				    .delta = db->cand[i].raw - da->cand[j].raw};
	rc = wa_infer_unit(c, n, written, &inf);
	if (rc) {
		free(c);
		return jsonnum_add(o, "host_unit_inferred", NULL);
	}
	x = json_object_new_object();
	rc = jsonnum_add(o, "host_unit_inferred", x) || !x ||
		     pass_add_str(x, "counter", inf.counter) || pass_add_str(x, "unit", inf.unit) ||
		     jsonnum_add(x, "ratio", jsonnum_new(inf.ratio))
		 ? -ENOMEM
		 : 0;
	free(c);
	return rc;
}

/* The keys of issue 11's WA over snapshots a..b (after the older ones). */
static int add_uncertainty(const struct analyze_input *in, struct json_object *o, size_t a,
			   size_t b, const struct pass_wa_scope *sc, double *wa)
{
	const struct reader_snaps *s = &in->snaps;
	struct wa_counts ca, cb;
	struct wa_estimate e;
	struct json_object *res;
	double written = NAN;

	wa_counts_of(&s->s[a], &ca);
	wa_counts_of(&s->s[b], &cb);
	wa_estimate(&ca, &cb, &e);
	*wa = e.wa;
	res = json_object_new_object();
	if (jsonnum_add(o, "wa_reason",
			e.reason ? json_object_new_string(reason_of(s, a, b, &e)) : NULL) ||
	    jsonnum_add(o, "resolution", res) || !res ||
	    jsonnum_add(res, "host", jsonnum_new(e.host_res)) ||
	    jsonnum_add(res, "nand", jsonnum_new(e.nand_res)) ||
	    pass_add_str(res, "unit", e.pages ? "pages" : "bytes") ||
	    jsonnum_add(o, "interval", interval_json(e.lo, e.hi)) ||
	    jsonnum_add(o, "bytes_needed", jsonnum_new(e.bytes_needed)) ||
	    jsonnum_add(o, "compression", json_object_new_boolean(e.compression)) ||
	    jsonnum_add(o, "unverified",
			json_object_new_boolean(s->drive[a].unverified || s->drive[b].unverified)))
		return -ENOMEM;
	if (e.pages && jsonnum_add(o, "host_pages_written", jsonnum_new(e.host_delta)))
		return -ENOMEM;
	if (e.pages && jsonnum_add(o, "ftl_pages_written", jsonnum_new(e.nand_delta)))
		return -ENOMEM;
	if (add_split(o, "slc", ca.slc, cb.slc, cb.host - ca.host) ||
	    add_split(o, "tlc", ca.tlc, cb.tlc, cb.host - ca.host))
		return -ENOMEM;
	if (sc->check && add_host_check(in, o, &ca, &cb, sc, &written))
		return -ENOMEM;
	return sc->check ? add_inferred(s, a, b, o, written) : 0;
}

struct json_object *pass_wa_entry(const struct analyze_input *in, size_t a, size_t b,
				  const struct pass_wa_scope *sc, int with_phase)
{
	const struct reader_snaps *s = &in->snaps;
	struct json_object *o = json_object_new_object();
	const struct counter *h0, *h1, *n0, *n1;
	int ok = s->parsed[a] && s->parsed[b];
	double wa = NAN;

	if (!o)
		return NULL;
	if (with_phase && (pass_add_int(o, "phase", sc->phase) ||
			   pass_add_int(o, "repeat", sc->repeat)))
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
	if (!ok) {
		if (jsonnum_add(o, "wa", NULL) ||
		    pass_add_str(o, "wa_reason", "a snapshot file could not be read"))
			goto fail;
		return o;
	}
	/* The WA comes from wa_estimate (equal to wa_between's ratio where the counters are exact). */
	if (jsonnum_add(o, "wa", NULL) || add_uncertainty(in, o, a, b, sc, &wa) ||
	    jsonnum_add(o, "wa", jsonnum_new(wa)))
		goto fail;
	return o;
fail:
	json_object_put(o);
	return NULL;
}

/* Whether (phase, repeat) is an idle phase: it has an idle record and no record that wrote. */
static bool idle_phase(const struct analyze_input *in, const struct reader_idle *idl, size_t nidl,
		       int64_t phase, int64_t repeat)
{
	double bytes;
	size_t nrec;
	bool idle = false;

	for (size_t i = 0; i < nidl && !idle; i++)
		idle = idl[i].phase == phase && idl[i].repeat == repeat;
	return idle && reader_bytes_written(&in->records, phase, repeat, false, false, 0, &bytes,
					    &nrec) == -ENODATA;
}

/*
 * wa_with_idle of span i: over the write phase and the idle phases right after it (idle GC
 * programs NAND with no host writes, so the phase's own WA misses it). null when no idle phase
 * follows or the phase wrote nothing.
 */
static int add_with_idle(const struct analyze_input *in, struct json_object *e,
			 const struct wa_span *sp, size_t nsp, size_t i, const struct reader_idle *idl,
			 size_t nidl)
{
	struct pass_wa_scope sc = {.check = false};
	struct json_object *x, *w;
	size_t j = i + 1;
	double bytes;
	size_t nrec;

	while (j < nsp && idle_phase(in, idl, nidl, sp[j].phase, sp[j].repeat))
		j++;
	if (j == i + 1 || idle_phase(in, idl, nidl, sp[i].phase, sp[i].repeat) ||
	    reader_bytes_written(&in->records, sp[i].phase, sp[i].repeat, false, false, 0, &bytes,
				 &nrec))
		return jsonnum_add(e, "wa_with_idle", NULL);
	x = pass_wa_entry(in, sp[i].from, sp[j - 1].to, &sc, 0);
	w = json_object_new_object();
	if (!x || !w || jsonnum_add(e, "wa_with_idle", w)) {
		json_object_put(x);
		json_object_put(w);
		return -ENOMEM;
	}
	/* The idle span's own keys: where it ends, the WA, why not, its interval. */
	static const char *const keep[] = {"to_seq",	   "to_label", "nand_bytes_written",
					   "wa",	   "wa_reason", "interval",
					   "bytes_needed"};
	for (size_t k = 0; k < sizeof(keep) / sizeof(keep[0]); k++)
		if (jsonnum_add(w, keep[k], json_object_get(json_object_object_get(x, keep[k])))) {
			json_object_put(x);
			return -ENOMEM;
		}
	json_object_put(x);
	return 0;
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
	struct reader_idle *idl = NULL;
	struct pass_wa_scope all = {.check = true, .all = true};
	struct wa_span *sp;
	size_t nsp, nidl = 0;
	int rc = -ENOMEM;

	(void)err;
	(void)errlen;
	if (jsonnum_add(summary, "wa", wa) || !wa)
		return -ENOMEM;
	arr = json_object_new_array();
	if (jsonnum_add(wa, "phases", arr) || !arr)
		return -ENOMEM;
	sp = calloc(s->n ? s->n : 1, sizeof(*sp));
	if (!sp || reader_idles(&in->records, &idl, &nidl))
		goto out;
	nsp = wa_phase_spans(s->at, s->n, sp);
	for (size_t i = 0; i < nsp; i++) {
		struct pass_wa_scope sc = {.check = true,
					   .phase = sp[i].phase,
					   .repeat = sp[i].repeat,
					   .has_from_t = sp[i].from != sp[i].total_from &&
							 s->has_t[sp[i].from],
					   .from_t = s->t[sp[i].from]},
				     sct = {.check = false};
		struct json_object *tot = pass_wa_entry(in, sp[i].total_from, sp[i].to, &sct, 0);
		struct json_object *e = pass_wa_entry(in, sp[i].from, sp[i].to, &sc, 1);

		if (!e || !tot ||
		    jsonnum_add(e, "wa_total",
				json_object_get(json_object_object_get(tot, "wa"))) ||
		    add_with_idle(in, e, sp, nsp, i, idl, nidl) || json_object_array_add(arr, e)) {
			json_object_put(tot);
			json_object_put(e);
			goto out;
		}
		json_object_put(tot);
	}
	run = s->n >= 2 ? pass_wa_entry(in, 0, s->n - 1, &all, 0) : NULL;
	if (s->n >= 2 && !run)
		goto out;
	rc = jsonnum_add(wa, "run", run);
out:
	free(sp);
	free(idl);
	return rc;
}
