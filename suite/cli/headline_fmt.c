// SPDX-License-Identifier: MIT
#include "cli/headline_fmt.h"

#include <math.h>
#include <stdint.h>

#include "base/units.h"

const char *headline_num(double v, int decimals, char *buf, size_t len)
{
	if (!isfinite(v))
		return "-";
	return units_fmt_double(v, decimals, buf, len);
}

const char *headline_dur(double ns, char *buf, size_t len)
{
	if (!isfinite(ns) || ns < 0)
		return "-";
	return units_fmt_duration((uint64_t)llround(ns), buf, len);
}
