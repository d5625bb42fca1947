/* SPDX-License-Identifier: MIT */
/*
 * variants: how the runner shrinks a target's user capacity for one variant of a `variants`
 * phase (profile/phases.h) and gives it back afterwards. Two methods today:
 *   sim        the virtual SSD's capacity setting (target_set_capacity): the visible capacity
 *              changes and the simulator unmaps the tail; restored to the original at the end.
 *   trim-tail  any target that discards: the tail past the fraction is discarded and the
 *              workloads are confined below it (the runner resolves them against `limit`);
 *              nothing to restore, since the target itself was not changed.
 *   namespace  an NVMe drive whose controller really manages namespaces: the namespace deleted
 *              and created at the variant's size (devchange kind nvme_namespace);
 *   hpa        a SATA drive with HPA or AMAC: its accessible max LBA set volatile (kind hpa).
 *              Both go through devchange_set (journaled before the command); the workloads are
 *              confined below the size too (`limit`), since the kernel's idea of the block
 *              device's size is not re-read (hpa; namespace opens the target again after the
 *              change, target_reopen, since its handle refers to the deleted namespace, and checks
 *              that it has the variant's size). The whole device is discarded before each variant
 *              (shrinking does not free LBAs written before), and the journal's restore path
 *              (drive_settings_restore_kind) gives the original back at the end.
 *
 * A resume whose interruption fell inside a variant runs that variant again from its first
 * phase (the runner's I7, run/runner.h), with variants_apply() again: on a drive a crash may
 * have lost the capacity change (a volatile HPA after a power cycle; `ssdlab restore`) and the
 * device state the variant had built, so going on from the interrupted step would measure
 * something else; the trimmed tail and the simulator are set up again the same way.
 *
 * Sizes are rounded down to VARIANTS_ALIGN so that every model's mapping unit and every block
 * size divides them; the full fraction (1.0) is the original capacity exactly.
 */
#ifndef SSDLAB_RUN_VARIANTS_H
#define SSDLAB_RUN_VARIANTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/units.h"
#include "profile/phases.h"

struct target;
struct drive_settings;

/* analysis/pass_opvariants.c recomputes the sizes with the same rule and alignment */
#define VARIANTS_ALIGN UNITS_VARIANT_ALIGN

struct variants_state {
	enum variant_method method; /* resolved: not VARIANT_AUTO */
	struct drive_settings *ds;  /* hpa, namespace: the run's journal (borrowed) */
	char skipped[512];	    /* auto: the methods passed by and why ("" none) */
	uint64_t orig_capacity;	    /* visible capacity before the first variant */
	uint64_t size;		    /* user capacity of the variant in effect */
	uint64_t limit;		    /* trim-tail: the workloads' capacity; 0 = the visible one */
	bool changed;		    /* the target's capacity differs from orig_capacity */
};

/*
 * Resolves v's method for t (auto: sim, namespace, hpa, trim-tail: the first t can do, the
 * others' reasons in s->skipped) and notes the original capacity in *s. ds: the run's drive
 * settings (NULL: no drive, so neither hpa nor namespace). 0, or -EOPNOTSUPP with the reason in
 * err when the target cannot do the method; *s untouched on failure.
 */
int variants_begin(struct target *t, struct drive_settings *ds, const struct phase_variants *v,
		   struct variants_state *s, char *err, size_t len);

/*
 * Puts variant i (0 <= i < v->n) in effect: sets s->size and s->limit, changes the target's
 * capacity (sim) or discards the tail (trim-tail). 0, or -errno with the reason in err (the
 * target's error); -EINVAL when the fraction leaves less than VARIANTS_ALIGN.
 */
int variants_apply(struct target *t, const struct phase_variants *v, unsigned i,
		   struct variants_state *s, char *err, size_t len);

/* Gives the original capacity back where it was changed (sim; hpa and namespace through the
 * journal's restore of that kind); trim-tail has nothing to undo.
 * 0 or -errno with the reason in err. Safe to call after a failed variants_apply(). */
int variants_restore(struct target *t, struct variants_state *s, char *err, size_t len);

/* Bytes of user capacity the variant in effect leaves unused: the spare it added. */
uint64_t variants_spare_added(const struct variants_state *s);

#endif
