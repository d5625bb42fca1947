/* SPDX-License-Identifier: MIT */
/*
 * fileio: reading a whole file into memory, the one loop that the profile reader (ydoc), the
 * results reader and `ssdlab check -` share. Short reads and EINTR are retried; the buffer
 * grows as needed, so a file that changes size under us (a records.jsonl being appended to)
 * is read to its end at the time of reading.
 */
#ifndef SSDLAB_FILEIO_H
#define SSDLAB_FILEIO_H

#include <stddef.h>

/*
 * Reads fd from its current offset to end of file into a new buffer with a NUL after the
 * data (*buf, the caller frees it; *len excludes the NUL). max > 0 refuses more than max
 * bytes with -EFBIG (0 = no limit). Returns 0, -ENOMEM, -EFBIG or read(2)'s -errno; on failure
 * *buf and *len are untouched. fd stays open.
 */
int fileio_read_fd(int fd, size_t max, char **buf, size_t *len);

/* Opens path read-only and reads it whole as fileio_read_fd(); open(2)'s -errno too. */
int fileio_read_file(const char *path, size_t max, char **buf, size_t *len);

#endif
