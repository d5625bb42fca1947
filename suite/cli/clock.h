/* SPDX-License-Identifier: MIT */
/*
 * clock: the wall clock at the CLI edge: UTC time stamps for names and manifests, the wall time
 * of resume gaps, monotonic durations for display, and sleeping between retries. The runner
 * and the engine work in the target's clock; this is the only place that reads the wall clock
 * for the user.
 */
#ifndef SSDLAB_CLI_CLOCK_H
#define SSDLAB_CLI_CLOCK_H

#include <stddef.h>
#include <stdint.h>

/* "20261129T191500Z" for the wall time now (UTC). */
const char *cli_utc_stamp(char *buf, size_t len);
/* "2026-11-29T19:15:00Z" */
const char *cli_utc_iso(char *buf, size_t len);
/* Wall clock (CLOCK_REALTIME) in ns since the epoch, for records of resume gaps. */
uint64_t cli_wall_ns(void);
/* CLOCK_MONOTONIC in ns: wall durations for display (progress, plan's simulator speed). */
uint64_t cli_mono_ns(void);

/* Sleeps ms milliseconds of wall time (the CLI edge's retries). */
void cli_sleep_ms(unsigned ms);

#endif
