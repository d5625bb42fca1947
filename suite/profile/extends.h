/* SPDX-License-Identifier: MIT */
/*
 * extends: a profile made from another one by overrides (docs/profiles.md, "Profiles made from
 * others"):
 *
 *   name: snia-iops-client
 *   description: SNIA PTS-C IOPS ...
 *   extends: snia-iops
 *   set: {pts.variant: client}
 *
 * The child is the parent's document with each `set:` PATH (a dotted path as `--set` takes it,
 * base/ydoc.h ydoc_set_path) replaced by its VALUE (a scalar, a list or a mapping), then the
 * child's name and description. Only those four keys may appear beside `extends:`, so a child
 * reads as the difference it is. This module works on document trees only; finding and reading
 * the parent (and refusing a cycle) is profile.c's, which owns the search path.
 */
#ifndef SSDLAB_EXTENDS_H
#define SSDLAB_EXTENDS_H

#include "base/ydoc.h"

/* The most profiles a chain of extends may hold (a bound on runaway chains besides cycles). */
#define EXTENDS_MAX_DEPTH 8

/*
 * Whether doc extends another: 0 when it does not, 1 with *parent the `extends:` value node
 * (a scalar: the parent's name or path) when it does. -EINVAL with err at the node: a key
 * other than name, description, extends and set beside extends; extends not a name; set not a
 * mapping; set without extends; no name of the child's own.
 */
int extends_read(const struct ydoc *doc, const struct ydoc_node **parent, struct ydoc_error *err);

/*
 * Makes `parent` (the parent's resolved document, changed in place) the child's: every `set:`
 * entry of child in order (copies of the child's value nodes, which keep their positions in the
 * child's file: child must outlive parent's use), then the child's name and description. 0, or
 * -EINVAL with err at the `set:` key whose path does not exist, -ENOMEM.
 */
int extends_apply(struct ydoc *parent, const struct ydoc *child, struct ydoc_error *err);

#endif
