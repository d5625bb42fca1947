/* SPDX-License-Identifier: MIT */
/*
 * headline_fmt: how the headline's files write a figure: a number with a fixed number of
 * decimals and a duration, '.' decimals whatever the locale, "-" where the summary has no
 * finite value (null, NaN: a figure that could not be computed, said as such rather than as 0).
 * One place, so that every headline line writes its figures alike.
 */
#ifndef SSDLAB_CLI_HEADLINE_FMT_H
#define SSDLAB_CLI_HEADLINE_FMT_H

#include <stddef.h>

/* v with `decimals` places (units_fmt_double), or "-" when v is not finite. Returns buf or
 * the constant "-". */
const char *headline_num(double v, int decimals, char *buf, size_t len);

/* ns as a duration ("397.45 us", "1m30s": units_fmt_duration), or "-" when ns is not finite
 * or negative. Returns buf or the constant "-". */
const char *headline_dur(double ns, char *buf, size_t len);

#endif
