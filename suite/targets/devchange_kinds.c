/* SPDX-License-Identifier: MIT */
/*
 * devchange_kinds: the table of device change kinds (devchange.h). Each kind is defined in its
 * own devchange_<kind>.c; a new kind is one extern line and one row here.
 */
#include "targets/devchange.h"

#include <string.h>

#include "targets/devchange_hpa.h"
#include "targets/devchange_nvme_ns.h"
#include "targets/devchange_security.h"

extern const struct devchange_kind devchange_kind_write_cache;
extern const struct devchange_kind devchange_kind_power_state;

static const struct devchange_kind *const kinds[] = {
    &devchange_kind_write_cache,    &devchange_kind_power_state, &devchange_kind_hpa,
    &devchange_kind_nvme_namespace, &devchange_kind_security,
};

const struct devchange_kind *devchange_kind(const char *name)
{
	for (size_t i = 0; name && i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i]->name, name))
			return kinds[i];
	return NULL;
}
