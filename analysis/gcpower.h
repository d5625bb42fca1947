/* SPDX-License-Identifier: MIT */
/*
 * gcpower: the power states in force during a run, as far as the manifest knows them, for
 * summary.json's gc_recovery.power_states and gc_passes.power_states. Low-power states can stop
 * idle GC (a drive that drops into a deep APST state or a SATA link asleep under ALPM may not
 * collect while it rests), so a GC recovery rate is only read together with them.
 *
 * Where they come from, the first that is there:
 *   1. manifest.power_states (written by the runner once it records them): copied as is under
 *      "recorded", source "manifest.power_states";
 *   2. manifest.target.drive.nvme_identify.apst {supported, enabled} (ssdlab info's identify,
 *      which the manifest already holds for an NVMe drive): apst "enabled", "disabled",
 *      "not_supported" or "unknown", source "drive.nvme_identify";
 *   3. manifest.target.drive.ata's hipm (host-initiated link power management in use, i.e. ALPM
 *      allowing it), dipm and devslp {supported, enabled}: "alpm" "in_use", "not_in_use" or
 *      "unknown" from hipm.enabled, with dipm and devslp copied, source "drive.ata";
 *   4. the virtual SSD (target.kind "sim"): apst "none", it models no power states;
 *   5. otherwise apst "unknown", source null.
 * Every result has "apst" (a string) and "note" (a sentence), so older readers keep working.
 */
#ifndef SSDLAB_ANALYSIS_GCPOWER_H
#define SSDLAB_ANALYSIS_GCPOWER_H

struct json_object;

/* The power_states object for manifest (NULL allowed: unknown). NULL on -ENOMEM (*e set). */
struct json_object *gcpower_json(struct json_object *manifest, int *e);

#endif
