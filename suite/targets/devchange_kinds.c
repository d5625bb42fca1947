// SPDX-License-Identifier: MIT
/*
 * devchange_kinds: the table of devchange kinds (targets/devchange.h), one row a kind, each
 * implemented in devchange_<kind>.c.
 */
#include <string.h>

#include "targets/devchange.h"
#include "targets/devchange_hpa.h"

static const struct devchange_kind *const kinds[] = {
    &devchange_kind_hpa,
};

const struct devchange_kind *devchange_kind(const char *name)
{
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (!strcmp(kinds[i]->name, name))
			return kinds[i];
	return NULL;
}
