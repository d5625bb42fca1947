/* SPDX-License-Identifier: MIT */
/*
 * thermal: the throttling verdict and the endurance block (thermal.h).
 */
#include "analysis/thermal.h"

#include <math.h>
#include <string.h>

static double hotter(double a, double b)
{
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	return a > b ? a : b;
}

void thermal_judge(const struct thermal_phase_in *in, struct thermal_verdict *out)
{
	struct thermal_verdict v = {.max_c = NAN, .warning_c = NAN};
	const struct thermal_snap *a = &in->a, *b = &in->b;

	if (a->has_transitions && b->has_transitions && b->transitions > a->transitions) {
		v.evidence |= THERMAL_EV_TRANSITIONS;
		v.transitions_delta = b->transitions - a->transitions;
	}
	if (a->has_warn_minutes && b->has_warn_minutes && b->warn_minutes > a->warn_minutes) {
		v.evidence |= THERMAL_EV_WARN_MINUTES;
		v.warn_minutes_delta = b->warn_minutes - a->warn_minutes;
	}
	v.max_c = in->series_max_c;
	if (a->has_temp)
		v.max_c = hotter(v.max_c, a->temp_c);
	if (b->has_temp)
		v.max_c = hotter(v.max_c, b->temp_c);
	/* the drive's own threshold first: it is where its firmware starts to count */
	if (b->has_warning_c || a->has_warning_c) {
		v.warning_c = b->has_warning_c ? b->warning_c : a->warning_c;
		v.warning_from_drive = true;
	} else {
		v.warning_c = in->user_warning_c;
	}
	if (!isnan(v.max_c) && !isnan(v.warning_c) && v.max_c >= v.warning_c)
		v.evidence |= THERMAL_EV_TEMPERATURE;
	v.throttled = v.evidence != 0;
	*out = v;
}

void thermal_endurance(const struct thermal_snap *s, unsigned long n, struct thermal_endurance *out)
{
	struct thermal_endurance e;

	memset(&e, 0, sizeof(e));
	for (unsigned long i = 0; i < n; i++) {
		if (s[i].has_used) {
			if (!e.has_used_start)
				e.used_start = s[i].used_pct;
			e.has_used_start = e.has_used_end = true;
			e.used_end = s[i].used_pct;
		}
		if (s[i].has_spare) {
			if (!e.has_spare_start)
				e.spare_start = s[i].spare_pct;
			e.has_spare_start = e.has_spare_end = true;
			e.spare_end = s[i].spare_pct;
		}
	}
	*out = e;
}
