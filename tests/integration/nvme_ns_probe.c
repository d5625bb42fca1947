// SPDX-License-Identifier: MIT
/*
 * nvme_ns_probe: drives the nvme_namespace devchange kind (targets/devchange_nvme_ns.h) on a
 * real NVMe namespace, for the QEMU test (qemu_guest_purge.sh): reads the layout, shrinks the
 * namespace to BYTES (delete, create, attach, rescan), reads it again and the kernel's size, then
 * restores the original layout and reads both once more. Prints one JSON object; exit 0 when
 * every step returned 0. Not installed: the journal around the kind is devchange_set's.
 *
 *   nvme_ns_probe /dev/nvme0n1 BYTES
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "targets/devchange_nvme_ns.h"

static long long sysfs_num(const char *disk, const char *attr)
{
	char path[256];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof path, "/sys/block/%s/%s", disk, attr);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* The kernel's size of disk in 512-byte sectors once it is `want` (the rescan runs
 * asynchronously), or what it is after 10 s. */
static long long wait_size(const char *disk, long long want)
{
	long long v = -1;

	for (int i = 0; i < 100; i++) {
		v = sysfs_num(disk, "size");
		if (v == want)
			break;
		nanosleep(&(struct timespec){.tv_nsec = 100000000}, NULL);
	}
	return v;
}

int main(int argc, char **argv)
{
	struct json_object *out = json_object_new_object(), *from = NULL, *to = NULL, *v = NULL;
	const struct devchange_kind *k = devchange_kind("nvme_namespace");
	char err[512] = "";
	const char *disk;
	unsigned long long bytes;
	long long nsid, sectors;
	int fd, rc, bad = 0;

	if (argc != 3 || !out || !k) {
		fprintf(stderr, "usage: nvme_ns_probe /dev/nvmeXnY BYTES\n");
		return 2;
	}
	disk = strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1];
	bytes = strtoull(argv[2], NULL, 0);
	nsid = sysfs_num(disk, "nsid");
	sectors = sysfs_num(disk, "size");
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0 || nsid <= 0) {
		fprintf(stderr, "%s: %s\n", argv[1], fd < 0 ? strerror(errno) : "no nsid in sysfs");
		return 1;
	}
	/* the journal's identity: the serial finds the controller again while the namespace is gone
	 */
	struct json_object *id = json_object_new_object();
	char serial[64] = "", path[300];
	FILE *f;
	snprintf(path, sizeof path, "/sys/block/%s/device/serial", disk);
	if ((f = fopen(path, "r"))) {
		if (fgets(serial, sizeof serial, f))
			serial[strcspn(serial, " \n")] = 0;
		fclose(f);
	}
	json_object_object_add(id, "serial", json_object_new_string(serial));
	struct devchange_ctx c = {.fd = fd,
				  .path = argv[1],
				  .transport = DRIVEDB_NVME,
				  .nsid = (uint32_t)nsid,
				  .sysfs_disk = disk,
				  .identity = id};
	json_object_object_add(out, "size_before", json_object_new_int64(sectors));
	rc = k->read(&c, &from, err, sizeof err);
	json_object_object_add(out, "from", rc ? json_object_new_string(err) : from);
	bad |= rc;
	if (!rc) {
		rc = devchange_nvme_ns_shrunk(&c, bytes, &to, err, sizeof err);
		json_object_object_add(out, "to", rc ? json_object_new_string(err) : to);
		bad |= rc;
	}
	if (!bad) {
		rc = k->send(&c, to, err, sizeof err);
		json_object_object_add(out, "set_rc", json_object_new_int(rc));
		json_object_object_add(out, "set_error", rc ? json_object_new_string(err) : NULL);
		bad |= rc;
		json_object_object_add(
		    out, "size_after",
		    json_object_new_int64(wait_size(disk, (long long)(bytes / 512))));
		rc = k->read(&c, &v, err, sizeof err);
		json_object_object_add(out, "after", rc ? json_object_new_string(err) : v);
		json_object_object_add(out, "after_same",
				       json_object_new_boolean(!rc && k->same(v, to)));
		/* the restore, whatever happened above */
		rc = k->send(&c, from, err, sizeof err);
		json_object_object_add(out, "restore_rc", json_object_new_int(rc));
		json_object_object_add(out, "restore_error",
				       rc ? json_object_new_string(err) : NULL);
		bad |= rc;
		json_object_object_add(out, "size_restored",
				       json_object_new_int64(wait_size(disk, sectors)));
		v = NULL;
		rc = k->read(&c, &v, err, sizeof err);
		json_object_object_add(out, "restored", rc ? json_object_new_string(err) : v);
		json_object_object_add(out, "restored_same",
				       json_object_new_boolean(!rc && k->same(v, from)));
	}
	json_object_object_add(out, "size_end", json_object_new_int64(sysfs_num(disk, "size")));
	printf("%s\n", json_object_to_json_string_ext(out, JSON_C_TO_STRING_PLAIN));
	json_object_put(out);
	json_object_put(id);
	close(fd);
	return bad ? 1 : 0;
}
