/* SPDX-License-Identifier: MIT */
/*
 * clock: UTC stamps, wall and monotonic nanoseconds, sleeping. See clock.h.
 */
#include "cli/clock.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

uint64_t cli_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* iso selects "2026-11-29T19:15:00Z" over "20261129T191500Z"; literal formats keep -Wformat=2
 * happy. */
static const char *utc_fmt(char *buf, size_t len, bool iso)
{
	time_t t = time(NULL);
	struct tm tm;
	size_t n;

	if (!gmtime_r(&t, &tm)) {
		snprintf(buf, len, "unknown-time");
		return buf;
	}
	n = iso ? strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm)
		: strftime(buf, len, "%Y%m%dT%H%M%SZ", &tm);
	if (!n)
		snprintf(buf, len, "unknown-time");
	return buf;
}

const char *cli_utc_stamp(char *buf, size_t len)
{
	return utc_fmt(buf, len, false);
}

const char *cli_utc_iso(char *buf, size_t len)
{
	return utc_fmt(buf, len, true);
}

uint64_t cli_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void cli_sleep_ms(unsigned ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}
