/* SPDX-License-Identifier: MIT */
/*
 * variants: the capacity changes of a `variants` phase (run/variants.h): the virtual SSD's
 * capacity setting or a discarded, never-written tail, and their undoing.
 */
#include "run/variants.h"

#include <errno.h>
#include <stdio.h>

#include "base/units.h"
#include "targets/target.h"

int variants_begin(struct target *t, const struct phase_variants *v, struct variants_state *s,
		   char *err, size_t len)
{
	unsigned caps = target_caps(t);
	enum variant_method m = v->method;

	if (m == VARIANT_AUTO)
		m = caps & TARGET_CAP_SET_CAPACITY ? VARIANT_SIM : VARIANT_TRIM_TAIL;
	if (m == VARIANT_SIM && !(caps & TARGET_CAP_SET_CAPACITY)) {
		snprintf(err, len,
			 "variants: method sim needs a target that sets its capacity "
			 "(the virtual SSD)");
		return -EOPNOTSUPP;
	}
	if (m == VARIANT_TRIM_TAIL && !(caps & TARGET_CAP_DISCARD)) {
		snprintf(err, len, "variants: method trim-tail needs a target that discards");
		return -EOPNOTSUPP;
	}
	*s = (struct variants_state){
	    .method = m,
	    .orig_capacity = target_info(t)->capacity,
	    .size = target_info(t)->capacity,
	};
	return 0;
}

int variants_apply(struct target *t, const struct phase_variants *v, unsigned i,
		   struct variants_state *s, char *err, size_t len)
{
	uint64_t size = units_fraction_floor(s->orig_capacity, v->fraction[i], VARIANTS_ALIGN);
	int rc;

	if (!size) {
		snprintf(err, len, "variants: %.4g%% of the capacity is less than %llu bytes",
			 v->fraction[i] * 100.0, (unsigned long long)VARIANTS_ALIGN);
		return -EINVAL;
	}
	if (s->method == VARIANT_SIM) {
		/* mark it changed first: a failed set may still have unmapped part of the tail */
		s->changed = true;
		rc = target_set_capacity(t, size);
		if (rc) {
			snprintf(err, len, "variants: setting the capacity to %llu bytes: %s",
				 (unsigned long long)size, target_error(t));
			return rc;
		}
		s->changed = size != s->orig_capacity;
		s->limit = 0;
	} else {
		/* LBAs written by an earlier variant past the new end would stay mapped (not spare)
		 * if the body's purge is no full discard: discard them here too */
		if (size < s->orig_capacity) {
			rc = target_discard(t, size, s->orig_capacity - size);
			if (rc) {
				snprintf(err, len,
					 "variants: discarding the tail past %llu bytes: %s",
					 (unsigned long long)size, target_error(t));
				return rc;
			}
		}
		s->limit = size < s->orig_capacity ? size : 0;
	}
	s->size = size;
	return 0;
}

int variants_restore(struct target *t, struct variants_state *s, char *err, size_t len)
{
	int rc;

	s->limit = 0;
	if (s->method != VARIANT_SIM || !s->changed)
		return 0;
	rc = target_set_capacity(t, s->orig_capacity);
	if (rc) {
		snprintf(err, len, "variants: restoring the capacity of %llu bytes: %s",
			 (unsigned long long)s->orig_capacity, target_error(t));
		return rc;
	}
	s->changed = false;
	s->size = s->orig_capacity;
	return 0;
}

uint64_t variants_spare_added(const struct variants_state *s)
{
	return s->orig_capacity - s->size;
}
