/* SPDX-License-Identifier: MIT */
/*
 * extends: a profile's `extends:` and `set:` applied to document trees (see extends.h).
 */
#include "profile/extends.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const child_keys[] = {"name", "description", "extends", "set", NULL};

int extends_read(const struct ydoc *doc, const struct ydoc_node **parent, struct ydoc_error *err)
{
	const struct ydoc_node *root = doc->root, *ext, *set;

	if (!root || root->type != YDOC_MAPPING)
		return 0; /* the profile's own parse says what is wrong */
	ext = ydoc_map_get(root, "extends");
	set = ydoc_map_get(root, "set");
	if (!ext) {
		if (set)
			return ydoc_errorf(err, ydoc_map_key(root, "set"),
					   "set: overrides a parent profile: give extends: NAME "
					   "(or use --set on the command line)");
		return 0;
	}
	if (ext->type != YDOC_SCALAR || !*ext->text)
		return ydoc_errorf(err, ext,
				   "extends: expected the name or path of a profile, such as "
				   "snia-iops");
	for (size_t i = 0; i < root->n; i++) {
		const struct ydoc_node *k = root->pairs[i].key;
		const char *near;
		bool known = false;

		for (const char *const *c = child_keys; *c; c++)
			known |= !strcmp(*c, k->text);
		if (known)
			continue;
		near = ydoc_nearest(k->text, child_keys);
		return ydoc_errorf(err, k,
				   "'%s' beside extends: a profile made from another holds only "
				   "name, description, extends and set (set: {%s...: VALUE} "
				   "changes the parent's)%s%s%s",
				   k->text, k->text, near ? " (did you mean '" : "",
				   near ? near : "", near ? "'?)" : "");
	}
	if (!ydoc_map_get(root, "name"))
		return ydoc_errorf(err, root,
				   "a profile made from another needs a name of its own (results "
				   "directories and manifests carry it)");
	if (set && set->type != YDOC_MAPPING && !(set->type == YDOC_SCALAR && !set->quoted &&
						  !*set->text))
		return ydoc_errorf(err, set,
				   "set: expected a mapping of paths to values, such as "
				   "{pts.variant: client, phases.2.rounds.cell_time: 30s}");
	*parent = ext;
	return 1;
}

/* Replaces (or adds) the top-level scalar `key` of parent with the child's node. */
static int take_key(struct ydoc *parent, const struct ydoc_node *root, const char *key,
		    struct ydoc_error *err)
{
	const struct ydoc_node *v = ydoc_map_get(root, key);

	return v ? ydoc_set_node(parent, key, v, err) : 0;
}

int extends_apply(struct ydoc *parent, const struct ydoc *child, struct ydoc_error *err)
{
	const struct ydoc_node *root = child->root, *set = ydoc_map_get(root, "set");
	int ret;

	if (!parent->root || parent->root->type != YDOC_MAPPING)
		return ydoc_errorf(err, ydoc_map_get(root, "extends"),
				   "extends: the parent profile is not a mapping");
	for (size_t i = 0; set && set->type == YDOC_MAPPING && i < set->n; i++) {
		const struct ydoc_node *k = set->pairs[i].key;
		struct ydoc_error e;

		ret = ydoc_set_node(parent, k->text, set->pairs[i].value, &e);
		if (ret == -EINVAL)
			/* ydoc says the path's problem without a place: the place is the key */
			return ydoc_errorf(err, k, "set: %s (paths name the parent's keys)",
					   e.msg);
		if (ret)
			return ret;
	}
	ret = take_key(parent, root, "name", err);
	if (!ret)
		ret = take_key(parent, root, "description", err);
	return ret;
}
