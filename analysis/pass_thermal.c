/* SPDX-License-Identifier: MIT */
/*
 * pass_thermal: the analysis pass for summary.json's "thermal" (per phase: the hottest reading,
 * the warning level, whether the drive throttled; the cool-down gates), flags.thermal_throttling
 * and flags.cooldown_not_reached, and "endurance" (percentage used and available spare at the
 * run's start and end). The verdicts are analysis/thermal.h's; the values come from the reader.
 * A pass of analyze.c's table (pass.h); it runs after pass_flags, whose "flags" object it adds to.
 */
#include "analysis/pass.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/jsonnum.h"
#include "analysis/reader.h"
#include "analysis/thermal.h"
#include "analysis/wa.h"

/* jsonnum_build_add() for a value that may be NULL on purpose (a JSON null). */
static void add_nullable(struct json_object *o, const char *key, struct json_object *v, int *e)
{
	if (*e) {
		json_object_put(v);
		return;
	}
	*e = jsonnum_add(o, key, v);
}

/* The evidence names of a verdict, in enum order. */
static struct json_object *evidence_json(unsigned ev)
{
	static const char *const names[] = {"thermal_transitions", "warning_temp_minutes",
					    "temperature"};
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; a && i < 3; i++)
		if ((ev & (1u << i)) && json_object_array_add(a, json_object_new_string(names[i]))) {
			json_object_put(a);
			return NULL;
		}
	return a;
}

static struct json_object *phase_json(const struct thermal_phase_in *in,
				      const struct thermal_verdict *v, bool flag)
{
	struct json_object *o = json_object_new_object();
	int e = 0;

	if (!o)
		return NULL;
	jsonnum_build_add(o, "phase", json_object_new_int64(in->phase), &e);
	jsonnum_build_add(o, "repeat", json_object_new_int64(in->repeat), &e);
	if (!flag)
		jsonnum_build_add(o, "throttled", json_object_new_boolean(v->throttled), &e);
	jsonnum_build_add(o, "evidence", evidence_json(v->evidence), &e);
	jsonnum_build_num(o, "max_c", v->max_c, &e);
	jsonnum_build_num(o, "warning_c", v->warning_c, &e);
	add_nullable(o, "warning_source",
			  isnan(v->warning_c) ? NULL
					      : json_object_new_string(v->warning_from_drive ? "drive"
											     : "user"),
			  &e);
	add_nullable(o, "thermal_transitions",
			  v->evidence & THERMAL_EV_TRANSITIONS
			      ? json_object_new_uint64(v->transitions_delta)
			      : NULL,
			  &e);
	add_nullable(o, "warning_temp_minutes",
			  v->evidence & THERMAL_EV_WARN_MINUTES
			      ? json_object_new_uint64(v->warn_minutes_delta)
			      : NULL,
			  &e);
	if (e) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static int phases(const struct analyze_input *in, struct json_object *th, struct json_object *flag)
{
	const struct reader_snaps *s = &in->snaps;
	struct json_object *arr = json_object_new_array();
	double user_warn = in->manifest ? jsonget_num(in->manifest, "warning_c") : NAN;
	struct wa_span *sp;
	size_t nsp;
	int rc = -ENOMEM;

	if (jsonnum_add(th, "phases", arr) || !arr)
		return -ENOMEM;
	sp = calloc(s->n ? s->n : 1, sizeof(*sp));
	if (!sp)
		return -ENOMEM;
	nsp = wa_phase_spans(s->at, s->n, sp);
	for (size_t i = 0; i < nsp; i++) {
		struct thermal_phase_in pi = {.phase = sp[i].phase,
					      .repeat = sp[i].repeat,
					      .user_warning_c = user_warn};
		struct thermal_verdict v;

		reader_thermal_snap(s, sp[i].total_from, &pi.a);
		reader_thermal_snap(s, sp[i].to, &pi.b);
		pi.series_max_c = reader_series_max_temp(in->dir, pi.phase, pi.repeat);
		{
			double rec_c = reader_records_max_temp(&in->records, pi.phase, pi.repeat);
			if (!isnan(rec_c) && (isnan(pi.series_max_c) || rec_c > pi.series_max_c))
				pi.series_max_c = rec_c;
		}
		/* a phase nothing thermal is known of (the virtual SSD's, a file's) gets no entry */
		if (!pi.a.has_transitions && !pi.b.has_transitions && !pi.a.has_warn_minutes &&
		    !pi.b.has_warn_minutes && !pi.a.has_temp && !pi.b.has_temp &&
		    isnan(pi.series_max_c))
			continue;
		thermal_judge(&pi, &v);
		if (json_object_array_add(arr, phase_json(&pi, &v, false)) ||
		    (v.throttled && json_object_array_add(flag, phase_json(&pi, &v, true))))
			goto out;
	}
	rc = 0;
out:
	free(sp);
	return rc;
}

static int cooldowns(const struct analyze_input *in, struct json_object *th,
		     struct json_object *flag)
{
	struct json_object *arr = json_object_new_array();
	struct reader_cooldown *c = NULL;
	size_t n = 0;
	int rc = -ENOMEM;

	if (jsonnum_add(th, "cooldowns", arr) || !arr || reader_cooldowns(&in->records, &c, &n))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_new_object();
		int e = 0;

		if (json_object_array_add(arr, o) || !o)
			goto out;
		jsonnum_build_add(o, "phase", json_object_new_int64(c[i].phase), &e);
		jsonnum_build_add(o, "repeat", json_object_new_int64(c[i].repeat), &e);
		jsonnum_build_add(o, "waited_ns", json_object_new_uint64(c[i].waited_ns), &e);
		jsonnum_build_num(o, "start_c", c[i].start_c, &e);
		jsonnum_build_num(o, "end_c", c[i].end_c, &e);
		jsonnum_build_num(o, "below_c", c[i].below_c, &e);
		jsonnum_build_add(o, "reached", json_object_new_boolean(c[i].reached), &e);
		if (e || (!c[i].reached && json_object_array_add(flag, json_object_get(o))))
			goto out;
	}
	rc = 0;
out:
	free(c);
	return rc;
}

static struct json_object *pair_json(bool has_a, double a, bool has_b, double b)
{
	struct json_object *o = json_object_new_object();
	int e = 0;

	if (!o)
		return NULL;
	jsonnum_build_num(o, "start", has_a ? a : NAN, &e);
	jsonnum_build_num(o, "end", has_b ? b : NAN, &e);
	if (e) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static int endurance(const struct analyze_input *in, struct json_object *summary)
{
	const struct reader_snaps *s = &in->snaps;
	struct thermal_snap *ts = calloc(s->n ? s->n : 1, sizeof(*ts));
	struct thermal_endurance en;
	struct json_object *o;
	int e = 0;

	if (!ts)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++)
		reader_thermal_snap(s, i, &ts[i]);
	thermal_endurance(ts, s->n, &en);
	free(ts);
	if (!en.has_used_start && !en.has_spare_start)
		return 0; /* no source reported either: no block (results of older versions too) */
	o = json_object_new_object();
	if (jsonnum_add(summary, "endurance", o) || !o)
		return -ENOMEM;
	jsonnum_build_add(o, "percentage_used",
			  pair_json(en.has_used_start, en.used_start, en.has_used_end, en.used_end),
			  &e);
	jsonnum_build_add(o, "available_spare",
			  pair_json(en.has_spare_start, en.spare_start, en.has_spare_end,
				    en.spare_end),
			  &e);
	return e ? -ENOMEM : 0;
}

/* Adds a to o under key when it has entries; drops it otherwise. 0 or -ENOMEM. */
static int add_if_any(struct json_object *o, const char *key, struct json_object *a)
{
	if (!json_object_array_length(a)) {
		json_object_put(a);
		return 0;
	}
	return jsonnum_add(o, key, a);
}

/*
 * The keys appear only when there is something to say (a drive that reports heat or wear, a
 * cool-down gate, a throttled phase), so that the summary of a run without any, and of results
 * written before these keys existed, stays as it was byte for byte.
 */
int pass_thermal(const struct analyze_input *in, struct json_object *summary, char *err,
		 size_t errlen)
{
	struct json_object *th = json_object_new_object(), *flags = NULL, *ft, *fc, *ph, *cd;
	int rc = -ENOMEM;

	ft = json_object_new_array();
	fc = json_object_new_array();
	if (!th || !ft || !fc)
		goto out;
	if (!json_object_object_get_ex(summary, "flags", &flags) ||
	    !json_object_is_type(flags, json_type_object)) {
		pass_err(err, errlen, "thermal: the flags pass left no flags object");
		rc = -EINVAL;
		goto out;
	}
	rc = phases(in, th, ft);
	if (!rc)
		rc = cooldowns(in, th, fc);
	if (rc)
		goto out;
	ph = json_object_object_get(th, "phases");
	cd = json_object_object_get(th, "cooldowns");
	if (json_object_array_length(ph) || json_object_array_length(cd)) {
		rc = jsonnum_add(summary, "thermal", th);
		th = NULL;
	}
	if (!rc)
		rc = add_if_any(flags, "thermal_throttling", ft);
	ft = NULL;
	if (!rc)
		rc = add_if_any(flags, "cooldown_not_reached", fc);
	fc = NULL;
	if (!rc)
		rc = endurance(in, summary);
out:
	json_object_put(th);
	json_object_put(ft);
	json_object_put(fc);
	if (rc == -ENOMEM)
		pass_err(err, errlen, "thermal: out of memory");
	return rc;
}
