/* SPDX-License-Identifier: MIT */
/*
 * phases_sprandom: the inputs of precondition's `method: sprandom` (profile/phases.h, struct
 * phase_sprandom) resolved against a target, and their JSON for the records and the manifest.
 * The parse is phases.c's (the precondition kind); the sequence is engine/sprandom.h's.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/errmsg.h"
#include "base/jsonnum.h"
#include "engine/sprandom.h"
#include "profile/phases.h"
#include "results/slcprobe.h"

const char *phase_spr_source_name(enum spr_source s)
{
	switch (s) {
	case SPR_FROM_PROFILE:
		return "profile";
	case SPR_FROM_MODEL:
		return "model";
	case SPR_ASSUMED:
		return "assumed";
	case SPR_FROM_PROBE:
		return "slc-cache probe";
	case SPR_FROM_DRIVEDB:
		return "drive database";
	}
	return "?";
}

/* Appends ", KEY 'was' there, 'is' here" to buf when the two differ. */
static void differs(char *buf, size_t len, const char *key, const char *was, const char *is)
{
	size_t n = strlen(buf);

	if (strcmp(was, is) && n < len)
		snprintf(buf + n, len - n, "%s%s '%s' there, '%s' here", n ? ", " : "", key, was,
			 is);
}

/*
 * slc_cache: {from: DIR}: the size the probe in DIR measured, when it measured this drive. The
 * identity is the model, serial and WWN the manifests record (a virtual SSD's serial carries
 * its seed); the path is not compared, device names change between boots.
 */
static int slc_from_probe(const char *dir, const struct phase_nand *nand,
			  struct sprandom_inputs *in, char *err, size_t errlen)
{
	struct results_slc_probe pr;
	char diff[600] = "", why[400] = "";
	int rc;

	if (!nand->model || !nand->serial)
		return errmsg_set(err, errlen, -EINVAL,
				  "sprandom: slc_cache: {from: %s} needs the target's identity to "
				  "compare with the probe's drive, and none is known here",
				  dir);
	rc = results_slc_probe_read(dir, &pr, why, sizeof(why));
	if (rc)
		return errmsg_set(err, errlen, -EINVAL, "sprandom: slc_cache: {from: %s}: %s", dir,
				  why);
	differs(diff, sizeof(diff), "model", pr.model, nand->model);
	differs(diff, sizeof(diff), "serial", pr.serial, nand->serial);
	differs(diff, sizeof(diff), "wwn", pr.wwn, nand->wwn ? nand->wwn : "");
	if (diff[0])
		return errmsg_set(err, errlen, -EINVAL,
				  "sprandom: slc_cache: {from: %s}: that probe ran on another drive "
				  "(%s/manifest.json target: %s)",
				  dir, dir, diff);
	in->slc_cache = pr.cache_bytes;
	in->slc_from = SPR_FROM_PROBE;
	snprintf(in->slc_dir, sizeof(in->slc_dir), "%s", dir);
	in->slc_phase = pr.phase;
	in->slc_fill = pr.fill;
	return 0;
}

int phase_sprandom_resolve(const struct phase_sprandom *p, uint32_t bs, uint64_t capacity,
			   const struct phase_nand *nand, struct sprandom_inputs *out, char *err,
			   size_t errlen)
{
	static const struct phase_nand none = {0};
	struct sprandom_inputs in = {.bs = bs};
	struct sprandom *seq = NULL;
	double u_over_p;
	int rc;

	if (!nand)
		nand = &none;
	if (!bs || capacity < bs)
		return errmsg_set(err, errlen, -EINVAL, "sprandom: the range holds no %" PRIu32
							" B write", bs);
	in.units = capacity / bs;
	if (phase_sprandom_spare_unknown(p, nand))
		return errmsg_set(err, errlen, -EINVAL,
				  "sprandom: spare: auto needs the raw NAND size, which no virtual SSD "
				  "model or drive-database entry states here; 3 ways to state it: set "
				  "the precondition's spare: (e.g. 7%%, or 12%% for 480 GB on 512 GiB "
				  "of NAND), add a raw_nand: row to the drive's entry in the drive "
				  "database (ssdlab drives --path), or use a virtual SSD model");
	if (!p->spare_auto) {
		in.spare = p->spare;
		in.spare_from = SPR_FROM_PROFILE;
	} else if (nand->gc_space_bytes) {
		/* the model's space GC can fill, over what is visible now (an HPA variant's
		 * added spare counts) */
		in.spare = 1 - (double)capacity / (double)nand->gc_space_bytes;
		in.spare_from = SPR_FROM_MODEL;
	} else {
		/* the raw NAND the drive database states: its spare includes what the firmware
		 * keeps for itself (GC reserve, bad blocks, metadata), so the fill is a little
		 * fuller than the model's effective spare would make it */
		in.spare = 1 - (double)capacity / (double)nand->raw_nand_bytes;
		in.spare_from = SPR_FROM_DRIVEDB;
		in.raw_nand_bytes = nand->raw_nand_bytes;
		snprintf(in.spare_entry, sizeof(in.spare_entry), "%s",
			 nand->raw_nand_entry ? nand->raw_nand_entry : "?");
	}
	if (!(in.spare > 0 && in.spare < 1))
		return errmsg_set(err, errlen, -EINVAL,
				  "sprandom: spare factor %.4f (%s) leaves no spare for GC: the fill "
				  "needs one in (0, 1)",
				  in.spare, phase_spr_source_name(in.spare_from));
	/* Where the layout is known not to hold (docs/sprandom.md, "Where it does not apply"):
	 * refused, or run with the reason recorded when the profile says force: true. */
	if (nand->gc_policy && strcmp(nand->gc_policy, "greedy") &&
	    strcmp(nand->gc_policy, "d-choices"))
		snprintf(in.force_why, sizeof(in.force_why),
			 "the model's GC policy is %s, not greedy-like: the fill lays out greedy "
			 "GC's steady state",
			 nand->gc_policy);
	else if (nand->slc_static && nand->slc_cache_bytes)
		snprintf(in.force_why, sizeof(in.force_why),
			 "the model's SLC cache is static: the first rounds after the fill start "
			 "about 17 %% low");
	else if (nand->two_state)
		snprintf(in.force_why, sizeof(in.force_why),
			 "the write cache is off on a dynamic SLC cache without power-loss "
			 "protection: its cells run in two states (write_cache: on avoids it)");
	else if (nand->blocks_per_die > 0 && nand->blocks_per_die < SPRANDOM_MIN_BLOCKS_PER_DIE)
		snprintf(in.force_why, sizeof(in.force_why),
			 "the model has %.1f blocks a die, fewer than %d: GC picks victims within a "
			 "die, and the fill leaves the drive short of steady state",
			 nand->blocks_per_die, SPRANDOM_MIN_BLOCKS_PER_DIE);
	if (in.force_why[0] && !p->force)
		return errmsg_set(err, errlen, -EINVAL,
				  "sprandom: refused: %s (docs/fast-steady-state.md); run the full "
				  "profile, or set force: true on the precondition to run it anyway",
				  in.force_why);
	in.forced = in.force_why[0] != 0;
	u_over_p = 1 - in.spare;
	in.alpha = sprandom_alpha(u_over_p);
	if (p->regions) {
		in.regions = p->regions;
		in.regions_from = SPR_FROM_PROFILE;
	} else {
		in.regions = sprandom_default_regions(in.units);
		in.regions_from = SPR_ASSUMED;
	}
	if (p->slc_dir[0]) {
		rc = slc_from_probe(p->slc_dir, nand, &in, err, errlen);
		if (rc)
			return rc;
	} else if (!p->slc_auto) {
		in.slc_cache = p->slc_cache;
		in.slc_from = SPR_FROM_PROFILE;
	} else if (nand->slc_known) {
		in.slc_cache = nand->slc_cache_bytes;
		in.slc_from = SPR_FROM_MODEL;
	} else {
		in.slc_cache = 0;
		in.slc_from = SPR_ASSUMED;
	}
	rc = sprandom_create(in.units, in.alpha, in.regions, 0, &seq, err, errlen);
	if (rc)
		return rc;
	in.seq_writes = sprandom_total(seq);
	sprandom_free(seq);
	in.bytes = in.seq_writes * bs + (in.slc_cache + bs - 1) / bs * bs;
	*out = in;
	return 0;
}

const char *phase_sprandom_spare_from(const struct sprandom_inputs *in, char *buf, size_t len)
{
	if (in->spare_from == SPR_FROM_DRIVEDB)
		snprintf(buf, len, "drive database: %s", in->spare_entry);
	else
		snprintf(buf, len, "%s", phase_spr_source_name(in->spare_from));
	return buf;
}

const char *phase_sprandom_slc_from(const struct sprandom_inputs *in, char *buf, size_t len)
{
	if (in->slc_from == SPR_FROM_PROBE)
		snprintf(buf, len, "slc-cache probe %s", in->slc_dir);
	else
		snprintf(buf, len, "%s", phase_spr_source_name(in->slc_from));
	return buf;
}

bool phase_sprandom_spare_unknown(const struct phase_sprandom *p, const struct phase_nand *nand)
{
	return p->spare_auto && (!nand || (!nand->gc_space_bytes && !nand->raw_nand_bytes));
}

struct json_object *phase_sprandom_inputs_json(const struct sprandom_inputs *in)
{
	struct json_object *o = json_object_new_object();
	char from[PHASE_SPR_DIR_MAX + 32];
	int e = 0;

	if (!o)
		return NULL;
	jsonnum_build_num(o, "spare", in->spare, &e);
	jsonnum_build_add(o, "spare_from",
			  json_object_new_string(phase_sprandom_spare_from(in, from, sizeof(from))), &e);
	if (in->spare_from == SPR_FROM_DRIVEDB)
		jsonnum_build_add(o, "raw_nand_bytes", json_object_new_int64((int64_t)in->raw_nand_bytes),
				  &e);
	jsonnum_build_add(o, "regions", json_object_new_int64(in->regions), &e);
	jsonnum_build_add(o, "regions_from",
			  json_object_new_string(phase_spr_source_name(in->regions_from)), &e);
	jsonnum_build_add(o, "slc_cache_bytes", json_object_new_int64((int64_t)in->slc_cache), &e);
	jsonnum_build_add(o, "slc_cache_from",
			  json_object_new_string(phase_sprandom_slc_from(in, from, sizeof(from))), &e);
	if (in->slc_from == SPR_FROM_PROBE) {
		struct json_object *pr = json_object_new_object();

		jsonnum_build_add(pr, "dir", json_object_new_string(in->slc_dir), &e);
		jsonnum_build_add(pr, "phase", json_object_new_int(in->slc_phase), &e);
		jsonnum_build_num(pr, "fill", in->slc_fill, &e);
		jsonnum_build_add(o, "slc_cache_probe", pr, &e);
	}
	jsonnum_build_add(o, "bs", json_object_new_int64(in->bs), &e);
	jsonnum_build_add(o, "units", json_object_new_int64((int64_t)in->units), &e);
	jsonnum_build_num(o, "alpha", in->alpha, &e);
	jsonnum_build_add(o, "sequence_writes", json_object_new_int64((int64_t)in->seq_writes), &e);
	jsonnum_build_add(o, "bytes", json_object_new_int64((int64_t)in->bytes), &e);
	jsonnum_build_add(o, "forced", json_object_new_boolean(in->forced), &e);
	if (in->forced)
		jsonnum_build_add(o, "forced_past", json_object_new_string(in->force_why), &e);
	if (e) {
		json_object_put(o);
		return NULL;
	}
	return o;
}
