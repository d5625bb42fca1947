// SPDX-License-Identifier: MIT
/*
 * test_target_reopen: target_reopen() of the block-device target (target_uring.c) on a loop
 * device this test attaches itself: a 16 MiB backing file, the target opened for writing
 * (O_EXCL), the file grown to 24 MiB and the loop device told (LOOP_SET_CAPACITY), as the kernel
 * learns a namespace's new size from a rescan. After the reopen the target has 25165824 bytes
 * (24 x 1048576, hand-worked), the descriptor kept its number, and a discard of the new tail goes
 * through the new handle. A file target is left as it is. Needs root and /dev/loop-control:
 * without them it skips (77) and says why. The loop device is detached whatever happens.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cmocka.h>

#include "targets/target.h"

static char g_dev[64], g_file[64];
static int g_loopfd = -1, g_filefd = -1;

/* Attaches g_file to a free loop device: 0, or 77 (skip) with the reason printed. */
static int attach(void)
{
	int ctl, n;

	if (geteuid()) {
		printf("SKIP: attaching a loop device needs root\n");
		return 77;
	}
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		printf("SKIP: /dev/loop-control: %s\n", strerror(errno));
		return 77;
	}
	n = ioctl(ctl, LOOP_CTL_GET_FREE);
	close(ctl);
	if (n < 0) {
		printf("SKIP: no free loop device: %s\n", strerror(errno));
		return 77;
	}
	snprintf(g_dev, sizeof(g_dev), "/dev/loop%d", n);
	g_loopfd = open(g_dev, O_RDWR | O_CLOEXEC);
	if (g_loopfd < 0 || ioctl(g_loopfd, LOOP_SET_FD, g_filefd) < 0) {
		printf("SKIP: %s: %s\n", g_dev, strerror(errno));
		if (g_loopfd >= 0)
			close(g_loopfd);
		g_loopfd = -1;
		return 77;
	}
	return 0;
}

static void detach(void)
{
	if (g_loopfd >= 0) {
		(void)ioctl(g_loopfd, LOOP_CLR_FD, 0);
		close(g_loopfd);
	}
	g_loopfd = -1;
}

/* The process's open descriptors as a bit set (numbers below 1024): the reopen must neither
 * leak one nor move the target's to another number. */
static void open_fds(uint64_t set[16])
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int self;

	assert_non_null(d);
	self = dirfd(d);
	memset(set, 0, 16 * sizeof(uint64_t));
	while ((e = readdir(d))) {
		int n = atoi(e->d_name);

		if (e->d_name[0] != '.' && n != self && n < 1024)
			set[n / 64] |= 1ull << (n % 64);
	}
	closedir(d);
}

static void test_blockdev(void **state)
{
	struct target_open_opts o = {.writable = true};
	struct target *t = NULL;
	char err[512] = "";
	uint64_t before[16], after[16];

	(void)state;
	if (target_open(g_dev, &o, &t, err, sizeof(err)))
		fail_msg("opening %s: %s", g_dev, err);
	assert_int_equal(target_info(t)->capacity, 16ull << 20);
	assert_int_equal(ftruncate(g_filefd, 24 << 20), 0);
	assert_int_equal(ioctl(g_loopfd, LOOP_SET_CAPACITY, 0), 0);
	open_fds(before);
	if (target_reopen(t))
		fail_msg("reopen: %s", target_error(t));
	open_fds(after);
	assert_memory_equal(before, after, sizeof(before));
	assert_int_equal(target_info(t)->capacity, 25165824ull);
	assert_int_equal(target_info(t)->logical_block_size, 512);
	/* the new tail is reachable through the handle opened again */
	if (target_discard(t, 16ull << 20, 8ull << 20))
		fail_msg("discarding the new tail: %s", target_error(t));
	/* twice in a row: the same size, the same descriptor number */
	if (target_reopen(t))
		fail_msg("second reopen: %s", target_error(t));
	assert_int_equal(target_info(t)->capacity, 25165824ull);
	target_close(t);
}

/* A regular file has nothing to open again: the call leaves it as it is. */
static void test_file(void **state)
{
	struct target_open_opts o = {.writable = true};
	struct target *t = NULL;
	char err[512] = "";

	(void)state;
	if (target_open(g_file, &o, &t, err, sizeof(err)))
		fail_msg("opening %s: %s", g_file, err);
	assert_int_equal(target_reopen(t), 0);
	assert_int_equal(target_info(t)->capacity, 24ull << 20);
	target_close(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_blockdev),
	    cmocka_unit_test(test_file),
	};
	int rc;

	snprintf(g_file, sizeof(g_file), "/tmp/test_target_reopen.XXXXXX");
	g_filefd = mkstemp(g_file);
	if (g_filefd < 0 || ftruncate(g_filefd, 16 << 20)) {
		printf("SKIP: a backing file in /tmp: %s\n", strerror(errno));
		return 77;
	}
	rc = attach();
	if (!rc) {
		rc = cmocka_run_group_tests(tests, NULL, NULL);
		detach();
	}
	close(g_filefd);
	unlink(g_file);
	return rc;
}
