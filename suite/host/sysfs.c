/* SPDX-License-Identifier: MIT */
/*
 * sysfs: the attribute reader of the host probes (see sysfs.h).
 */
#include "host/sysfs.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PATHBUF (PATH_MAX + 128)

static int open_attr(const char *dir, const char *name)
{
	char path[PATHBUF];
	int fd;

	if (dir) {
		if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
			return -ENAMETOOLONG;
		name = path;
	}
	fd = open(name, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

ssize_t sysfs_read(const char *dir, const char *name, char *buf, size_t len)
{
	size_t n = 0, i = 0;
	ssize_t rc = 0;
	char more;
	int fd;

	buf[0] = '\0';
	fd = open_attr(dir, name);
	if (fd < 0)
		return fd;
	/* sysfs hands a text attribute over in one read; a fake tree's file may take several. */
	while (n < len - 1) {
		ssize_t r = read(fd, buf + n, len - 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = -errno;
			break;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	if (!rc && n == len - 1 && read(fd, &more, 1) > 0)
		rc = -EOVERFLOW;
	close(fd);
	if (rc && rc != -EOVERFLOW) {
		buf[0] = '\0';
		return rc;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	n = strlen(buf);
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	while (buf[i] && isspace((unsigned char)buf[i]))
		i++;
	if (i)
		memmove(buf, buf + i, n - i + 1);
	return rc ? rc : (ssize_t)(n - i);
}

int sysfs_read_u64(const char *dir, const char *name, uint64_t *v)
{
	char buf[64], *end;
	unsigned long long x;

	if (sysfs_read(dir, name, buf, sizeof(buf)) <= 0)
		return -ENOENT;
	errno = 0;
	x = strtoull(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	*v = x;
	return 0;
}

ssize_t sysfs_read_bin(const char *dir, const char *name, void *buf, size_t len)
{
	ssize_t n;
	int fd = open_attr(dir, name);

	if (fd < 0)
		return fd;
	n = read(fd, buf, len);
	if (n < 0)
		n = -errno;
	close(fd);
	return n;
}
