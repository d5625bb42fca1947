/* SPDX-License-Identifier: MIT */
/*
 * quote: shell quoting, for the "resume with: ..." command line a user copies and pastes.
 */
#ifndef SSDLAB_CLI_QUOTE_H
#define SSDLAB_CLI_QUOTE_H

#include <stddef.h>

/* Appends s to buf (of len, NUL-terminated) quoted for a POSIX shell when needed. -ENOSPC when
 * it does not fit (buf is then unchanged). */
int cli_shell_append(char *buf, size_t len, const char *s);

#endif
