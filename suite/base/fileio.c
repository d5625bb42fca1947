/* SPDX-License-Identifier: MIT */
/*
 * fileio: whole-file reading (see fileio.h).
 */
#include "base/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int fileio_read_fd(int fd, size_t max, char **buf, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *b, *nb;
	int rc = 0;

	b = malloc(cap + 1);
	if (!b)
		return -ENOMEM;
	for (;;) {
		ssize_t r;

		if (n == cap) {
			if (max && cap > max) {
				rc = -EFBIG;
				goto out;
			}
			cap *= 2;
			nb = realloc(b, cap + 1);
			if (!nb) {
				rc = -ENOMEM;
				goto out;
			}
			b = nb;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			goto out;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	if (max && n > max) {
		rc = -EFBIG;
		goto out;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	b = NULL;
out:
	free(b);
	return rc;
}

int fileio_read_file(const char *path, size_t max, char **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	rc = fileio_read_fd(fd, max, buf, len);
	close(fd);
	return rc;
}
