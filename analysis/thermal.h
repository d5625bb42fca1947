/* SPDX-License-Identifier: MIT */
/*
 * thermal: did a drive throttle during a phase, and what did its endurance counters say around
 * the run. Pure: plain structs in, plain structs out (the reader fills them from the snapshots,
 * the series files and the cool-down records; pass_thermal.c turns them into summary.json).
 *
 * A phase is flagged as throttled on any of (NVMe Base Specification 2.0, SMART / Health
 * Information log 0x02: Warning Composite Temperature Time, bytes 195:192, minutes spent at or
 * above WCTEMP; Thermal Management Temperature 1/2 Transition Count, bytes 219:216 and 223:220,
 * times the controller entered host-controlled thermal management, i.e. throttled):
 *   - the thermal management transition count rose between the phase's first and last snapshot;
 *   - the warning-temperature time rose;
 *   - a temperature in the phase's series (or in one of its snapshots) reached the warning level:
 *     the drive's own (WCTEMP, where a snapshot carries it), else the user's `warning_c`.
 * Why it matters: a drive that throttles mid-phase slows down the way an SLC cache running out
 * does, and a reader of the curve would take one for the other.
 */
#ifndef SSDLAB_ANALYSIS_THERMAL_H
#define SSDLAB_ANALYSIS_THERMAL_H

#include <stdbool.h>
#include <stdint.h>

/* What one snapshot says about heat and wear; has_* false where the source has no such value. */
struct thermal_snap {
	bool has_transitions, has_warn_minutes, has_warning_c, has_temp;
	bool has_used, has_spare;
	uint64_t transitions;  /* thermal management transitions, all levels summed */
	uint64_t warn_minutes; /* minutes at or above the warning temperature */
	double warning_c;      /* the drive's warning threshold (WCTEMP), Celsius */
	double temp_c;	       /* the temperature when taken */
	double used_pct, spare_pct; /* percentage_used, available_spare */
};

/* One phase instance: its first and last snapshots, and its series' hottest row. */
struct thermal_phase_in {
	int64_t phase, repeat;
	struct thermal_snap a, b;
	double series_max_c;  /* NaN when its series has no temperature */
	double user_warning_c; /* the user's / profile's warning level; NaN when none given */
};

enum thermal_evidence {
	THERMAL_EV_TRANSITIONS = 1u << 0,
	THERMAL_EV_WARN_MINUTES = 1u << 1,
	THERMAL_EV_TEMPERATURE = 1u << 2,
};

struct thermal_verdict {
	bool throttled;
	unsigned evidence;	    /* enum thermal_evidence bits */
	uint64_t transitions_delta; /* valid with THERMAL_EV_TRANSITIONS */
	uint64_t warn_minutes_delta;
	double max_c;	    /* the hottest reading seen in the phase (NaN: none) */
	double warning_c;   /* the level it was judged against (NaN: none known) */
	bool warning_from_drive; /* warning_c came from the drive (WCTEMP), not the user */
};

/* Judges one phase instance. A counter that went backwards (a reset) is no evidence. */
void thermal_judge(const struct thermal_phase_in *in, struct thermal_verdict *out);

/* The endurance block: percentage_used and available_spare at the run's start and end. */
struct thermal_endurance {
	bool has_used_start, has_used_end, has_spare_start, has_spare_end;
	double used_start, used_end, spare_start, spare_end;
};

/* From the run's snapshots (in order): the first that has a value and the last that has it,
 * each field on its own. n may be 0. */
void thermal_endurance(const struct thermal_snap *s, unsigned long n, struct thermal_endurance *out);

#endif
