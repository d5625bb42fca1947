/* SPDX-License-Identifier: MIT */
/*
 * quote: POSIX shell quoting of one word at a time. See quote.h.
 */
#include "cli/quote.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

static bool shell_safe(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "_-./:=,+@%",
			    *s))
			return false;
	return true;
}

int cli_shell_append(char *buf, size_t len, const char *s)
{
	size_t used = strnlen(buf, len), need = 0;
	bool quote = !shell_safe(s);
	char *o;

	if (used == len)
		return -ENOSPC;
	/* Worst case: every ' becomes '\'' (4 chars), plus two quotes and a separating space. */
	for (const char *c = s; *c; c++)
		need += (*c == '\'') ? 4 : 1;
	need += (quote ? 2 : 0) + (used ? 1 : 0);
	if (used + need + 1 > len)
		return -ENOSPC;
	o = buf + used;
	if (used)
		*o++ = ' ';
	if (quote)
		*o++ = '\'';
	for (const char *c = s; *c; c++) {
		if (*c == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *c;
		}
	}
	if (quote)
		*o++ = '\'';
	*o = '\0';
	return 0;
}
