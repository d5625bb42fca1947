/* SPDX-License-Identifier: MIT */
/*
 * test_quick_bound: how much `ssdlab quick` writes (cli/quick_bound.c), against amounts worked
 * out by hand in the table: 80 % of the free space, at most leaving 15 % of the file system
 * free, at most --write-max, in whole MiB, refused under 16 MiB.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cli/quick_bound.h"

#define MIB (1024ull * 1024)

struct row {
	uint64_t free_b, total_b, write_max;
	int keep_free;
	int rc;
	uint64_t size;
};

static void test_table(void **state)
{
	static const struct row rows[] = {
	    /* keep = 150 MiB: 200 - 150 = 50 MiB < 0.8 x 200 = 160 MiB */
	    {200 * MIB, 1000 * MIB, 0, 1, 0, 50 * MIB},
	    /* 0.8 x 1000 = 800 MiB < 1000 - 150 = 850 MiB */
	    {1000 * MIB, 1000 * MIB, 0, 1, 0, 800 * MIB},
	    /* --write-max 20 MiB + 5 bytes, rounded down to 20 MiB */
	    {100 * MIB, 100 * MIB, 20 * MIB + 5, 1, 0, 20 * MIB},
	    /* free 1e8 bytes under the 1.5e8 kept free: refused */
	    {100000000, 1000000000, 0, 1, -ENOSPC, 0},
	    /* a 64 MiB device: 0.8 x 64 MiB = 53687091 bytes -> 51 MiB */
	    {64 * MIB, 64 * MIB, 0, 0, 0, 51 * MIB},
	    /* 170 - 150 = 20 MiB fits; 165 - 150 = 15 MiB is under 16 MiB: refused */
	    {170 * MIB, 1000 * MIB, 0, 1, 0, 20 * MIB},
	    {165 * MIB, 1000 * MIB, 0, 1, -ENOSPC, 0},
	    /* 1 GB free of 1 TB: 15 % of the total is far more than is free */
	    {1000000000, 1000000000000, 0, 1, -ENOSPC, 0},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint64_t size = 12345;
		int rc = quick_bound(rows[i].free_b, rows[i].total_b, rows[i].write_max,
				     rows[i].keep_free, &size);

		assert_int_equal(rc, rows[i].rc);
		/* failure leaves the output untouched */
		assert_int_equal(size, rc ? 12345 : rows[i].size);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
