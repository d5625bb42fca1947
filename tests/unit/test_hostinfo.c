/* SPDX-License-Identifier: MIT */
/*
 * test_hostinfo: host state and block-device links read from a fake /proc + /sys tree built in
 * a temp dir (so every field has a known expected value: mixed governors, intel_pstate's
 * inverted no_turbo, disabled C-states, the closest link winning over a parent PCIe bridge for
 * NVMe, SATA behind AHCI, a USB bridge, a loop device with no link), plus one sanity check
 * against this machine's real kernel release.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "host/hostinfo.h"
#include "testutil.h"

static char *root;

static void mkdirs(const char *rel)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (char *s = p + strlen(root) + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	mkdir(p, 0755);
}

static void put(const char *rel, const char *text)
{
	char p[4096], dir[4096];

	snprintf(dir, sizeof(dir), "%s", rel);
	*strrchr(dir, '/') = '\0';
	mkdirs(dir);
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	assert_int_equal(tu_write_file(p, text), 0);
}

static void link_block(const char *name, const char *devpath)
{
	char p[4096], target[4096];

	mkdirs(devpath);
	mkdirs("sys/class/block");
	snprintf(p, sizeof(p), "%s/sys/class/block/%s", root, name);
	snprintf(target, sizeof(target), "../../../%s", devpath);
	assert_int_equal(symlink(target, p), 0);
}

static int setup(void **state)
{
	static const char *const cpu = "sys/devices/system/cpu";
	char rel[256];

	(void)state;
	root = tu_mkdtemp("hostinfo");
	if (!root)
		return -1;
	put("proc/sys/kernel/hostname", "labhost\n");
	put("proc/sys/kernel/osrelease", "6.1.0-test\n");
	put("proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC\n");
	put("proc/cpuinfo", "processor\t: 0\nvendor_id\t: Fake\nmodel name\t: Fake CPU 9000 @ "
			    "3.00GHz\n\nprocessor\t: 1\nmodel name\t: Fake CPU 9000 @ 3.00GHz\n");
	put("proc/cmdline", "BOOT_IMAGE=/vmlinuz root=UUID=1234 ro quiet intel_idle.max_cstate=1 "
			    "processor.max_cstate=1 idle=poll secret=hunter2\n");
	put("proc/meminfo", "MemTotal:       16384 kB\nMemFree:         1024 kB\n");
	snprintf(rel, sizeof(rel), "%s/online", cpu);
	put(rel, "0-3,6\n");
	for (int i = 0; i < 4; i++) {
		snprintf(rel, sizeof(rel), "%s/cpu%d/cpufreq/scaling_governor", cpu, i);
		put(rel, i == 2 ? "powersave\n" : "performance\n");
	}
	snprintf(rel, sizeof(rel), "%s/cpu0/cpufreq/scaling_driver", cpu);
	put(rel, "intel_pstate\n");
	snprintf(rel, sizeof(rel), "%s/intel_pstate/no_turbo", cpu);
	put(rel, "1\n");
	snprintf(rel, sizeof(rel), "%s/cpuidle/current_driver", cpu);
	put(rel, "intel_idle\n");
	snprintf(rel, sizeof(rel), "%s/cpuidle/current_governor", cpu);
	put(rel, "menu\n");
	{
		static const char *const names[] = {"POLL", "C1", "C1E", "C6"};
		static const char *const dis[] = {"0", "0", "1", "1"};

		for (int s = 0; s < 4; s++) {
			snprintf(rel, sizeof(rel), "%s/cpu0/cpuidle/state%d/name", cpu, s);
			put(rel, names[s]);
			snprintf(rel, sizeof(rel), "%s/cpu0/cpuidle/state%d/disable", cpu, s);
			put(rel, dis[s]);
		}
	}
	put("sys/devices/system/clocksource/clocksource0/current_clocksource", "tsc\n");
	put("sys/devices/system/clocksource/clocksource0/available_clocksource",
	    "tsc hpet acpi_pm \n");

	/* NVMe behind a PCIe bridge: the NVMe function's own link is the one to report. */
	put("sys/devices/pci0000:00/0000:00:1d.0/current_link_speed", "2.5 GT/s PCIe\n");
	put("sys/devices/pci0000:00/0000:00:1d.0/current_link_width", "1\n");
	put("sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/current_link_speed",
	    "8.0 GT/s PCIe\n");
	put("sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/current_link_width", "4\n");
	put("sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/max_link_speed", "16.0 GT/s PCIe\n");
	put("sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/max_link_width", "4\n");
	link_block("nvme0n1",
		   "sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0/nvme0n1");
	/* SATA behind AHCI (whose PCIe link is not the disk's). */
	put("sys/devices/pci0000:00/0000:00:17.0/current_link_speed", "Unknown\n");
	put("sys/class/ata_link/link3/sata_spd", "6.0 Gbps\n");
	link_block("sda", "sys/devices/pci0000:00/0000:00:17.0/ata3/host2/target2:0:0/2:0:0:0/"
			  "block/sda");
	link_block("sda1", "sys/devices/pci0000:00/0000:00:17.0/ata3/host2/target2:0:0/2:0:0:0/"
			   "block/sda/sda1");
	/* USB 3 bridge under an xHCI controller. */
	put("sys/devices/pci0000:00/0000:00:14.0/current_link_speed", "8.0 GT/s PCIe\n");
	put("sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/busnum", "2\n");
	put("sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/speed", "5000\n");
	link_block("sdb", "sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/"
			  "target6:0:0/6:0:0:0/block/sdb");
	link_block("loop0", "sys/devices/virtual/block/loop0");
	/* NVMe native multipath: the namespace hangs off a virtual subsystem, which links to its
	 * controllers (the second drive's function at 0000:5e:00.0, PCIe 4.0 x4). */
	put("sys/devices/pci0000:00/0000:00:1c.0/0000:5e:00.0/current_link_speed",
	    "16.0 GT/s PCIe\n");
	put("sys/devices/pci0000:00/0000:00:1c.0/0000:5e:00.0/current_link_width", "4\n");
	mkdirs("sys/devices/pci0000:00/0000:00:1c.0/0000:5e:00.0/nvme/nvme1");
	link_block("nvme1n1", "sys/devices/virtual/nvme-subsystem/nvme-subsys1/nvme1n1");
	{
		char p[4096];

		snprintf(p, sizeof(p), "%s/sys/devices/virtual/nvme-subsystem/nvme-subsys1/nvme1",
			 root);
		assert_int_equal(
		    symlink("../../../pci0000:00/0000:00:1c.0/0000:5e:00.0/nvme/nvme1", p), 0);
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tu_rmtree(root);
	free(root);
	return 0;
}

static void test_collect(void **state)
{
	struct hostinfo h;
	struct json_object *o, *x;

	(void)state;
	assert_int_equal(hostinfo_collect(root, &h), 0);
	assert_string_equal(h.hostname, "labhost");
	assert_string_equal(h.kernel, "6.1.0-test");
	assert_string_equal(h.kernel_version, "#1 SMP PREEMPT_DYNAMIC");
	assert_string_equal(h.cpu_model, "Fake CPU 9000 @ 3.00GHz");
	assert_int_equal(h.cpus, 5);
	assert_string_equal(h.cpufreq_driver, "intel_pstate");
	assert_string_equal(h.governor, "mixed (performance, powersave)");
	assert_int_equal(h.turbo, 0); /* no_turbo = 1 */
	assert_string_equal(h.turbo_source, "intel_pstate/no_turbo");
	assert_string_equal(h.cpuidle_driver, "intel_idle");
	assert_string_equal(h.cpuidle_governor, "menu");
	assert_string_equal(h.cstates_enabled, "POLL,C1");
	assert_string_equal(h.cstates_disabled, "C1E,C6");
	assert_string_equal(h.power_params,
			    "intel_idle.max_cstate=1,processor.max_cstate=1,idle=poll");
	assert_string_equal(h.clocksource, "tsc");
	assert_string_equal(h.clocksources_available, "tsc hpet acpi_pm"); /* trailing blank cut */
	assert_true(h.mem_total_bytes == 16384ull * 1024);

	o = hostinfo_to_json(&h);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "turbo", &x));
	assert_true(json_object_is_type(x, json_type_boolean));
	assert_false(json_object_get_boolean(x));
	json_object_put(o);
}

static void test_unknown(void **state)
{
	struct hostinfo h;
	struct json_object *o, *x;
	char *empty = tu_mkdtemp("hostinfo-empty");

	(void)state;
	assert_int_equal(hostinfo_collect(empty, &h), 0);
	assert_int_equal(h.cpus, -1);
	assert_int_equal(h.turbo, -1);
	assert_string_equal(h.governor, "");
	o = hostinfo_to_json(&h);
	assert_true(json_object_object_get_ex(o, "turbo", &x));
	assert_null(x);
	assert_true(json_object_object_get_ex(o, "governor", &x));
	assert_null(x);
	json_object_put(o);
	tu_rmtree(empty);
	free(empty);
}

static void test_links(void **state)
{
	static const struct {
		const char *dev, *kind, *speed, *width, *max_speed;
		int rc;
	} cases[] = {
	    {"nvme0n1", "pcie", "8.0 GT/s PCIe", "4", "16.0 GT/s PCIe", 0},
	    {"/dev/nvme0n1", "pcie", "8.0 GT/s PCIe", "4", "16.0 GT/s PCIe", 0},
	    {"sda", "sata", "6.0 Gbps", "", "", 0},
	    {"sda1", "sata", "6.0 Gbps", "", "", 0},
	    {"sdb", "usb", "5000", "", "", 0},
	    {"loop0", "", "", "", "", 0},
	    {"nvme1n1", "pcie", "16.0 GT/s PCIe", "4", "", 0},
	    {"sdz", NULL, NULL, NULL, NULL, -ENOENT},
	    {"..", NULL, NULL, NULL, NULL, -EINVAL},
	    {"/dev/null/x", NULL, NULL, NULL, NULL, -ENOTDIR},
	    {"", NULL, NULL, NULL, NULL, -EINVAL},
	};
	struct hostinfo_link l;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&l, 0x5a, sizeof(l));
		if (hostinfo_block_link(root, cases[i].dev, &l) != cases[i].rc)
			fail_msg("%s: wrong return", cases[i].dev);
		if (cases[i].rc) {
			assert_int_equal(((unsigned char *)&l)[0], 0x5a);
			continue;
		}
		assert_string_equal(l.kind, cases[i].kind);
		assert_string_equal(l.speed, cases[i].speed);
		assert_string_equal(l.width, cases[i].width);
		assert_string_equal(l.max_speed, cases[i].max_speed);
	}
	assert_int_equal(hostinfo_block_link(root, "nvme0n1", &l), 0);
	assert_string_equal(l.where, "sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0");
}

static void test_real_host(void **state)
{
	struct hostinfo_link l;
	struct hostinfo h;
	struct utsname u;

	(void)state;
	assert_int_equal(uname(&u), 0);
	assert_int_equal(hostinfo_collect(NULL, &h), 0);
	assert_string_equal(h.kernel, u.release);
	assert_string_equal(h.hostname, u.nodename);
	assert_true(h.cpus >= 1);
	/* Not block devices: a character device's name, a regular file's path. */
	assert_int_equal(hostinfo_block_link(NULL, "/dev/null", &l), -ENOENT);
	assert_int_equal(hostinfo_block_link(NULL, "/proc/cpuinfo", &l), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_collect),
	    cmocka_unit_test(test_unknown),
	    cmocka_unit_test(test_links),
	    cmocka_unit_test(test_real_host),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
