/* SPDX-License-Identifier: MIT */
/*
 * datadir: the installed profiles directory relative to the running program (datadir.h). The
 * configured prefix (SSDLAB_PROFILES_DIR) is right for a plain `meson install`; this lookup is
 * what makes a staged install (--destdir, a package build root) or a moved tree work as well.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/datadir.h"

int datadir_exe_profiles(char *buf, size_t len)
{
	char exe[PATH_MAX], dir[PATH_MAX + 64], real[PATH_MAX];
	struct stat st;
	ssize_t n;
	char *slash;
	int w;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return -errno;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	w = snprintf(dir, sizeof(dir), "%s/../share/ssdlab/profiles", exe);
	if (w < 0 || (size_t)w >= sizeof(dir))
		return -ENAMETOOLONG;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return -ENOENT;
	/* without the "bin/..": the paths `profiles --paths` and manifests record read plainly */
	if (!realpath(dir, real))
		return -errno;
	if (strlen(real) >= len)
		return -ENAMETOOLONG;
	memcpy(buf, real, strlen(real) + 1);
	return 0;
}
