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

void info_ata_read(const char *dev, struct info_ata *out)
{
	uint8_t id[ATA_IDENTIFY_LEN];
	int fd;

	memset(out, 0, sizeof *out);
	fd = open(dev, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(out->why, sizeof out->why, "%s: %s", dev, strerror(errno));
		return;
	}
	int ret = ata_identify_read(&ioctl_ops_real, fd, id, out->why, sizeof out->why);
	if (ret) {
		if (ret == -EPERM || ret == -EACCES)
			snprintf(out->why + strlen(out->why), sizeof out->why - strlen(out->why),
				 " (ATA PASS-THROUGH needs CAP_SYS_RAWIO)");
		goto out;
	}
	ata_identify_decode(id, &out->id);
	ata_hpa_read(&ioctl_ops_real, fd, &out->id, &out->hpa);
	out->read = true;
out:
	close(fd);
}

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

/* HIPM is the host's choice: libata uses it under every link power management policy but
 * max_performance and keep_firmware_settings (drivers/ata/libata-sata.c, ata_lpm_policy_names).
 * -1 when the policy is unknown. */
static int hipm_in_use(const struct ata_identity *d, const char *alpm)
{
	if (!d->sata_valid || !*alpm)
		return -1;
	if (!d->hipm)
		return 0;
	return strcmp(alpm, "max_performance") && strcmp(alpm, "keep_firmware_settings");
}

static const char *hpa_state(const struct info_ata *a)
{
	return !a->hpa.known ? "unknown" : a->hpa.hidden_bytes ? "active" : "none";
}

/* key: v where a NULL v is a JSON null (unknown); the first error stays in *e. */
static void add_opt(struct json_object *o, const char *key, struct json_object *v, int *e)
{
	if (*e) {
		json_object_put(v);
		return;
	}
	*e = jsonnum_add(o, key, v);
}

/* {"supported": s, "enabled": e}; -1 is null (unknown). */
static struct json_object *pair(int s, int e)
{
	struct json_object *o = json_object_new_object();
	int err = 0;

	if (!o)
		return NULL;
	add_opt(o, "supported", s < 0 ? NULL : json_object_new_boolean(s), &err);
	add_opt(o, "enabled", e < 0 ? NULL : json_object_new_boolean(e), &err);
	if (err) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

int info_ata_json(struct json_object *top, const struct info_ata *a, const char *alpm)
{
	const struct ata_identity *d = &a->id;
	struct json_object *o = json_object_new_object(), *x;
	int e = 0, sv = d->sata_valid ? 1 : -1;

	if (!o)
		return -ENOMEM;
	jsonnum_build_add(o, "read", json_object_new_boolean(a->read), &e);
	if (!a->read) {
		jsonnum_build_add(o, "reason", json_object_new_string(a->why), &e);
		goto done;
	}
	jsonnum_build_add(o, "model", json_object_new_string(d->model), &e);
	jsonnum_build_add(o, "serial", json_object_new_string(d->serial), &e);
	jsonnum_build_add(o, "firmware", json_object_new_string(d->firmware), &e);
	add_opt(o, "major_version", d->major_version < 0 ? NULL : json_object_new_string(d->major_name), &e);
	jsonnum_build_add(o, "lba48", json_object_new_boolean(d->lba48), &e);
	jsonnum_build_num(o, "logical_sector_size", d->logical_sector, &e);
	jsonnum_build_num(o, "physical_sector_size", d->physical_sector, &e);
	jsonnum_build_num(o, "user_sectors", (double)d->user_sectors, &e);
	jsonnum_build_add(o, "smart", pair(d->smart_supported, d->smart_enabled), &e);
	jsonnum_build_add(o, "write_cache", pair(d->write_cache_supported, d->write_cache_enabled), &e);
	x = json_object_new_object();
	if (x) {
		jsonnum_build_add(x, "supported", json_object_new_boolean(d->trim), &e);
		jsonnum_build_add(x, "deterministic_read", json_object_new_boolean(d->trim_drat), &e);
		jsonnum_build_add(x, "read_zeroes", json_object_new_boolean(d->trim_rzat), &e);
	}
	jsonnum_build_add(o, "trim", x, &e);
	x = pair(d->hpa_supported, d->hpa_enabled);
	if (x) {
		jsonnum_build_add(x, "state", json_object_new_string(hpa_state(a)), &e);
		/* LBAs up to 2^48: exact in a double */
		jsonnum_build_num(x, "current_max_lba", d->user_sectors ? (double)(d->user_sectors - 1) : 0, &e);
		jsonnum_build_num(x, "native_max_lba", a->hpa.known ? (double)a->hpa.native_max_lba : NAN, &e);
		jsonnum_build_num(x, "hidden_bytes", a->hpa.known ? (double)a->hpa.hidden_bytes : NAN, &e);
		add_opt(x, "reason", a->hpa.known ? NULL : json_object_new_string(a->hpa.why), &e);
	}
	jsonnum_build_add(o, "hpa", x, &e);
	x = pair(d->security_supported, d->security_enabled);
	if (x) {
		jsonnum_build_add(x, "frozen", json_object_new_boolean(d->security_frozen), &e);
		jsonnum_build_add(x, "locked", json_object_new_boolean(d->security_locked), &e);
	}
	jsonnum_build_add(o, "security", x, &e);
	x = json_object_new_object();
	if (x) {
		jsonnum_build_add(x, "supported", json_object_new_boolean(d->sanitize), &e);
		jsonnum_build_add(x, "block_erase", json_object_new_boolean(d->sanitize_block_erase), &e);
		jsonnum_build_add(x, "crypto_scramble", json_object_new_boolean(d->sanitize_crypto), &e);
		jsonnum_build_add(x, "overwrite", json_object_new_boolean(d->sanitize_overwrite), &e);
	}
	jsonnum_build_add(o, "sanitize", x, &e);
	/* SATA words 76-79 absent (PATA, some bridges): unknown, not "no" */
	jsonnum_build_add(o, "devslp", pair(sv < 0 ? -1 : d->devslp_supported, sv < 0 ? -1 : d->devslp_enabled),
			  &e);
	jsonnum_build_add(o, "dipm", pair(sv < 0 ? -1 : d->dipm_supported, sv < 0 ? -1 : d->dipm_enabled), &e);
	jsonnum_build_add(o, "hipm", pair(sv < 0 ? -1 : d->hipm, hipm_in_use(d, alpm)), &e);
done:
	if (e) {
		json_object_put(o);
		return e;
	}
	return jsonnum_add(top, "ata", o);
}

static const char *yesno(bool b)
{
	return b ? "yes" : "no";
}

static const char *tri(int v)
{
	return v < 0 ? "unknown" : v ? "yes" : "no";
}

void info_ata_text(const struct info_ata *a, const char *alpm)
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
	       tri(hipm_in_use(d, alpm)), yesno(d->dipm_supported), yesno(d->dipm_enabled));
}
