/* SPDX-License-Identifier: MIT */
/*
 * test_hwmon: finding and reading a drive's temperature sensor in fake sysfs trees laid out as the
 * kernel lays them out: an NVMe namespace whose device link is the controller (hwmonN right under
 * it), a multipath head (found through the controller's class directory), a SATA disk with
 * drivetemp (device/hwmon/hwmonN), a disk with no sensor, and a controller with two hwmon
 * directories of which only one has temp1_input.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "host/hwmon.h"
#include "testutil.h"

static void mkdirs(const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			mkdir(buf, 0755);
			*p = '/';
		}
	mkdir(buf, 0755);
}

/* root/rel as a file holding text, or (link) as a symlink to text; parents made as needed. */
static void make(const char *root, const char *rel, const char *text, bool link)
{
	char path[PATH_MAX], d[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(d, sizeof(d), "%s", path);
	*strrchr(d, '/') = 0;
	mkdirs(d);
	if (link)
		assert_int_equal(symlink(text, path), 0);
	else
		assert_int_equal(tu_write_file(path, text), 0);
}

static void put(const char *root, const char *rel, const char *text)
{
	make(root, rel, text, false);
}

static void lnk(const char *root, const char *rel, const char *target)
{
	make(root, rel, target, true);
}

static char *build(void)
{
	char *root = tu_mkdtemp("hwmon");

	assert_non_null(root);
	/* NVMe: /sys/block/nvme0n1/device -> the controller nvme0, hwmon1 under it; hwmon0 is a
	 * sensor directory without temp1_input (skipped). 41850 millidegrees = 41.85 C. */
	put(root, "devices/virtual/nvme/nvme0/hwmon1/temp1_input", "41850\n");
	put(root, "devices/virtual/nvme/nvme0/hwmon1/name", "nvme\n");
	put(root, "devices/virtual/nvme/nvme0/hwmon0/name", "other\n");
	lnk(root, "block/nvme0n1/device", "../../devices/virtual/nvme/nvme0");
	lnk(root, "class/nvme/nvme0", "../../devices/virtual/nvme/nvme0");
	/* A multipath head: its device link is the subsystem, which has no sensor. */
	put(root, "devices/virtual/nvme-subsystem/nvme-subsys1/subsysnqn", "nqn.x\n");
	lnk(root, "block/nvme1n1/device", "../../devices/virtual/nvme-subsystem/nvme-subsys1");
	put(root, "devices/virtual/nvme/nvme1/hwmon4/temp1_input", "-5000\n");
	put(root, "devices/virtual/nvme/nvme1/hwmon4/name", "nvme\n");
	lnk(root, "class/nvme/nvme1", "../../devices/virtual/nvme/nvme1");
	/* SATA with drivetemp: 36000 = 36 C. */
	put(root, "devices/pci/ata1/host0/target0:0:0/0:0:0:0/hwmon/hwmon3/temp1_input", "36000\n");
	put(root, "devices/pci/ata1/host0/target0:0:0/0:0:0:0/hwmon/hwmon3/name", "drivetemp\n");
	lnk(root, "block/sda/device", "../../devices/pci/ata1/host0/target0:0:0/0:0:0:0");
	/* SATA without drivetemp. */
	put(root, "devices/pci/ata2/host1/target1:0:0/1:0:0:0/model", "X\n");
	lnk(root, "block/sdb/device", "../../devices/pci/ata2/host1/target1:0:0/1:0:0:0");
	return root;
}

static void test_nvme(void **state)
{
	char *root = build();
	struct hwmon_temp h;
	double c = 0;

	(void)state;
	assert_int_equal(hwmon_temp_find(root, "nvme0n1", NULL, &h), 0);
	assert_string_equal(h.name, "nvme");
	assert_non_null(strstr(h.dir, "/hwmon1"));
	assert_false(hwmon_temp_drains_queue(&h));
	assert_int_equal(hwmon_temp_read(&h, &c), 0);
	assert_true(c == 41.85);
	/* a multipath head: only through the controller */
	assert_int_equal(hwmon_temp_find(root, "nvme1n1", NULL, &h), -ENOENT);
	assert_int_equal(hwmon_temp_find(root, "nvme1n1", "nvme1", &h), 0);
	assert_int_equal(hwmon_temp_read(&h, &c), 0);
	assert_true(c == -5.0);
	tu_rmtree(root);
	free(root);
}

static void test_sata(void **state)
{
	char *root = build();
	struct hwmon_temp h = {.name = "untouched"};
	double c = -1;

	(void)state;
	assert_int_equal(hwmon_temp_find(root, "sda", NULL, &h), 0);
	assert_string_equal(h.name, "drivetemp");
	assert_true(hwmon_temp_drains_queue(&h));
	assert_int_equal(hwmon_temp_read(&h, &c), 0);
	assert_true(c == 36.0);
	h = (struct hwmon_temp){.name = "untouched"};
	assert_int_equal(hwmon_temp_find(root, "sdb", NULL, &h), -ENOENT);
	assert_string_equal(h.name, "untouched");
	assert_int_equal(hwmon_temp_find(root, "nope", NULL, &h), -ENOENT);
	assert_int_equal(hwmon_temp_find(root, "../x", NULL, &h), -ENOENT);
	/* a sensor that vanished (the module unloaded): the error, c untouched */
	snprintf(h.dir, sizeof(h.dir), "%s/gone", root);
	c = 7;
	assert_true(hwmon_temp_read(&h, &c) < 0);
	assert_true(c == 7);
	tu_rmtree(root);
	free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nvme),
		cmocka_unit_test(test_sata),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
