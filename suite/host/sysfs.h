/* SPDX-License-Identifier: MIT */
/*
 * sysfs: the one reader of small kernel attribute files (sysfs, and /proc files of one line)
 * that the host probes share: devinfo (identity, queue, stat counters), hostinfo (CPU
 * frequency, C-states, links) and safety (dev numbers, device-mapper names, loop backing
 * files). Every path is dir/name, so the tests point dir at a fake tree.
 *
 * A text attribute is one line of at most a page (Documentation/filesystems/sysfs.rst); the
 * reader keeps its first line, with the surrounding whitespace removed (sysfs lists end in a
 * space: "tsc hpet \n"; /sys/block/X/stat starts with spaces).
 */
#ifndef SSDLAB_SYSFS_H
#define SSDLAB_SYSFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Reads the text attribute dir/name (dir NULL: name is the whole path) into buf (len > 0
 * bytes): its first line, trimmed, NUL-terminated. Returns its length; -EOVERFLOW when the
 * file holds more than len - 1 bytes (buf then holds the cut text: callers that need the
 * whole value, such as an identifier, must refuse it); -ENAMETOOLONG; or open(2)'s or
 * read(2)'s -errno, with buf "".
 */
ssize_t sysfs_read(const char *dir, const char *name, char *buf, size_t len);

/* A decimal attribute. 0, or -ENOENT when it cannot be read or is empty, -EINVAL when it is
 * not a number; *v is untouched on failure. */
int sysfs_read_u64(const char *dir, const char *name, uint64_t *v);

/* Up to len bytes of a binary attribute (a VPD page) with one read(2), as the kernel hands a
 * binary attribute over whole. Returns the count or -errno. */
ssize_t sysfs_read_bin(const char *dir, const char *name, void *buf, size_t len);

#endif
