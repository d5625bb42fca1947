/* SPDX-License-Identifier: MIT */
/*
 * test_fileio: whole-file reading: empty files, files larger than the first buffer (the
 * growth path), the size limit at its edge, a pipe (no size to stat), a missing file, and that
 * a failed call leaves the outputs untouched.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/fileio.h"
#include "testutil.h"

static char *dir;

static char *write_n(const char *name, size_t n)
{
	char *path, *text = malloc(n + 1);

	assert_non_null(text);
	for (size_t i = 0; i < n; i++)
		text[i] = (char)('a' + i % 26);
	text[n] = '\0';
	assert_true(asprintf(&path, "%s/%s", dir, name) > 0);
	assert_int_equal(tu_write_file(path, text), 0);
	free(text);
	return path;
}

static void test_sizes(void **state)
{
	static const size_t sizes[] = {0, 1, 65535, 65536, 65537, 300000};

	(void)state;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		char *path = write_n("f", sizes[k]), *buf = NULL;
		size_t len = 1;

		assert_int_equal(fileio_read_file(path, 0, &buf, &len), 0);
		assert_int_equal(len, sizes[k]);
		assert_int_equal(buf[len], '\0');
		for (size_t i = 0; i < len; i++)
			assert_int_equal(buf[i], 'a' + i % 26);
		free(buf);
		free(path);
	}
}

static void test_limit(void **state)
{
	char *path = write_n("g", 100000), *buf = (char *)"untouched";
	size_t len = 7;

	(void)state;
	assert_int_equal(fileio_read_file(path, 99999, &buf, &len), -EFBIG);
	assert_string_equal(buf, "untouched");
	assert_int_equal(len, 7);
	assert_int_equal(fileio_read_file(path, 100000, &buf, &len), 0);
	assert_int_equal(len, 100000);
	free(buf);
	free(path);
	assert_int_equal(fileio_read_file("/nonexistent/x", 0, &buf, &len), -ENOENT);
}

static void test_pipe(void **state)
{
	int p[2];
	char *buf;
	size_t len;

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], "hello\n", 6), 6);
	close(p[1]);
	assert_int_equal(fileio_read_fd(p[0], 16, &buf, &len), 0);
	close(p[0]);
	assert_int_equal(len, 6);
	assert_string_equal(buf, "hello\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sizes),
	    cmocka_unit_test(test_limit),
	    cmocka_unit_test(test_pipe),
	};
	int rc;

	dir = tu_mkdtemp("fileio");
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	tu_rmtree(dir);
	free(dir);
	return rc;
}
