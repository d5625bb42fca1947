/* SPDX-License-Identifier: MIT */
/*
 * test_devinfo: block device identity and state against fake sysfs and udev trees built in a
 * temp dir (a SATA disk with its serial in VPD page 0x80 and a partition, an NVMe namespace, a
 * loop device, a virtio disk whose identity only udev knows), the stat file, the clock source;
 * and, on real files in a temp dir, the hole / unwritten-extent check and the tmpfs check.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "devinfo.h"
#include "testutil.h"

struct tree {
	char *root;
	char sys[1024], udev[1024];
};

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

/* put(tree, "devices/x/sda", "size", "1000\n") */
static void put(const char *dir, const char *attr, const char *text)
{
	char path[PATH_MAX + 64], d[PATH_MAX + 64];
	char *slash;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	snprintf(d, sizeof(d), "%s", path);
	slash = strrchr(d, '/');
	*slash = 0;
	mkdirs(d);
	assert_int_equal(tu_write_file(path, text), 0);
}

static void link_dev(struct tree *t, unsigned maj, unsigned min, const char *target)
{
	char lnk[PATH_MAX + 64], dir[2048];

	snprintf(dir, sizeof(dir), "%s/dev/block", t->sys);
	mkdirs(dir);
	snprintf(lnk, sizeof(lnk), "%s/%u:%u", dir, maj, min);
	assert_int_equal(symlink(target, lnk), 0);
}

static void queue(const char *disk, const char *lbs, const char *pbs, const char *rot,
		  const char *sched, const char *nr, const char *poll)
{
	char q[PATH_MAX];

	snprintf(q, sizeof(q), "%s/queue", disk);
	put(q, "logical_block_size", lbs);
	put(q, "physical_block_size", pbs);
	put(q, "rotational", rot);
	put(q, "scheduler", sched);
	put(q, "nomerges", "0\n");
	put(q, "nr_requests", nr);
	put(q, "io_poll", poll);
	put(q, "discard_max_bytes", "2147450880\n");
}

static int setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));
	char d[2048];
	/* VPD 0x80: peripheral byte, page code, length (2 bytes), serial padded with spaces. */
	static const char vpd[] = {0x00, (char)0x80, 0x00, 0x0c, ' ', ' ', 'S', '3', 'Z', 'N',
				   'X', '0', 'K', '1', '2', '3'};
	char vpdpath[PATH_MAX + 64];
	FILE *f;

	if (!t)
		return -1;
	t->root = tu_mkdtemp("devinfo");
	if (!t->root)
		return -1;
	snprintf(t->sys, sizeof(t->sys), "%s/sys", t->root);
	snprintf(t->udev, sizeof(t->udev), "%s/udev", t->root);

	/* SATA SSD sda with partition sda1. */
	snprintf(d, sizeof(d), "%s/devices/pci0/ata1/host0/target0/0:0:0:0/block/sda", t->sys);
	put(d, "size", "937703088\n");
	put(d, "device/model", "Samsung SSD 860 \n");
	put(d, "device/rev", "RVT04B6Q\n");
	put(d, "device/wwid", "naa.5002538e40a1b2c3\n");
	put(d, "stat", "  100  0  2000  0  50  0  4000  0  0  0  0  3  0  80  0  7  0\n");
	queue(d, "512\n", "512\n", "0\n", "[mq-deadline] kyber bfq none\n", "64\n", "0\n");
	snprintf(vpdpath, sizeof(vpdpath), "%s/device/vpd_pg80", d);
	f = fopen(vpdpath, "wb");
	assert_non_null(f);
	fwrite(vpd, 1, sizeof(vpd), f);
	fclose(f);
	link_dev(t, 8, 0, d);
	{
		char p[PATH_MAX + 16];

		snprintf(p, sizeof(p), "%s/sda1", d);
		put(p, "partition", "1\n");
		put(p, "size", "2048\n");
		put(p, "stat", "1 0 8 0 2 0 16 0 0 0 0\n");
		link_dev(t, 8, 1, p);
	}

	/* NVMe namespace: identity on the controller (device/), wwid on the namespace. */
	snprintf(d, sizeof(d), "%s/devices/pci0/nvme/nvme0/nvme0n1", t->sys);
	put(d, "size", "1953525168\n");
	put(d, "device/model", "WDC WDS100T2B0C\n");
	put(d, "device/serial", "  21129X801234  \n");
	put(d, "device/firmware_rev", "211070WD\n");
	put(d, "wwid", "eui.e8238fa6bf530001001b448b4a1b2c3d\n");
	put(d, "stat", "1 0 8 0 2 0 16 0 0 0 0\n");
	queue(d, "4096\n", "4096\n", "0\n", "[none] mq-deadline\n", "1023\n", "1\n");
	link_dev(t, 259, 0, d);

	/* loop device: no identity, backing file and dio. */
	snprintf(d, sizeof(d), "%s/devices/virtual/block/loop3", t->sys);
	put(d, "size", "524288\n");
	put(d, "loop/dio", "1\n");
	put(d, "loop/backing_file", "/var/tmp/x/disk.img\n");
	put(d, "stat", "1 0 8 0 2 0 16 0 0 0 0\n");
	queue(d, "4096\n", "4096\n", "0\n", "none\n", "128\n", "0\n");
	link_dev(t, 7, 3, d);

	/* A disk whose identity only udev knows. */
	snprintf(d, sizeof(d), "%s/devices/pci0/virtio2/block/vdb", t->sys);
	put(d, "size", "2048\n");
	put(d, "stat", "1 0 8 0 2 0 16 0 0 0 0\n");
	queue(d, "512\n", "4096\n", "1\n", "[none] mq-deadline\n", "256\n", "0\n");
	link_dev(t, 254, 16, d);
	put(t->udev, "data/b254:16",
	    "S:disk/by-id/virtio-XYZ\nE:ID_MODEL=QEMU_HARDDISK\nE:ID_SERIAL_SHORT=QM00007\n"
	    "E:ID_WWN=0x5000c500a1b2c3d4\nE:ID_REVISION=2.5+\n");

	put(t->sys, "devices/system/clocksource/clocksource0/current_clocksource", "kvm-clock\n");
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct tree *t = *state;

	tu_rmtree(t->root);
	free(t->root);
	free(t);
	return 0;
}

struct dev_case {
	unsigned maj, min;
	const char *name, *disk;
	bool partition;
	const char *model, *serial, *wwn, *firmware;
	uint64_t capacity;
	uint32_t lbs, pbs;
	bool rotational;
	const char *scheduler;
	uint32_t nr;
	int io_poll, loop_dio;
	const char *backing;
};

static const struct dev_case dev_cases[] = {
	{8, 0, "sda", "sda", false, "Samsung SSD 860", "S3ZNX0K123", "naa.5002538e40a1b2c3",
	 "RVT04B6Q", 937703088ull * 512, 512, 512, false, "mq-deadline", 64, 0, -1, ""},
	{8, 1, "sda1", "sda", true, "Samsung SSD 860", "S3ZNX0K123", "naa.5002538e40a1b2c3",
	 "RVT04B6Q", 2048ull * 512, 512, 512, false, "mq-deadline", 64, 0, -1, ""},
	{259, 0, "nvme0n1", "nvme0n1", false, "WDC WDS100T2B0C", "21129X801234",
	 "eui.e8238fa6bf530001001b448b4a1b2c3d", "211070WD", 1953525168ull * 512, 4096, 4096, false,
	 "none", 1023, 1, -1, ""},
	{7, 3, "loop3", "loop3", false, "", "", "", "", 524288ull * 512, 4096, 4096, false, "none",
	 128, 0, 1, "/var/tmp/x/disk.img"},
	{254, 16, "vdb", "vdb", false, "QEMU_HARDDISK", "QM00007", "0x5000c500a1b2c3d4", "2.5+",
	 2048ull * 512, 512, 4096, true, "none", 256, 0, -1, ""},
};

static void test_identity(void **state)
{
	struct tree *t = *state;
	struct devinfo_roots r = {.sysfs = t->sys, .udev = t->udev};

	for (size_t i = 0; i < sizeof(dev_cases) / sizeof(dev_cases[0]); i++) {
		const struct dev_case *c = &dev_cases[i];
		struct devinfo di;

		memset(&di, 0x5a, sizeof(di));
		if (devinfo_read(&r, makedev(c->maj, c->min), &di))
			fail_msg("%s: devinfo_read failed", c->name);
		assert_string_equal(di.name, c->name);
		assert_string_equal(di.disk, c->disk);
		assert_int_equal(di.partition, c->partition);
		assert_string_equal(di.model, c->model);
		assert_string_equal(di.serial, c->serial);
		assert_string_equal(di.wwn, c->wwn);
		assert_string_equal(di.firmware, c->firmware);
		assert_int_equal(di.capacity, c->capacity);
		assert_int_equal(di.logical_block_size, c->lbs);
		assert_int_equal(di.physical_block_size, c->pbs);
		assert_int_equal(di.rotational, c->rotational);
		assert_string_equal(di.scheduler, c->scheduler);
		assert_int_equal(di.nomerges, 0);
		assert_int_equal(di.hw_queue_depth, c->nr);
		assert_int_equal(di.io_poll, c->io_poll);
		assert_int_equal(di.loop_dio, c->loop_dio);
		assert_string_equal(di.backing_file, c->backing);
	}
}

static void test_missing_and_stat(void **state)
{
	struct tree *t = *state;
	struct devinfo_roots r = {.sysfs = t->sys, .udev = t->udev};
	struct devinfo di;
	struct devinfo_stat st;
	char cs[32];

	memset(&di, 0x5a, sizeof(di));
	assert_int_equal(devinfo_read(&r, makedev(8, 99), &di), -ENOENT);
	assert_int_equal((unsigned char)di.name[0], 0x5a); /* untouched on failure */
	assert_int_equal(devinfo_read_stat(&r, makedev(8, 0), &st), 0);
	assert_int_equal(st.read_ios, 100);
	assert_int_equal(st.read_sectors, 2000);
	assert_int_equal(st.write_ios, 50);
	assert_int_equal(st.write_sectors, 4000);
	assert_int_equal(st.discard_ios, 3);
	assert_int_equal(st.discard_sectors, 80);
	assert_int_equal(st.flush_ios, 7);
	/* An old kernel's 11-field stat has no discard or flush fields. */
	assert_int_equal(devinfo_read_stat(&r, makedev(8, 1), &st), 0);
	assert_int_equal(st.write_sectors, 16);
	assert_int_equal(st.discard_ios, 0);
	devinfo_clocksource(&r, cs, sizeof(cs));
	assert_string_equal(cs, "kvm-clock");
}

/* Real files: holes and fallocated extents are unwritten; written bytes are not. */
static void test_file_unwritten(void **state)
{
	char *dir = tu_mkdtemp("devinfo-file");
	char path[PATH_MAX], fs[16];
	uint64_t unw = 12345;
	char *buf = calloc(1, 1 << 20);
	int fd, rc;

	(void)state;
	assert_non_null(dir);
	assert_non_null(buf);
	memset(buf, 0xab, 1 << 20);
	snprintf(path, sizeof(path), "%s/f.img", dir);
	fd = open(path, O_RDWR | O_CREAT, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 4 << 20), 0);
	rc = devinfo_file_unwritten(fd, 4 << 20, &unw);
	if (rc)
		tu_skip("the temp dir's file system answers neither FIEMAP nor SEEK_HOLE (%d)", rc);
	assert_int_equal(unw, 4 << 20);
	/* Write the second MiB: 3 MiB stay holes. */
	assert_int_equal(pwrite(fd, buf, 1 << 20, 1 << 20), 1 << 20);
	assert_int_equal(fsync(fd), 0);
	assert_int_equal(devinfo_file_unwritten(fd, 4 << 20, &unw), 0);
	assert_int_equal(unw, 3 << 20);
	/* Fallocated space reads back zeros without I/O: still unwritten. */
	if (fallocate(fd, 0, 2 << 20, 1 << 20) == 0) {
		assert_int_equal(devinfo_file_unwritten(fd, 4 << 20, &unw), 0);
		assert_int_equal(unw, 3 << 20);
	}
	for (int i = 0; i < 4; i++)
		assert_int_equal(pwrite(fd, buf, 1 << 20, (off_t)i << 20), 1 << 20);
	assert_int_equal(fsync(fd), 0);
	assert_int_equal(devinfo_file_unwritten(fd, 4 << 20, &unw), 0);
	assert_int_equal(unw, 0);
	assert_int_equal(devinfo_file_memfs(fd, fs, sizeof(fs)), 0);
	close(fd);
	fd = open("/dev/shm", O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		rc = devinfo_file_memfs(fd, fs, sizeof(fs));
		if (rc == 1)
			assert_string_equal(fs, "tmpfs");
		close(fd);
	}
	tu_rmtree(dir);
	free(dir);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_identity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_and_stat, setup, teardown),
		cmocka_unit_test(test_file_unwritten),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
