/* SPDX-License-Identifier: MIT */
/*
 * purge_reach: the reach of a profile's purges, for the confirmation (purge_reach.h).
 */
#include "cli/purge_reach.h"

#include <stdio.h>
#include <string.h>

#include "host/nvme_format.h"
#include "profile/phases.h"
#include "profile/profile.h"
#include "targets/target.h"

/* Depth first through repeats: which drive purges the list holds. */
static void scan(const struct phase_list *l, bool *sanitize, bool *maybe)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct profile_phase *ph = &l->v[i];

		if (ph->kind->type == PHASE_REPEAT) {
			scan(&((const struct phase_repeat *)ph->data)->phases, sanitize, maybe);
		} else if (ph->kind->type == PHASE_PURGE) {
			enum purge_method m = ((const struct phase_purge *)ph->data)->method;

			*sanitize |= m == PURGE_NVME_SANITIZE;
			*maybe |= m == PURGE_AUTO || m == PURGE_NVME_FORMAT;
		}
	}
}

void cli_purge_reach(const struct profile *p, const struct target *t, char *what, size_t len,
		     bool *whole_subsystem)
{
	bool sanitize = false, maybe = false;
	size_t at = strlen(what);

	*whole_subsystem = false;
	/* A SATA drive's purge (ATA sanitize, security erase) reaches only the disk itself, which
	 * passed the gate as the target: only an NVMe namespace has siblings to name. */
	if (!(target_caps(t) & TARGET_CAP_DRIVE_PURGE) || !target_info(t)->nvme.nsid)
		return;
	scan(&p->phases, &sanitize, &maybe);
	if (sanitize) {
		*whole_subsystem = true;
		if (at < len)
			snprintf(what + at, len - at, "; its purge sends a sanitize (%s)",
				 nvme_sanitize_warning());
	} else if (maybe && at < len) {
		snprintf(what + at, len - at,
			 "; its purge may format or sanitize the drive, which can reach every "
			 "namespace of its "
			 "NVM subsystem (each is checked again before the command is sent)");
	}
}
