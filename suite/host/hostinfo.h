/* SPDX-License-Identifier: MIT */
/*
 * hostinfo: the state of the host that a published number depends on, for the manifest: CPU
 * model and count, frequency governor and driver, turbo/boost, the idle (C-state) driver and
 * which states are enabled, kernel, clock source, memory, hostname; and for a block device the
 * link it sits behind (PCIe speed and width, SATA link speed, USB speed) where sysfs says.
 *
 * Everything is read from files under a root directory ("/" normally; a fake tree in tests),
 * never from commands. What the host does not expose is left empty ("") or -1 (unknown), never
 * guessed. Read-only: nothing here changes the host.
 */
#ifndef SSDLAB_HOSTINFO_H
#define SSDLAB_HOSTINFO_H

#include <stdint.h>

struct json_object;

struct hostinfo {
	char hostname[256];
	char kernel[128];	  /* release, /proc/sys/kernel/osrelease */
	char kernel_version[256]; /* build string, /proc/sys/kernel/version */
	char cpu_model[128];	  /* first "model name" of /proc/cpuinfo */
	int cpus;		  /* online CPUs (from sys/devices/system/cpu/online), -1 unknown */
	char cpufreq_driver[64];
	char governor[64];     /* cpu0's scaling_governor; "mixed (a, b)" when CPUs differ */
	int turbo;	       /* 1 enabled, 0 disabled, -1 unknown */
	char turbo_source[64]; /* "intel_pstate/no_turbo", "cpufreq/boost", ... */
	char cpuidle_driver[64];
	char cpuidle_governor[64];
	char cstates_enabled[256];  /* cpu0's idle states not disabled, comma-separated */
	char cstates_disabled[256]; /* cpu0's idle states disabled */
	char power_params[256];	    /* kernel command-line options about C-states, P-states and
				       idling (max_cstate, idle=, intel_pstate=, ...); only those */
	char clocksource[64];
	char clocksources_available[256];
	uint64_t mem_total_bytes; /* 0 unknown */
};

/*
 * Fills h from the files under root (NULL or "" = "/"). Always returns 0: a missing file just
 * leaves its field unknown (-EINVAL only when h is NULL).
 */
int hostinfo_collect(const char *root, struct hostinfo *h);

/* The manifest's "host" object (unknown fields as null). New object or NULL on ENOMEM. */
struct json_object *hostinfo_to_json(const struct hostinfo *h);

struct hostinfo_link {
	char kind[16];	/* "pcie", "sata", "usb", or "" when sysfs says nothing */
	char speed[64]; /* as sysfs words it: "16.0 GT/s PCIe", "6.0 Gbps", "5000" (USB, Mb/s) */
	char width[16]; /* PCIe lanes, "4"; "" otherwise */
	char max_speed[64]; /* PCIe only */
	char max_width[16]; /* PCIe only */
	char where[256];    /* the sysfs directory it came from, below root */
};

/*
 * The link of block device `dev` ("sdb", "/dev/nvme0n1", "sdb1", or any path of a device node
 * such as /dev/disk/by-id/..., which is stat'ed on this host): walks up from sys/class/block/DEV
 * (sys/dev/block/M:m) through the device's parents and reports the closest PCIe function, ATA
 * port or USB device. Returns 0 (l->kind "" when nothing is known, e.g. virtio or a loop
 * device), -ENOENT when there is no such block device, -EINVAL for a bad name or a path that
 * is not a block device.
 */
int hostinfo_block_link(const char *root, const char *dev, struct hostinfo_link *l);

/* {"kind":..,"speed":..,"width":..,"max_speed":..,"max_width":..}, empty fields as null. */
struct json_object *hostinfo_link_to_json(const struct hostinfo_link *l);

#endif
