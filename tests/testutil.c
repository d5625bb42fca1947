/* SPDX-License-Identifier: MIT */
/* testutil: see testutil.h. */
#include "testutil.h"

#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void tu_skip(const char *fmt, ...)
{
	va_list ap;

	printf("SKIP: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	exit(77);
}

char *tu_mkdtemp(const char *tag)
{
	const char *tmp = getenv("TMPDIR");
	char buf[4096];

	snprintf(buf, sizeof(buf), "%s/ssdlab-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", tag);
	if (!mkdtemp(buf))
		return NULL;
	return strdup(buf);
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void tu_rmtree(const char *path)
{
	if (path)
		nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

const char *tu_srcdir(void)
{
	const char *s = getenv("SSDLAB_SRCDIR");

	return s && *s ? s : ".";
}

const char *tu_shared(void)
{
	static char buf[4096];
	const char *s = getenv("SSDLAB_SHARED");
	struct stat st;

	if (s && *s)
		snprintf(buf, sizeof(buf), "%s", s);
	else
		snprintf(buf, sizeof(buf), "%s/../shared", tu_srcdir());
	if (stat(buf, &st) || !S_ISDIR(st.st_mode))
		return NULL;
	return buf;
}

int tu_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int rc = 0;

	if (!f)
		return -errno;
	if (fputs(text, f) < 0)
		rc = -EIO;
	if (fclose(f) && !rc)
		rc = -errno;
	return rc;
}
