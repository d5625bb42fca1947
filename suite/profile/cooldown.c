/* SPDX-License-Identifier: MIT */
/*
 * cooldown: the `cooldown:` key of a profile or a phase (cooldown.h).
 */
#include "profile/cooldown.h"
#include "base/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonnum.h"

/* Drives are rated to operate up to about 70-85 C; 150 C is past any, a typo for sure. */
#define COOLDOWN_MAX_C 150.0

int profile_cooldown_temp(const char *text, double *celsius)
{
	char *end;
	double v;

	if (!text || !*text || isspace((unsigned char)*text))
		return -EINVAL;
	v = strtod(text, &end);
	if (end == text || !isfinite(v))
		return -EINVAL;
	while (*end == ' ')
		end++;
	if (*end == 'K' && !end[1])
		v -= UNITS_KELVIN_OFFSET;
	else if (!(!*end || (*end == 'C' && !end[1])))
		return -EINVAL;
	if (v < -UNITS_KELVIN_OFFSET || v > COOLDOWN_MAX_C)
		return -EINVAL;
	*celsius = v;
	return 0;
}

struct cooldown_raw {
	const struct ydoc_node *below;
	uint64_t max_wait_ns, poll_ns;
};

int profile_cooldown_parse(const struct ydoc_node *n, struct profile_cooldown *out,
			   struct ydoc_error *err)
{
	static const struct ydoc_key keys[] = {
		{.name = "below", .kind = YK_ANY, .required = true,
		 .offset = offsetof(struct cooldown_raw, below)},
		{.name = "max_wait", .kind = YK_DURATION,
		 .offset = offsetof(struct cooldown_raw, max_wait_ns)},
		{.name = "poll", .kind = YK_DURATION, .bounded = true, .min = 1e6, .max = 3.6e12,
		 .offset = offsetof(struct cooldown_raw, poll_ns)},
		{0},
	};
	struct cooldown_raw raw = {.max_wait_ns = COOLDOWN_DEFAULT_MAX_WAIT_NS,
				   .poll_ns = COOLDOWN_DEFAULT_POLL_NS};
	double c;
	int ret = ydoc_map_read(n, "cooldown", keys, &raw, NULL, err);

	if (ret)
		return ret;
	if (raw.below->type != YDOC_SCALAR || profile_cooldown_temp(raw.below->text, &c))
		return ydoc_errorf(err, raw.below,
				   "expected a temperature for cooldown.below such as 50C or "
				   "323K (at most %.0fC), got %.40s",
				   COOLDOWN_MAX_C,
				   raw.below->type == YDOC_SCALAR ? raw.below->text
								  : ydoc_type_name(raw.below->type));
	*out = (struct profile_cooldown){
		.set = true, .below_c = c, .max_wait_ns = raw.max_wait_ns, .poll_ns = raw.poll_ns};
	return 0;
}

struct json_object *profile_cooldown_to_json(const struct profile_cooldown *c)
{
	struct json_object *o;
	int e = 0;

	if (!c || !c->set || !(o = json_object_new_object()))
		return NULL;
	jsonnum_build_num(o, "below_c", c->below_c, &e);
	jsonnum_build_add(o, "max_wait_ns", json_object_new_uint64(c->max_wait_ns), &e);
	jsonnum_build_add(o, "poll_ns", json_object_new_uint64(c->poll_ns), &e);
	if (e) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

const struct profile_cooldown *profile_cooldown_for(const struct profile_cooldown *phase,
						    const struct profile_cooldown *global)
{
	if (phase && phase->set)
		return phase;
	if (global && global->set)
		return global;
	return NULL;
}
