/* SPDX-License-Identifier: MIT */
/*
 * datadir: where an installed ssdlab keeps its bundled files, found from the program's own
 * path (<bindir>/../share/ssdlab/profiles), so that a tree installed with `meson install
 * --destdir` or moved as a whole finds its profiles and models without the configured prefix.
 */
#ifndef SSDLAB_BASE_DATADIR_H
#define SSDLAB_BASE_DATADIR_H

#include <stddef.h>

/* Writes <directory of /proc/self/exe>/../share/ssdlab/profiles into buf (len bytes). Returns 0
 * when that directory exists, -ENOENT when it does not (a build tree), -ENAMETOOLONG or
 * readlink's -errno otherwise; buf is left untouched on failure. */
int datadir_exe_profiles(char *buf, size_t len);

#endif
