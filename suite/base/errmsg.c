/* SPDX-License-Identifier: MIT */
/*
 * errmsg: error text into a caller's buffer (see errmsg.h).
 */
#include "base/errmsg.h"

#include <stdio.h>

int errmsg_vset(char *buf, size_t len, int rc, const char *fmt, va_list ap)
{
	if (buf && len)
		vsnprintf(buf, len, fmt, ap);
	return rc;
}

int errmsg_set(char *buf, size_t len, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	errmsg_vset(buf, len, rc, fmt, ap);
	va_end(ap);
	return rc;
}

int errmsg_first(char *buf, size_t len, int rc, const char *fmt, ...)
{
	va_list ap;

	if (buf && len && buf[0])
		return rc;
	va_start(ap, fmt);
	errmsg_vset(buf, len, rc, fmt, ap);
	va_end(ap);
	return rc;
}
