/* SPDX-License-Identifier: MIT */
/*
 * hostinfo: host state from /proc and /sys (see hostinfo.h). Every read is a small text file
 * under `root`; a file that is absent leaves its field unknown.
 */
#include "host/hostinfo.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <json-c/json.h>

#include "base/jsonnum.h"
#include "host/sysfs.h"

#define CPU_DIR "sys/devices/system/cpu"

/*
 * The first line of root/rel in buf, trimmed; buf "" on error. 0, -ENODATA for an empty value,
 * or -errno. A value longer than buf is cut, not refused: these fields only describe the host.
 */
static int read_line(const char *root, const char *rel, char *buf, size_t len)
{
	ssize_t n = sysfs_read(root, rel, buf, len);

	return n > 0 || n == -EOVERFLOW ? 0 : n ? (int)n : -ENODATA;
}

/* "0-3,5" -> 5 */
static int count_cpus(const char *list)
{
	int n = 0;
	const char *p = list;

	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b;

		if (end == p)
			return -1;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a)
				return -1;
		}
		n += (int)(b - a + 1);
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -1;
	}
	return n ? n : -1;
}

static void cpu_model(const char *root, struct hostinfo *h)
{
	char path[PATH_MAX], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		/* x86 says "model name", arm64 "CPU part" only; take the first model name. */
		if (strncmp(line, "model name", 10) || !colon)
			continue;
		colon++;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(h->cpu_model, sizeof(h->cpu_model), "%s", colon);
		break;
	}
	fclose(f);
}

static void mem_total(const char *root, struct hostinfo *h)
{
	char path[PATH_MAX], line[256];
	unsigned long long kb;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/meminfo", root);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) {
			h->mem_total_bytes = (uint64_t)kb * 1024;
			break;
		}
	fclose(f);
}

/* The governor of cpu0, or "mixed (a, b)" when another online CPU uses a different one. */
static void governor(const char *root, struct hostinfo *h)
{
	char rel[128], g[64];

	if (read_line(root, CPU_DIR "/cpu0/cpufreq/scaling_governor", h->governor,
		      sizeof(h->governor)))
		return;
	read_line(root, CPU_DIR "/cpu0/cpufreq/scaling_driver", h->cpufreq_driver,
		  sizeof(h->cpufreq_driver));
	for (int cpu = 1; cpu < 4096; cpu++) {
		snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/cpufreq/scaling_governor", cpu);
		if (read_line(root, rel, g, sizeof(g)) == -ENOENT) {
			/* CPUs may be offline in the middle; stop only past the last one present.
			 */
			snprintf(rel, sizeof(rel), "%s/" CPU_DIR "/cpu%d", root, cpu);
			DIR *d = opendir(rel);

			if (!d)
				break;
			closedir(d);
			continue;
		}
		if (*g && strcmp(g, h->governor)) {
			char first[64];

			snprintf(first, sizeof(first), "%s", h->governor);
			snprintf(h->governor, sizeof(h->governor), "mixed (%.24s, %.24s)", first,
				 g);
			break;
		}
	}
}

static void turbo(const char *root, struct hostinfo *h)
{
	char v[16];

	/* intel_pstate says the opposite: no_turbo = 1 means turbo is off. */
	if (!read_line(root, CPU_DIR "/intel_pstate/no_turbo", v, sizeof(v)) && *v) {
		h->turbo = v[0] == '0';
		snprintf(h->turbo_source, sizeof(h->turbo_source), "intel_pstate/no_turbo");
	} else if (!read_line(root, CPU_DIR "/cpufreq/boost", v, sizeof(v)) && *v) {
		h->turbo = v[0] == '1';
		snprintf(h->turbo_source, sizeof(h->turbo_source), "cpufreq/boost");
	} else if (!read_line(root, CPU_DIR "/amd_pstate/cpb_boost", v, sizeof(v)) && *v) {
		h->turbo = v[0] == '1';
		snprintf(h->turbo_source, sizeof(h->turbo_source), "amd_pstate/cpb_boost");
	}
}

static void append_name(char *list, size_t len, const char *name)
{
	size_t n = strlen(list);

	snprintf(list + n, len - n, "%s%s", n ? "," : "", name);
}

static void cstates(const char *root, struct hostinfo *h)
{
	char rel[128], name[64], dis[16];

	read_line(root, CPU_DIR "/cpuidle/current_driver", h->cpuidle_driver,
		  sizeof(h->cpuidle_driver));
	read_line(root, CPU_DIR "/cpuidle/current_governor", h->cpuidle_governor,
		  sizeof(h->cpuidle_governor));
	for (int s = 0; s < 64; s++) {
		snprintf(rel, sizeof(rel), CPU_DIR "/cpu0/cpuidle/state%d/name", s);
		if (read_line(root, rel, name, sizeof(name)))
			break;
		snprintf(rel, sizeof(rel), CPU_DIR "/cpu0/cpuidle/state%d/disable", s);
		if (!read_line(root, rel, dis, sizeof(dis)) && dis[0] == '1')
			append_name(h->cstates_disabled, sizeof(h->cstates_disabled), name);
		else
			append_name(h->cstates_enabled, sizeof(h->cstates_enabled), name);
	}
}

/*
 * The kernel options that change C-states, P-states or idling, from /proc/cmdline. Only these
 * are copied: the rest of a command line is none of a published result's business.
 */
static void power_params(const char *root, struct hostinfo *h)
{
	static const char *const keys[] = {"intel_idle.", "processor.max_cstate",
					   "idle=",	  "intel_pstate=",
					   "amd_pstate",  "cpuidle.",
					   "cpufreq.",	  "nohz",
					   "isolcpus="};
	char line[4096], *save = NULL;

	if (read_line(root, "proc/cmdline", line, sizeof(line)))
		return;
	for (char *tok = strtok_r(line, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strncmp(tok, keys[i], strlen(keys[i]))) {
				append_name(h->power_params, sizeof(h->power_params), tok);
				break;
			}
}

int hostinfo_collect(const char *root, struct hostinfo *out)
{
	struct hostinfo h;
	char cpus[256];

	if (!out)
		return -EINVAL;
	if (!root || !*root)
		root = "";
	memset(&h, 0, sizeof(h));
	h.cpus = -1;
	h.turbo = -1;
	read_line(root, "proc/sys/kernel/hostname", h.hostname, sizeof(h.hostname));
	read_line(root, "proc/sys/kernel/osrelease", h.kernel, sizeof(h.kernel));
	read_line(root, "proc/sys/kernel/version", h.kernel_version, sizeof(h.kernel_version));
	cpu_model(root, &h);
	if (!read_line(root, CPU_DIR "/online", cpus, sizeof(cpus)))
		h.cpus = count_cpus(cpus);
	governor(root, &h);
	turbo(root, &h);
	cstates(root, &h);
	power_params(root, &h);
	read_line(root, "sys/devices/system/clocksource/clocksource0/current_clocksource",
		  h.clocksource, sizeof(h.clocksource));
	read_line(root, "sys/devices/system/clocksource/clocksource0/available_clocksource",
		  h.clocksources_available, sizeof(h.clocksources_available));
	mem_total(root, &h);
	*out = h;
	return 0;
}

/* A string member, or null when unknown (""). */
static int add_s(struct json_object *o, const char *k, const char *v)
{
	return jsonnum_add(o, k, *v ? json_object_new_string(v) : NULL);
}

struct json_object *hostinfo_to_json(const struct hostinfo *h)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (add_s(o, "hostname", h->hostname) || add_s(o, "kernel", h->kernel) ||
	    add_s(o, "kernel_version", h->kernel_version) || add_s(o, "cpu_model", h->cpu_model) ||
	    jsonnum_add(o, "cpus", h->cpus >= 0 ? json_object_new_int(h->cpus) : NULL) ||
	    add_s(o, "cpufreq_driver", h->cpufreq_driver) || add_s(o, "governor", h->governor) ||
	    jsonnum_add(o, "turbo", h->turbo >= 0 ? json_object_new_boolean(h->turbo) : NULL) ||
	    add_s(o, "turbo_source", h->turbo_source) ||
	    add_s(o, "cpuidle_driver", h->cpuidle_driver) ||
	    add_s(o, "cpuidle_governor", h->cpuidle_governor) ||
	    add_s(o, "cstates_enabled", h->cstates_enabled) ||
	    add_s(o, "cstates_disabled", h->cstates_disabled) ||
	    add_s(o, "power_params", h->power_params) || add_s(o, "clocksource", h->clocksource) ||
	    add_s(o, "clocksources_available", h->clocksources_available) ||
	    jsonnum_add(o, "mem_total_bytes",
			h->mem_total_bytes ? json_object_new_uint64(h->mem_total_bytes) : NULL)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* Is `name` "ata" followed by digits? Returns the number or -1. */
static long ata_port(const char *name)
{
	char *end;
	long n;

	if (strncmp(name, "ata", 3) || !isdigit((unsigned char)name[3]))
		return -1;
	n = strtol(name + 3, &end, 10);
	return *end ? -1 : n;
}

/* Checks one directory of the device's ancestry; 1 when it told us the link. */
static int link_at(const char *root, const char *dir, struct hostinfo_link *l)
{
	const char *rel = dir + strlen(root), *base = strrchr(dir, '/');
	char f[PATH_MAX], busnum[16];
	long port;

	while (*rel == '/')
		rel++;
	base = base ? base + 1 : dir;
	snprintf(f, sizeof(f), "%s/current_link_speed", rel);
	if (!read_line(root, f, l->speed, sizeof(l->speed)) && *l->speed) {
		snprintf(l->kind, sizeof(l->kind), "pcie");
		snprintf(f, sizeof(f), "%s/current_link_width", rel);
		read_line(root, f, l->width, sizeof(l->width));
		snprintf(f, sizeof(f), "%s/max_link_speed", rel);
		read_line(root, f, l->max_speed, sizeof(l->max_speed));
		snprintf(f, sizeof(f), "%s/max_link_width", rel);
		read_line(root, f, l->max_width, sizeof(l->max_width));
		goto found;
	}
	port = ata_port(base);
	if (port >= 0) {
		/* libata: the port's link is sys/class/ata_link/linkN (no port multiplier). */
		snprintf(f, sizeof(f), "sys/class/ata_link/link%ld/sata_spd", port);
		if (!read_line(root, f, l->speed, sizeof(l->speed)) && *l->speed) {
			snprintf(l->kind, sizeof(l->kind), "sata");
			goto found;
		}
	}
	snprintf(f, sizeof(f), "%s/busnum", rel);
	if (!read_line(root, f, busnum, sizeof(busnum))) {
		snprintf(f, sizeof(f), "%s/speed", rel);
		if (!read_line(root, f, l->speed, sizeof(l->speed)) && *l->speed) {
			snprintf(l->kind, sizeof(l->kind), "usb");
			goto found;
		}
	}
	l->speed[0] = '\0';
	return 0;
found:
	snprintf(l->where, sizeof(l->where), "%s", rel);
	return 1;
}

/* Walks up from dir to (not past) sys/devices: the closest link to the device wins. */
static void walk_up(const char *rroot, char *dir, const char *devices, size_t dlen,
		    struct hostinfo_link *l)
{
	while (!strncmp(dir, devices, dlen) && dir[dlen] == '/') {
		if (link_at(rroot, dir, l))
			return;
		*strrchr(dir, '/') = '\0';
	}
}

static int is_ctrl_name(const struct dirent *e)
{
	const char *p = e->d_name;

	if (strncmp(p, "nvme", 4) || !isdigit((unsigned char)p[4]))
		return 0;
	for (p += 4; isdigit((unsigned char)*p); p++)
		;
	return !*p; /* "nvme0", not "nvme0n1" */
}

static int cmp_ctrl(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/*
 * The first controller (by name) of the subsystem holding the namespace at `ns` (a resolved
 * .../nvme-subsystem/nvme-subsysN/nvmeXnY): its resolved path into out. 0 or -ENOENT.
 */
static int nvme_controller(const char *ns, char *out, size_t len)
{
	char subsys[PATH_MAX], link[PATH_MAX];
	struct dirent **list = NULL;
	int n, rc = -ENOENT;

	snprintf(subsys, sizeof(subsys), "%s", ns);
	*strrchr(subsys, '/') = '\0';
	n = scandir(subsys, &list, is_ctrl_name, cmp_ctrl);
	if (n > 0 &&
	    snprintf(link, sizeof(link), "%s/%s", subsys, list[0]->d_name) < (int)sizeof(link) &&
	    realpath(link, out) && strlen(out) < len)
		rc = 0;
	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);
	return rc;
}

int hostinfo_block_link(const char *root, const char *dev, struct hostinfo_link *out)
{
	struct hostinfo_link l;
	char path[PATH_MAX], real[PATH_MAX], rroot[PATH_MAX], devices[PATH_MAX];
	const char *name;
	size_t dlen;

	if (!dev || !out)
		return -EINVAL;
	/* Work on resolved paths: sysfs is all symlinks; a fake root may be too. */
	if (!realpath(root && *root ? root : "/", rroot))
		return -errno;
	if (!strcmp(rroot, "/"))
		rroot[0] = '\0';
	name = strncmp(dev, "/dev/", 5) ? dev : dev + 5;
	if (strchr(name, '/')) {
		/* /dev/disk/by-id/...: the device node's numbers lead to sys/dev/block/M:m. */
		struct stat st;

		if (stat(dev, &st))
			return -errno;
		if (!S_ISBLK(st.st_mode))
			return -EINVAL;
		if (snprintf(path, sizeof(path), "%s/sys/dev/block/%u:%u", rroot, major(st.st_rdev),
			     minor(st.st_rdev)) >= (int)sizeof(path))
			return -ENAMETOOLONG;
	} else if (!*name || !strcmp(name, ".") || !strcmp(name, "..")) {
		return -EINVAL;
	} else if (snprintf(path, sizeof(path), "%s/sys/class/block/%s", rroot, name) >=
		   (int)sizeof(path)) {
		return -ENAMETOOLONG;
	}
	if (!realpath(path, real))
		return errno == ENOENT || errno == ENOTDIR ? -ENOENT : -errno;
	if (snprintf(path, sizeof(path), "%s/sys/devices", rroot) >= (int)sizeof(path) ||
	    !realpath(path, devices))
		return -ENOENT;
	dlen = strlen(devices);
	memset(&l, 0, sizeof(l));
	/*
	 * Native NVMe multipath (the default of most kernels) puts nvmeXnY under a virtual
	 * subsystem; its controllers, and their PCIe functions, are linked from there.
	 */
	if (strstr(real, "/nvme-subsystem/") && nvme_controller(real, path, sizeof(path)) == 0)
		snprintf(real, sizeof(real), "%s", path);
	walk_up(rroot, real, devices, dlen, &l);
	*out = l;
	return 0;
}

struct json_object *hostinfo_link_to_json(const struct hostinfo_link *l)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (add_s(o, "kind", l->kind) || add_s(o, "speed", l->speed) ||
	    add_s(o, "width", l->width) || add_s(o, "max_speed", l->max_speed) ||
	    add_s(o, "max_width", l->max_width) || add_s(o, "sysfs", l->where)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}
