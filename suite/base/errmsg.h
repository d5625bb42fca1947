/* SPDX-License-Identifier: MIT */
/*
 * errmsg: the one helper with which a library module writes the text of an error into its
 * caller's buffer (the CLI prints it: "log only at the edge"). It returns the error code it is
 * given, so that a module reports and fails in one statement:
 *
 *	return errmsg_set(err, errlen, -EINVAL, "a block size of 0 bytes");
 *
 * Modules that keep the buffer in a context bind it once with a macro (safety's fail(c, ...),
 * the runner's fail(r, ...)); none formats messages itself.
 */
#ifndef SSDLAB_ERRMSG_H
#define SSDLAB_ERRMSG_H

#include <stdarg.h>
#include <stddef.h>

/* Formats the message into buf (len bytes, truncated to fit; nothing when buf is NULL or len
 * 0) and returns rc. */
int errmsg_set(char *buf, size_t len, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int errmsg_vset(char *buf, size_t len, int rc, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

/* As errmsg_set(), but a message already in buf stays: the first (root) cause is the one the
 * user reads, not the failures it caused on the way out. */
int errmsg_first(char *buf, size_t len, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
