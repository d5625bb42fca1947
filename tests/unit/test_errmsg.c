/* SPDX-License-Identifier: MIT */
/*
 * test_errmsg: the error-text helper: the code it returns, truncation, no buffer, and that
 * errmsg_first keeps the root cause.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/errmsg.h"

static void test_set(void **state)
{
	char buf[8] = "";

	(void)state;
	assert_int_equal(errmsg_set(buf, sizeof(buf), -EINVAL, "bad %d", 42), -EINVAL);
	assert_string_equal(buf, "bad 42");
	assert_int_equal(errmsg_set(buf, sizeof(buf), 0, "%s", "much too long"), 0);
	assert_string_equal(buf, "much to"); /* cut to fit, NUL-terminated */
	assert_int_equal(errmsg_set(NULL, 16, -EIO, "nowhere"), -EIO);
	assert_int_equal(errmsg_set(buf, 0, -EIO, "nowhere"), -EIO);
	assert_string_equal(buf, "much to");
}

static void test_first(void **state)
{
	char buf[32] = "";

	(void)state;
	assert_int_equal(errmsg_first(buf, sizeof(buf), -EIO, "root %s", "cause"), -EIO);
	assert_int_equal(errmsg_first(buf, sizeof(buf), -EPIPE, "consequence"), -EPIPE);
	assert_string_equal(buf, "root cause");
	assert_int_equal(errmsg_set(buf, sizeof(buf), 0, "replaced"), 0);
	assert_string_equal(buf, "replaced");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_set),
	    cmocka_unit_test(test_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
