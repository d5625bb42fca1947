/* SPDX-License-Identifier: MIT */
/*
 * test_devinfo: block device identity and state against fake sysfs and udev trees built in a
 * temp dir (a SATA disk with its serial in VPD page 0x80 and a partition, an NVMe namespace, a
 * loop device, a virtio disk whose identity only udev knows), the stat file, the clock source;
 * and, on real files in a temp dir, the hole / unwritten-extent check and the tmpfs check.
 *
 * Identity longer than the old 64-byte fields (issue 9, point 4): an NVMe namespace without
 * EUI/NGUID (the kernel's 140-character "nvme." wwid), SATA disks behind libata whose wwid is
 * the t10 form (67 characters) and whose whole ATA model (40 characters) is only in the ATA
 * IDENTIFY data of VPD page 0x89 or in udev's ID_MODEL_ENC (the INQUIRY product field holds
 * 16), and an identifier longer than any source can produce, which must be dropped, not cut.
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

#include "host/devinfo.h"
#include "testutil.h"

/* "nvme.VID-<serial hex>-<model hex>-NSID", drivers/nvme/host/core.c wwid_show(). */
#define NVME_LONG_WWID                                                                           \
	"nvme.144d-533445574e583052313233343536414243444546-53414d53554e47204d5a564c4231543048424c52" \
	"2d3030304c3720504d39383161204e564d652031-00000001"
/* libata's T10 vendor ID designator: "ATA     ", the 40-character model, the serial. */
#define SATA_T10_WWID "t10.ATA     Samsung SSD 870 EVO 1TB                 S5Y1NX0R123456K"
#define MODEL40 "Crucial CT4000MX500SSD1 4TB SATA III 2.5"

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

static void put_bin(const char *dir, const char *attr, const void *data, size_t n)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* An ATA string (ACS-4, 7.13.6: two characters per word, the first in the word's high byte,
 * words little-endian, padded with spaces) of `words` words at word `w` of IDENTIFY data. */
static void ata_put(unsigned char *id, unsigned w, unsigned words, const char *s)
{
	for (unsigned i = 0; i < 2 * words; i++)
		id[2 * w + (i ^ 1)] = i < strlen(s) ? (unsigned char)s[i] : ' ';
}

/* sysfs vpd_pg89 as the kernel passes it on from libata's SAT layer (SAT-5, 10.4.4, ATA
 * Information VPD page): 60-byte header (page code 0x89, length 0x238, command code 0xEC at
 * byte 56), then the 512 bytes of IDENTIFY DEVICE data. */
static void put_vpd89(const char *disk, const char *serial, const char *fw, const char *model)
{
	unsigned char pg[572] = {0x00, 0x89, 0x02, 0x38};
	unsigned char *id = pg + 60;

	memcpy(pg + 8, "linux   ", 8);
	memcpy(pg + 16, "libata          ", 16);
	pg[56] = 0xec;
	ata_put(id, 10, 10, serial);
	ata_put(id, 23, 4, fw);
	ata_put(id, 27, 20, model);
	put_bin(disk, "device/vpd_pg89", pg, sizeof(pg));
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

/* A SCSI disk sdX (8:min) on host `host`: size, INQUIRY vendor / product / revision, a queue. */
static void scsi_disk(struct tree *t, char *d, size_t dlen, unsigned host, const char *name,
		      unsigned min, const char *size, const char *vendor, const char *model,
		      const char *rev, const char *pbs, const char *rot)
{
	snprintf(d, dlen, "%s/devices/pci0/host%u/target%u:0:0/%u:0:0:0/block/%s", t->sys, host,
		 host, host, name);
	put(d, "size", size);
	put(d, "device/vendor", vendor);
	put(d, "device/model", model);
	put(d, "device/rev", rev);
	queue(d, "512\n", pbs, rot, "[mq-deadline] none\n", "64\n", "0\n");
	link_dev(t, 8, min, d);
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
	put(d, "stat", "  100  0  2000  0  50  0  4000  0  2  0  0  3  0  80  0  7  0\n");
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

	/* NVMe namespace without EUI-64 or NGUID: the kernel's fallback wwid, at its longest
	 * (20-character serial, 40-character model): 140 characters. */
	snprintf(d, sizeof(d), "%s/devices/pci0/nvme/nvme1/nvme1n1", t->sys);
	put(d, "size", "2000409264\n");
	put(d, "device/model", "SAMSUNG MZVLB1T0HBLR-000L7 PM981a NVMe 1\n");
	put(d, "device/serial", "S4EWNX0R123456ABCDEF\n");
	put(d, "device/firmware_rev", "3L1QEXH7\n");
	put(d, "wwid", NVME_LONG_WWID "\n");
	queue(d, "512\n", "512\n", "0\n", "[none]\n", "1023\n", "0\n");
	link_dev(t, 259, 2, d);

	/* SATA SSD behind libata: INQUIRY cuts the model to 16 characters and the firmware to 4;
	 * the wwid is the t10 form (no WWN in IDENTIFY), the ATA IDENTIFY data is in vpd_pg89. */
	scsi_disk(t, d, sizeof(d), 1, "sdb", 16, "1953525168\n", "ATA     \n", "Samsung SSD 870 \n",
		  "2B6Q\n", "512\n", "0\n");
	put(d, "device/wwid", SATA_T10_WWID "     \n");
	put_vpd89(d, "S5Y1NX0R123456K", "SVT02B6Q", "Samsung SSD 870 EVO 1TB");

	/* The same with a model of the full 40 characters (no padding left to trim). */
	scsi_disk(t, d, sizeof(d), 2, "sdc", 32, "7814037168\n", "ATA     \n", "Crucial CT4000MX\n",
		  "023 \n", "4096\n", "0\n");
	put_vpd89(d, "2311E8A1B2C3", "M3CR046", MODEL40);

	/* A SATA disk whose kernel exposes no vpd_pg89: udev's ata_id read IDENTIFY (ID_ATA=1)
	 * and has the whole model, spaces escaped in ID_MODEL_ENC (underscores in ID_MODEL). */
	scsi_disk(t, d, sizeof(d), 3, "sdd", 48, "1953525168\n", "ATA     \n", "Samsung SSD 870 \n",
		  "2B6Q\n", "512\n", "0\n");
	put(t->udev, "data/b8:48",
	    "E:ID_ATA=1\nE:ID_MODEL=Samsung_SSD_870_EVO_1TB\n"
	    "E:ID_MODEL_ENC=Samsung\\x20SSD\\x20870\\x20EVO\\x201TB\\x20\\x20\\x20\\x20\n"
	    "E:ID_SERIAL_SHORT=S5Y1NX0R654321A\nE:ID_REVISION=SVT02B6Q\n");

	/* A SCSI disk whose udev model is the INQUIRY product again (scsi_id, no ID_ATA): the
	 * sysfs model stays, underscores are not taken for spaces. */
	scsi_disk(t, d, sizeof(d), 4, "sde", 64, "2048\n", "SEAGATE \n", "ST600MM0009     \n",
		  "N004\n", "512\n", "1\n");
	put(t->udev, "data/b8:64", "E:ID_MODEL=ST600MM0009\nE:ID_SERIAL_SHORT=W0M1ABCD\n");

	/* An identifier longer than any kernel source can make (1100 characters): dropped, never
	 * cut to a prefix that a confirmation could then match. */
	snprintf(d, sizeof(d), "%s/devices/pci0/nvme/nvme2/nvme2n1", t->sys);
	put(d, "size", "2048\n");
	put(d, "device/serial", "LONGWWID01\n");
	{
		char w[1102];

		memset(w, 'a', 1100);
		w[1100] = '\n';
		w[1101] = 0;
		put(d, "wwid", w);
	}
	queue(d, "512\n", "512\n", "0\n", "[none]\n", "1023\n", "0\n");
	link_dev(t, 259, 4, d);

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
	{259, 2, "nvme1n1", "nvme1n1", false, "SAMSUNG MZVLB1T0HBLR-000L7 PM981a NVMe 1",
	 "S4EWNX0R123456ABCDEF", NVME_LONG_WWID, "3L1QEXH7", 2000409264ull * 512, 512, 512, false,
	 "none", 1023, 0, -1, ""},
	{8, 16, "sdb", "sdb", false, "Samsung SSD 870 EVO 1TB", "S5Y1NX0R123456K", SATA_T10_WWID,
	 "SVT02B6Q", 1953525168ull * 512, 512, 512, false, "mq-deadline", 64, 0, -1, ""},
	{8, 32, "sdc", "sdc", false, MODEL40, "2311E8A1B2C3", "", "M3CR046", 7814037168ull * 512, 512,
	 4096, false, "mq-deadline", 64, 0, -1, ""},
	{8, 48, "sdd", "sdd", false, "Samsung SSD 870 EVO 1TB", "S5Y1NX0R654321A", "", "SVT02B6Q",
	 1953525168ull * 512, 512, 512, false, "mq-deadline", 64, 0, -1, ""},
	{8, 64, "sde", "sde", false, "ST600MM0009", "W0M1ABCD", "", "N004", 2048ull * 512, 512, 512,
	 true, "mq-deadline", 64, 0, -1, ""},
	{259, 4, "nvme2n1", "nvme2n1", false, "", "LONGWWID01", "", "", 2048ull * 512, 512, 512, false,
	 "none", 1023, 0, -1, ""},
};

/* Identity strings: every mismatch of every case is listed before the test fails. */
static unsigned id_check(const char *dev, const char *field, const char *got, const char *want)
{
	if (!strcmp(got, want))
		return 0;
	print_message("MISMATCH %s %s: got '%s' (%zu), want '%s' (%zu)\n", dev, field, got,
		      strlen(got), want, strlen(want));
	return 1;
}

static void test_identity(void **state)
{
	struct tree *t = *state;
	struct devinfo_roots r = {.sysfs = t->sys, .udev = t->udev};
	unsigned bad = 0;

	for (size_t i = 0; i < sizeof(dev_cases) / sizeof(dev_cases[0]); i++) {
		const struct dev_case *c = &dev_cases[i];
		struct devinfo di;

		memset(&di, 0x5a, sizeof(di));
		if (devinfo_read(&r, makedev(c->maj, c->min), &di))
			fail_msg("%s: devinfo_read failed", c->name);
		assert_string_equal(di.name, c->name);
		assert_string_equal(di.disk, c->disk);
		assert_int_equal(di.partition, c->partition);
		bad += id_check(c->name, "model", di.model, c->model);
		bad += id_check(c->name, "serial", di.serial, c->serial);
		bad += id_check(c->name, "wwn", di.wwn, c->wwn);
		bad += id_check(c->name, "firmware", di.firmware, c->firmware);
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
	assert_int_equal(bad, 0);
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
	assert_int_equal(st.in_flight, 2);
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

/* A symlink at <base>/<rel> to target, its directories made. */
static void sym(const char *base, const char *rel, const char *target)
{
	char path[PATH_MAX + 64], d[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	snprintf(d, sizeof(d), "%s", path);
	*strrchr(d, '/') = 0;
	mkdirs(d);
	assert_int_equal(symlink(target, path), 0);
}

/* Namespaces a (nsid 1) and b under parent, whose device links point at parent. */
static void two_namespaces(const char *parent, const char *a, const char *b, const char *nsid_b)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "%s/nsid", a);
	put(parent, rel, "1\n");
	snprintf(rel, sizeof(rel), "%s/nsid", b);
	put(parent, rel, nsid_b);
	snprintf(rel, sizeof(rel), "%s/device", a);
	sym(parent, rel, parent);
	snprintf(rel, sizeof(rel), "%s/device", b);
	sym(parent, rel, parent);
}

/*
 * NVMe placement, both sysfs layouts:
 *   - without native multipath: nvme0n1 and nvme0n2 hang off controller nvme0 (device ->
 *     the controller), which nvme-subsys0 lists;
 *   - with it: nvme1n1 and nvme1n2 are the head nodes of nvme-subsys1 (device -> the subsystem),
 *     reached through controllers nvme1 and nvme2, whose per-path nodes (nvme1c1n1) are hidden
 *     and must not count as namespaces.
 */
static void test_nvme_topology(void **state)
{
	char *root = tu_mkdtemp("devinfo-nvme");
	char sys[1024], d[2048], tgt[4096];
	struct devinfo_roots r;
	struct devinfo_nvme nv;

	(void)state;
	assert_non_null(root);
	snprintf(sys, sizeof(sys), "%s/sys", root);
	r = (struct devinfo_roots){.sysfs = sys};

	/* without multipath */
	snprintf(d, sizeof(d), "%s/devices/pci0/nvme/nvme0", sys);
	put(d, "subsysnqn", "nqn.2014.08.org.nvmexpress:144d144dS3EVNX0K123456 Samsung\n");
	two_namespaces(d, "nvme0n1", "nvme0n2", "2\n");
	snprintf(tgt, sizeof(tgt), "%s/nvme0n1", d);
	sym(sys, "block/nvme0n1", tgt);
	sym(sys, "class/nvme/nvme0", d);
	put(sys, "class/nvme-subsystem/nvme-subsys0/subsysnqn", "nqn.2014.08.org.nvmexpress:x\n");
	sym(sys, "class/nvme-subsystem/nvme-subsys0/nvme0", d);

	assert_int_equal(devinfo_nvme_topology(&r, "nvme0n1", &nv), 0);
	assert_string_equal(nv.ns, "nvme0n1");
	assert_int_equal(nv.nsid, 1);
	assert_string_equal(nv.controller, "nvme0");
	assert_string_equal(nv.subsystem, "nvme-subsys0");
	assert_string_equal(nv.subsysnqn, "nqn.2014.08.org.nvmexpress:x");
	assert_non_null(strstr(nv.subsystem_ns, "nvme0n1"));
	assert_non_null(strstr(nv.subsystem_ns, "nvme0n2"));
	assert_int_equal(strlen(nv.subsystem_ns), strlen("nvme0n1 nvme0n2"));

	/* with multipath */
	snprintf(d, sizeof(d), "%s/devices/virtual/nvme-subsystem/nvme-subsys1", sys);
	put(d, "subsysnqn", "nqn.2019-08.org.example:shared\n");
	two_namespaces(d, "nvme1n1", "nvme1n2", "7\n");
	snprintf(tgt, sizeof(tgt), "%s/devices/pci1/nvme/nvme1", sys);
	put(tgt, "nvme1c1n1/nsid", "1\n");
	sym(d, "nvme1", tgt);
	snprintf(tgt, sizeof(tgt), "%s/devices/pci2/nvme/nvme2", sys);
	put(tgt, "nvme1c2n1/nsid", "1\n");
	sym(d, "nvme2", tgt);
	sym(sys, "class/nvme-subsystem/nvme-subsys1", d);
	snprintf(tgt, sizeof(tgt), "%s/nvme1n2", d);
	sym(sys, "block/nvme1n2", tgt);

	assert_int_equal(devinfo_nvme_topology(&r, "nvme1n2", &nv), 0);
	assert_string_equal(nv.ns, "nvme1n2");
	assert_int_equal(nv.nsid, 7);
	assert_string_equal(nv.controller, ""); /* a head node is reached through either */
	assert_string_equal(nv.subsystem, "nvme-subsys1");
	assert_string_equal(nv.subsysnqn, "nqn.2019-08.org.example:shared");
	assert_non_null(strstr(nv.subsystem_ns, "nvme1n1"));
	assert_non_null(strstr(nv.subsystem_ns, "nvme1n2"));
	assert_null(strstr(nv.subsystem_ns, "c1n1"));
	assert_int_equal(strlen(nv.subsystem_ns), strlen("nvme1n1 nvme1n2"));

	/* not a namespace: zeroed, -ENODEV */
	memset(&nv, 0x5a, sizeof(nv));
	assert_int_equal(devinfo_nvme_topology(&r, "sda", &nv), -ENODEV);
	assert_string_equal(nv.ns, "");
	assert_int_equal(devinfo_nvme_topology(&r, "nvme0", &nv), -ENODEV);
	assert_int_equal(devinfo_nvme_topology(&r, "nvme9n1", &nv), -ENODEV); /* not in sysfs */
	tu_rmtree(root);
	free(root);
}

/*
 * devinfo_link_read on fake trees laid out as the kernel does (paths from a QEMU guest and a
 * laptop): a SATA disk behind AHCI with its ata_link and ALPM policy, an NVMe namespace with its
 * PCIe link and APST bound, a USB bridge, virtio, loop, zram. Values absent from the tree must
 * come back unknown.
 */
static void test_link(void **state)
{
	char *root = tu_mkdtemp("devinfo-link");
	char sys[1024], d[2048], pci[1200];
	struct devinfo_roots r;
	struct devinfo_link x;

	(void)state;
	assert_non_null(root);
	snprintf(sys, sizeof(sys), "%s/sys", root);
	r = (struct devinfo_roots){.sysfs = sys};
	struct tree t;

	snprintf(t.sys, sizeof(t.sys), "%s", sys);

	/* SATA behind AHCI at 0000:00:1f.2, port ata3, SCSI host2 */
	snprintf(pci, sizeof(pci), "%s/devices/pci0000:00/0000:00:1f.2", sys);
	put(pci, "numa_node", "0\n");
	put(pci, "current_link_speed", "5.0 GT/s PCIe\n"); /* the HBA's, not the drive's */
	snprintf(d, sizeof(d), "%s/ata3/host2/target2:0:0/2:0:0:0/block/sda", pci);
	put(d, "queue/discard_granularity", "512\n");
	put(d, "queue/write_cache", "write back\n");
	put(d, "sda1/partition", "1\n");
	link_dev(&t, 8, 0, d);
	snprintf(d, sizeof(d), "%s/ata3/host2/target2:0:0/2:0:0:0/block/sda/sda1", pci);
	link_dev(&t, 8, 1, d);
	put(sys, "class/ata_link/link3/sata_spd", "6.0 Gbps\n");
	put(sys, "class/ata_link/link1/sata_spd", "1.5 Gbps\n"); /* another port */
	put(sys, "class/scsi_host/host2/link_power_management_policy", "med_power_with_dipm\n");
	for (unsigned min = 0; min < 2; min++) { /* the disk, and its partition */
		assert_int_equal(devinfo_link_read(&r, makedev(8, min), &x), 0);
		assert_string_equal(x.transport, "sata");
		assert_string_equal(x.link_speed, "6.0 Gbps");
		assert_int_equal(x.link_width, -1);
		assert_int_equal(x.discard_granularity, 512);
		assert_string_equal(x.write_cache, "write back");
		assert_string_equal(x.alpm, "med_power_with_dipm");
		assert_string_equal(x.apst_latency, "");
		assert_true(x.numa_known);
		assert_int_equal(x.numa_node, 0);
		assert_int_equal(x.smart, 1);
		assert_int_equal(x.write_cache_control, 1);
	}

	/* NVMe at 0000:3b:00.0 on node 1, x4 at 8 GT/s, APST bound 100000 us */
	snprintf(pci, sizeof(pci), "%s/devices/pci0000:3a/0000:3a:00.0/0000:3b:00.0", sys);
	put(pci, "numa_node", "1\n");
	put(pci, "current_link_speed", "8.0 GT/s PCIe\n");
	put(pci, "current_link_width", "4\n");
	snprintf(d, sizeof(d), "%s/nvme/nvme0", pci);
	put(d, "power/pm_qos_latency_tolerance_us", "100000\n");
	snprintf(d, sizeof(d), "%s/nvme/nvme0/nvme0n1", pci);
	put(d, "queue/discard_granularity", "4096\n");
	put(d, "queue/write_cache", "write through\n");
	link_dev(&t, 259, 0, d);
	assert_int_equal(devinfo_link_read(&r, makedev(259, 0), &x), 0);
	assert_string_equal(x.transport, "nvme");
	assert_string_equal(x.link_speed, "8.0 GT/s PCIe");
	assert_int_equal(x.link_width, 4);
	assert_int_equal(x.discard_granularity, 4096);
	assert_string_equal(x.apst_latency, "100000");
	assert_string_equal(x.alpm, "");
	assert_int_equal(x.numa_node, 1);
	assert_int_equal(x.smart, 1);
	assert_int_equal(x.write_cache_control, 0); /* no volatile cache to switch */

	/* USB bridge: below a SCSI host, but the bridge decides what passes */
	snprintf(d, sizeof(d),
		 "%s/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0/"
		 "block/sdb",
		 sys);
	put(d, "queue/write_cache", "write through\n");
	link_dev(&t, 8, 16, d);
	assert_int_equal(devinfo_link_read(&r, makedev(8, 16), &x), 0);
	assert_string_equal(x.transport, "usb");
	assert_string_equal(x.link_speed, "");
	assert_string_equal(x.alpm, "");
	assert_false(x.numa_known);
	assert_int_equal(x.smart, -1);
	assert_int_equal(x.write_cache_control, -1);
	assert_int_equal(x.discard_granularity, -1);

	/* virtio */
	snprintf(d, sizeof(d), "%s/devices/pci0000:00/0000:00:05.0/virtio2/block/vda", sys);
	put(d, "queue/discard_granularity", "512\n");
	link_dev(&t, 253, 0, d);
	assert_int_equal(devinfo_link_read(&r, makedev(253, 0), &x), 0);
	assert_string_equal(x.transport, "virtio");
	assert_int_equal(x.smart, 0);
	assert_int_equal(x.write_cache_control, -1);
	assert_string_equal(x.write_cache, "");

	/* loop and zram: virtual, no node, no link */
	snprintf(d, sizeof(d), "%s/devices/virtual/block/loop3", sys);
	put(d, "queue/write_cache", "write back\n");
	link_dev(&t, 7, 3, d);
	snprintf(d, sizeof(d), "%s/devices/virtual/block/zram1", sys);
	put(d, "queue/discard_granularity", "4096\n");
	link_dev(&t, 252, 1, d);
	assert_int_equal(devinfo_link_read(&r, makedev(7, 3), &x), 0);
	assert_string_equal(x.transport, "loop");
	assert_int_equal(x.smart, 0);
	assert_int_equal(x.write_cache_control, 0);
	assert_false(x.numa_known);
	assert_int_equal(devinfo_link_read(&r, makedev(252, 1), &x), 0);
	assert_string_equal(x.transport, "zram");
	assert_int_equal(x.discard_granularity, 4096);

	assert_int_equal(devinfo_link_read(&r, makedev(8, 99), &x), -ENOENT);
	tu_rmtree(root);
	free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_identity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_and_stat, setup, teardown),
		cmocka_unit_test(test_file_unwritten),
		cmocka_unit_test(test_nvme_topology),
		cmocka_unit_test(test_link),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
