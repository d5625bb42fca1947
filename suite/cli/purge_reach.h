/* SPDX-License-Identifier: MIT */
/*
 * purge_reach: what a profile's purge phases may reach on a real drive, for the confirmation
 * (issue 13 point 5). A purge by nvme-sanitize reaches every namespace of the NVM subsystem, so
 * every one of them must pass the in-use checks before the run starts, and the confirmation
 * says what a sanitize is (host/nvme_format.h's warning). An auto or nvme-format purge on a
 * drive with purge commands may reach them too (a format when FNA says so): the confirmation
 * says so, and the purge chain checks the exact reach again before it sends anything.
 */
#ifndef SSDLAB_CLI_PURGE_REACH_H
#define SSDLAB_CLI_PURGE_REACH_H

#include <stdbool.h>
#include <stddef.h>

struct profile;
struct target;

/* Appends to what (NUL-terminated, len bytes in all) the reach of p's purges on t; sets
 * *whole_subsystem when a purge certainly reaches the whole subsystem (nvme-sanitize). */
void cli_purge_reach(const struct profile *p, const struct target *t, char *what, size_t len,
		     bool *whole_subsystem);

#endif
