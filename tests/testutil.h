/* SPDX-License-Identifier: MIT */
/*
 * testutil: small helpers shared by the cmocka tests: temporary directories, skipping with a
 * printed reason (exit 77, meson's skip code), locating the source tree and ../shared.
 */
#ifndef SSDLAB_TESTUTIL_H
#define SSDLAB_TESTUTIL_H

#include <stddef.h>

/* Prints "SKIP: reason" and exits 77. */
void tu_skip(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* Creates a fresh directory under $TMPDIR (or /tmp); returns a malloc'ed path. */
char *tu_mkdtemp(const char *tag);
/* rm -rf of a directory made by tu_mkdtemp; accepts NULL. */
void tu_rmtree(const char *path);
/* The project's source root (SSDLAB_SRCDIR, else "."); a static string. */
const char *tu_srcdir(void);
/* ../shared next to the project (SSDLAB_SHARED), or NULL when absent. */
const char *tu_shared(void);
/* Writes text to path; returns 0 or -errno. */
int tu_write_file(const char *path, const char *text);

#endif
