/* SPDX-License-Identifier: MIT */
/*
 * headline_thermal: the headline's lines about heat and wear (headline.h), from summary.json's
 * flags.thermal_throttling, flags.cooldown_not_reached and endurance (analysis/pass_thermal.c).
 */
#include "cli/headline.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/units.h"

static bool has_evidence(struct json_object *e, const char *name)
{
	struct json_object *a;

	if (!json_object_object_get_ex(e, "evidence", &a) || !json_object_is_type(a, json_type_array))
		return false;
	for (size_t i = 0; i < json_object_array_length(a); i++)
		if (!strcmp(json_object_get_string(json_object_array_get_idx(a, i)), name))
			return true;
	return false;
}

static void print_throttling(struct json_object *arr, FILE *f)
{
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *e = json_object_array_get_idx(arr, i);
		int64_t phase = 0, repeat = 0, n = 0;
		char why[256] = "", a[32], b[32];
		size_t l = 0;

		(void)jsonget_int(e, "phase", &phase);
		(void)jsonget_int(e, "repeat", &repeat);
		if (has_evidence(e, "thermal_transitions") && !jsonget_int(e, "thermal_transitions", &n))
			l += (size_t)snprintf(why + l, sizeof(why) - l,
					      "%sthermal management transitions +%" PRId64,
					      l ? "; " : "", n);
		if (l < sizeof(why) && has_evidence(e, "warning_temp_minutes") &&
		    !jsonget_int(e, "warning_temp_minutes", &n))
			l += (size_t)snprintf(why + l, sizeof(why) - l,
					      "%s%" PRId64 " min above the warning temperature",
					      l ? "; " : "", n);
		if (l < sizeof(why) && has_evidence(e, "temperature"))
			snprintf(why + l, sizeof(why) - l, "%s%s C reached the warning level %s C (%s)",
				 l ? "; " : "",
				 units_fmt_double(jsonget_num(e, "max_c"), 1, a, sizeof(a)),
				 units_fmt_double(jsonget_num(e, "warning_c"), 1, b, sizeof(b)),
				 jsonget_str(e, "warning_source") ? jsonget_str(e, "warning_source")
								  : "?");
		fprintf(f,
			"FLAG: the drive throttled in phase %" PRId64 " (repeat %" PRId64 "): %s; "
			"a throttling drive looks like an SLC-cache cliff, so a drop there may be "
			"heat\n",
			phase, repeat, why);
	}
}

static void print_cooldowns(struct json_object *arr, FILE *f)
{
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *e = json_object_array_get_idx(arr, i);
		int64_t phase = 0, waited = 0;
		char a[32], b[32], t[32];

		(void)jsonget_int(e, "phase", &phase);
		(void)jsonget_int(e, "waited_ns", &waited);
		units_fmt_duration(waited > 0 ? (uint64_t)waited : 0, t, sizeof(t));
		fprintf(f,
			"FLAG: phase %" PRId64 " started hot: the cool-down gate gave up after %s at "
			"%s C (below %s C wanted)\n",
			phase, t, units_fmt_double(jsonget_num(e, "end_c"), 1, a, sizeof(a)),
			units_fmt_double(jsonget_num(e, "below_c"), 1, b, sizeof(b)));
	}
}

/* "3% -> 4%"; "-" for a side that is unknown. */
static const char *pair(struct json_object *o, char *buf, size_t len)
{
	double s = jsonget_num(o, "start"), e = jsonget_num(o, "end");
	char a[32], b[32];

	snprintf(buf, len, "%s%% -> %s%%", isnan(s) ? "-" : units_fmt_double(s, 0, a, sizeof(a)),
		 isnan(e) ? "-" : units_fmt_double(e, 0, b, sizeof(b)));
	return buf;
}

void headline_print_thermal(struct json_object *summary, FILE *f)
{
	struct json_object *flags, *arr, *en, *u = NULL, *s = NULL;
	char a[64], b[64];

	if (json_object_object_get_ex(summary, "flags", &flags)) {
		if (json_object_object_get_ex(flags, "thermal_throttling", &arr) &&
		    json_object_is_type(arr, json_type_array))
			print_throttling(arr, f);
		if (json_object_object_get_ex(flags, "cooldown_not_reached", &arr) &&
		    json_object_is_type(arr, json_type_array))
			print_cooldowns(arr, f);
	}
	if (!json_object_object_get_ex(summary, "endurance", &en) || !en)
		return;
	(void)json_object_object_get_ex(en, "percentage_used", &u);
	(void)json_object_object_get_ex(en, "available_spare", &s);
	if ((u && !isnan(jsonget_num(u, "start"))) || (s && !isnan(jsonget_num(s, "start"))))
		fprintf(f, "endurance      percentage used %s, available spare %s\n",
			u ? pair(u, a, sizeof(a)) : "-", s ? pair(s, b, sizeof(b)) : "-");
}
