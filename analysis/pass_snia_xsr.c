/* SPDX-License-Identifier: MIT */
/*
 * pass_snia_xsr: the XSR block of summary.json's "snia" (pass_snia.c; issue 16 point 2): the
 * access groups (the run's write_until phases in the order of their first record) with their
 * workload from the manifest's plan, throughput and average/maximum response time against time
 * per sample, each group's throughput, end-of-group throughput and response-time peaks, and the
 * recovery of group 3 to group 1's average throughput by ssdlab's recovery rule (snia_xsr.h,
 * recovery.h). One block for the whole test: its phase is the first group's.
 */
#include "analysis/pass.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/jsonnum.h"
#include "analysis/reader.h"
#include "analysis/snia_xsr.h"

#define RULE                                                                                       \
	"group 3 is back at group 1's average throughput (bytes over time of the whole group) at "  \
	"the first of 3 samples in a row within 10% of it; recovery time: group 3's writing time "   \
	"before that sample; not recovered when no 3 samples in a row are"

/* rw, bs (bytes; null for a split), threads and qd of the group's workload (null if unknown). */
static void add_workload(struct json_object *g, struct json_object *wl, int *e)
{
	struct json_object *bs = NULL, *x;
	const char *rw = wl ? jsonget_str(wl, "rw") : NULL;
	static const char *const q[2] = {"threads", "qd"};

	if (rw)
		jsonnum_build_add(g, "rw", json_object_new_string(rw), e);
	else
		jsonnum_build_num(g, "rw", NAN, e);
	if (wl && json_object_object_get_ex(wl, "bs", &bs) &&
	    json_object_is_type(bs, json_type_array) && json_object_array_length(bs) == 1 &&
	    json_object_object_get_ex(json_object_array_get_idx(bs, 0), "bs", &x))
		jsonnum_build_add(g, "bs", json_object_get(x), e);
	else
		jsonnum_build_num(g, "bs", NAN, e);
	for (int i = 0; i < 2; i++) {
		if (wl && json_object_object_get_ex(wl, q[i], &x) && x)
			jsonnum_build_add(g, q[i], json_object_get(x), e);
		else
			jsonnum_build_num(g, q[i], NAN, e);
	}
}

/* The group's figures and series; *t_ns carries the test's time across groups. */
static struct json_object *group_json(const struct snia_xsr_sample *s, size_t n,
				      const struct snia_xsr_group *g, size_t index,
				      struct reader_phase ph, struct json_object *wl, double scale,
				      uint64_t *t_ns, int *e)
{
	static const char *const cols[5] = {"t_ns", "t_profile_ns", "mb_s", "lat_mean_ns",
					    "lat_max_ns"};
	struct json_object *o = json_object_new_object(), *ser = json_object_new_object(), *col[5];

	jsonnum_build_add(o, "group", json_object_new_uint64(index + 1), e);
	jsonnum_build_add(o, "phase", json_object_new_int64(ph.phase), e);
	jsonnum_build_add(o, "repeat", json_object_new_int64(ph.repeat), e);
	add_workload(o, wl, e);
	jsonnum_build_add(o, "samples", json_object_new_uint64(g->samples), e);
	jsonnum_build_add(o, "start_ns", json_object_new_uint64(*t_ns), e);
	jsonnum_build_add(o, "elapsed_ns", json_object_new_uint64(g->elapsed_ns), e);
	jsonnum_build_num(o, "elapsed_profile_ns", (double)g->elapsed_ns / scale, e);
	jsonnum_build_add(o, "bytes", json_object_new_uint64(g->bytes), e);
	jsonnum_build_add(o, "ios", json_object_new_uint64(g->ios), e);
	jsonnum_build_num(o, "mb_s", g->mb_s, e);
	jsonnum_build_num(o, "end_mb_s", g->end_mb_s, e);
	jsonnum_build_num(o, "lat_mean_ns", g->lat_mean_ns, e);
	jsonnum_build_num(o, "art_peak_ns", g->art_peak_ns, e);
	jsonnum_build_num(o, "mrt_ns", g->mrt_ns, e);
	for (int i = 0; i < 5; i++)
		col[i] = json_object_new_array();
	/* One point per sample at its end, on the test's clock: the samples' time (measured and
	 * ramp) summed from the first group's start, as the PTS plots all groups on one axis. */
	for (size_t i = 0; i < n; i++) {
		*t_ns += s[i].elapsed_ns + s[i].ramp_ns;
		jsonnum_build_push(col[0], json_object_new_uint64(*t_ns), e);
		jsonnum_build_push(col[1], jsonnum_new((double)*t_ns / scale), e);
		jsonnum_build_push(col[2], jsonnum_new(snia_xsr_mb_s(&s[i])), e);
		jsonnum_build_push(col[3], jsonnum_new(s[i].lat_mean_ns), e);
		jsonnum_build_push(col[4], jsonnum_new(s[i].lat_max_ns), e);
	}
	for (int i = 0; i < 5; i++)
		jsonnum_build_add(ser, cols[i], col[i], e);
	jsonnum_build_add(o, "series", ser, e);
	return o;
}

static struct json_object *recovery_json(const struct snia_xsr *x, size_t ngroups, double scale,
					 int *e)
{
	const struct recovery_rule rule = RECOVERY_RULE_DEFAULT;
	struct json_object *o = json_object_new_object();
	const char *status = !x->judged	       ? "not judged"
			     : x->rec.back ? "recovered"
					   : "not recovered";

	jsonnum_build_num(o, "reference_mb_s", x->reference_mb_s, e);
	jsonnum_build_add(o, "rule", json_object_new_string(RECOVERY_RULE_NAME), e);
	jsonnum_build_num(o, "band", rule.band, e);
	jsonnum_build_add(o, "samples_in_row", json_object_new_uint64(rule.rounds), e);
	jsonnum_build_add(o, "rule_text", json_object_new_string(RULE), e);
	jsonnum_build_add(o, "status", json_object_new_string(status), e);
	if (!x->judged)
		jsonnum_build_add(o, "why",
				  json_object_new_string(ngroups < SNIA_XSR_GROUPS
							     ? "fewer than 3 access groups"
							     : "group 1 or 3 has no throughput"),
				  e);
	jsonnum_build_add(o, "recovered", json_object_new_boolean(x->judged && x->rec.back), e);
	jsonnum_build_add(o, "samples_judged", json_object_new_uint64(x->rec.measurements), e);
	if (x->judged && x->rec.back) {
		jsonnum_build_add(o, "sample", json_object_new_int64(x->rec.back_round), e);
		jsonnum_build_add(o, "after_ns", json_object_new_uint64(x->rec.back_after_ns), e);
		jsonnum_build_num(o, "after_profile_ns", (double)x->rec.back_after_ns / scale, e);
		jsonnum_build_add(o, "after_bytes", json_object_new_uint64(x->rec.back_after_bytes),
				  e);
	} else {
		jsonnum_build_num(o, "sample", NAN, e);
		jsonnum_build_num(o, "after_ns", NAN, e);
		jsonnum_build_num(o, "after_profile_ns", NAN, e);
		jsonnum_build_num(o, "after_bytes", NAN, e);
	}
	if (x->judged && x->rec.has_first_in_band)
		jsonnum_build_add(o, "first_in_band_sample",
				  json_object_new_int64(x->rec.first_in_band_round), e);
	else
		jsonnum_build_num(o, "first_in_band_sample", NAN, e);
	return o;
}

int pass_snia_xsr(const struct analyze_input *in, struct json_object *block, char *err,
		  size_t errlen)
{
	struct snia_xsr_sample *s[SNIA_XSR_GROUPS] = {0};
	size_t ns[SNIA_XSR_GROUPS] = {0};
	struct snia_xsr_group g1 = {0};
	const struct recovery_rule rule = RECOVERY_RULE_DEFAULT;
	struct reader_phase *ph = NULL;
	struct json_object *groups;
	struct snia_xsr x = {.reference_mb_s = NAN};
	double scale = NAN;
	uint64_t t_ns = 0;
	size_t nph = 0;
	int e = 0, rc = -ENOMEM;

	(void)err;
	(void)errlen;
	if (reader_write_until_phases(&in->records, &ph, &nph))
		return -ENOMEM;
	groups = json_object_new_array();
	/* Groups past the third (a profile changed by --set) are listed; recovery looks at 1 and 3. */
	for (size_t i = 0; i < nph && !e; i++) {
		struct snia_xsr_sample *cur = NULL;
		struct snia_xsr_group g;
		size_t n = 0;
		double sc;

		if (reader_xsr_samples(&in->records, ph[i].phase, ph[i].repeat, &cur, &n, &sc))
			goto out;
		if (isnan(scale) && sc > 0)
			scale = sc;
		snia_xsr_group(cur, n, &g);
		jsonnum_build_push(groups,
				   group_json(cur, n, &g, i, ph[i], pass_plan_workload(in, ph[i].phase),
					      scale > 0 ? scale : 1, &t_ns, &e),
				   &e);
		if (i == 0)
			g1 = g;
		if (i < SNIA_XSR_GROUPS) {
			s[i] = cur;
			ns[i] = n;
		} else {
			free(cur);
		}
	}
	if (!(scale > 0))
		scale = 1;
	if (nph >= SNIA_XSR_GROUPS) {
		rc = snia_xsr_recovery(&g1, s[2], ns[2], &rule, &x);
		if (rc)
			goto out;
	} else {
		x.reference_mb_s = nph ? g1.mb_s : NAN;
	}
	jsonnum_build_num(block, "time_scale", scale, &e);
	jsonnum_build_add(block, "groups", groups, &e);
	groups = NULL;
	jsonnum_build_add(block, "recovery", recovery_json(&x, nph, scale, &e), &e);
	rc = e;
out:
	json_object_put(groups);
	for (int i = 0; i < SNIA_XSR_GROUPS; i++)
		free(s[i]);
	free(ph);
	return rc;
}
