// SPDX-License-Identifier: MIT
/*
 * info_ata: IDENTIFY and HPA for `ssdlab info` (see info_ata.h).
 */
#include "cli/info_ata.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/jsonnum.h"
#include "host/ata_cmd.h"

void info_ata_dry(const char *dev)
{
	const struct ata_cmd cmds[] = {ata_cmd_identify(), ata_cmd_read_native_max_ext()};
	char line[320];

	printf("%s: ATA PASS-THROUGH(16) through SG_IO, in this order:\n", dev);
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		ata_cmd_describe(&cmds[i], line, sizeof line);
		printf("  %s%s\n", line, i ? " (only if IDENTIFY reports 48-bit addressing)" : "");
	}
}

static const char *yesno(bool b)
{
	return b ? "yes" : "no";
}

static const char *tri(int v)
{
	return v < 0 ? "unknown" : v ? "yes" : "no";
}

void info_ata_text(const struct drive_ident_ata *a, const char *alpm)
{
	const struct ata_identity *d = &a->id;

	if (!a->read) {
		printf("  ATA           not read: %s\n", a->why);
		return;
	}
	printf("  ATA model     %s (serial %s, firmware %s)\n", d->model, d->serial, d->firmware);
	printf("  ATA version   %s%s\n", d->major_name, d->lba48 ? ", 48-bit" : ", 28-bit");
	printf("  ATA sectors   logical %u, physical %u, %llu addressable\n", d->logical_sector,
	       d->physical_sector, (unsigned long long)d->user_sectors);
	printf("  SMART         supported %s, enabled %s\n", yesno(d->smart_supported), yesno(d->smart_enabled));
	printf("  write cache   supported %s, enabled %s (IDENTIFY)\n", yesno(d->write_cache_supported),
	       yesno(d->write_cache_enabled));
	printf("  TRIM          %s%s%s\n", yesno(d->trim), d->trim_drat ? ", deterministic read after TRIM" : "",
	       d->trim_rzat ? ", reads zeroes" : "");
	printf("  HPA           supported %s, enabled %s; ", yesno(d->hpa_supported), yesno(d->hpa_enabled));
	if (!a->hpa.known)
		printf("state unknown (%s)\n", a->hpa.why);
	else if (!a->hpa.hidden_bytes)
		printf("no HPA (native max LBA %llu = current max)\n", (unsigned long long)a->hpa.native_max_lba);
	else
		printf("HPA hides %llu bytes (native max LBA %llu, current %llu)\n",
		       (unsigned long long)a->hpa.hidden_bytes, (unsigned long long)a->hpa.native_max_lba,
		       (unsigned long long)a->hpa.current_max_lba);
	printf("  security      supported %s, enabled %s, frozen %s, locked %s\n", yesno(d->security_supported),
	       yesno(d->security_enabled), yesno(d->security_frozen), yesno(d->security_locked));
	printf("  sanitize      %s", yesno(d->sanitize));
	if (d->sanitize)
		printf(" (block erase %s, crypto scramble %s, overwrite %s)", yesno(d->sanitize_block_erase),
		       yesno(d->sanitize_crypto), yesno(d->sanitize_overwrite));
	printf("\n");
	if (!d->sata_valid) {
		printf("  DEVSLP/ALPM   unknown (no SATA capability words)\n");
		return;
	}
	printf("  DEVSLP        supported %s, enabled %s\n", yesno(d->devslp_supported), yesno(d->devslp_enabled));
	printf("  ALPM          HIPM supported %s, in use %s; DIPM supported %s, enabled %s\n", yesno(d->hipm),
	       tri(drive_ident_hipm_in_use(d, alpm)), yesno(d->dipm_supported), yesno(d->dipm_enabled));
}
