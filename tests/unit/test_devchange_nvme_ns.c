// SPDX-License-Identifier: MIT
/*
 * test_devchange_nvme_ns: the nvme_namespace devchange kind against a scripted controller that
 * keeps its namespace's state (nvme_ns_ctrl.h: one namespace, nsid 1, one controller CNTLID 0x41).
 * Expected bytes from NVMe Base Specification 2.0:
 *   - before anything: Identify Controller (cdw10 1) for OACS bit 3 (namespace management), and
 *     the Commands Supported and Effects log (Get Log Page 0x05, 4096 bytes: NUMD 1023 -> cdw10
 *     0x03ff0005), whose dwords for opcodes 0x0D and 0x15 (bytes 52 and 84) have bit 0 CSUPP;
 *   - Identify CNS 0x11 (allocated namespace) cdw10 0x00000011; CNS 0x12 (attached controller
 *     list) cdw10 0x00000012, list = count, then ids, 16 bits little-endian.
 *   - Namespace Attachment (0x15): SEL 1 detach cdw10 0x00000001, SEL 0 attach 0x00000000, nsid 1,
 *     data the list {1, 0x0041} = bytes 01 00 41 00.
 *   - Namespace Management (0x0D): delete SEL 1 with nsid 1; create SEL 0 with nsid 0 and the
 *     Identify Namespace layout: NSZE at 0, NCAP at 8, FLBAS 26, DPS 29, NMIC 30.
 *   - The namespace is QEMU's test image: 256 MiB of 512-byte blocks = 524288 = 0x80000 blocks;
 *     shrunk to 192 MiB = 393216 = 0x60000 blocks.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "host/nvme_admin.h"
#include "nvme_ns_ctrl.h"
#include "nvme_script.h"
#include "targets/devchange_nvme_ns.h"

struct fx {
	struct nvme_ns_ctrl f;
	struct ioctl_ops ops;
	struct devchange_ctx c;
	int fd;
};

static int setup(void **state)
{
	struct fx *x = calloc(1, sizeof *x);

	if (!x)
		return -1;
	x->f = (struct nvme_ns_ctrl){.exists = true,
				     .attached = true,
				     .nsze = 524288,
				     .ncap = 524288,
				     .oacs = 0x000a,
				     .effects = 1};
	x->ops = (struct ioctl_ops){.admin = nvme_ns_ctrl_admin, .ctx = &x->f};
	x->fd = open("/dev/null", O_RDONLY);
	x->c = (struct devchange_ctx){.ops = &x->ops,
				      .fd = x->fd,
				      .path = "/dev/nvme0n1",
				      .transport = DRIVEDB_NVME,
				      .nsid = 1};
	*state = x;
	return x->fd < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	struct fx *x = *state;

	close(x->fd);
	free(x);
	return 0;
}

static const char *js(struct json_object *o)
{
	return json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
}

static void test_shrink_and_restore(void **state)
{
	struct fx *x = *state;
	const struct devchange_kind *k = &devchange_kind_nvme_namespace;
	struct json_object *from = NULL, *to = NULL, *now = NULL;
	char err[512] = "", cmd[512];

	assert_ptr_equal(devchange_kind("nvme_namespace"), k);
	assert_int_equal(k->read(&x->c, &from, err, sizeof err), 0);
	assert_string_equal(js(from), "{\"nsid\":1,\"nsze\":524288,\"ncap\":524288,\"flbas\":0,"
				      "\"dps\":0,\"nmic\":0,\"controllers\":[65]}");
	assert_int_equal(devchange_nvme_ns_shrunk(&x->c, 192ull << 20, &to, err, sizeof err), 0);
	assert_string_equal(js(to), "{\"nsid\":1,\"nsze\":393216,\"ncap\":393216,\"flbas\":0,"
				    "\"dps\":0,\"nmic\":0,\"controllers\":[65]}");
	assert_int_equal(k->describe(&x->c, to, cmd, sizeof cmd), 0);
	assert_string_equal(
	    cmd,
	    "NVMe Namespace Attachment (0x15) detach nsid 1; Namespace Management (0x0D) delete "
	    "nsid 1; create NSZE 393216 NCAP 393216 FLBAS 0x00 DPS 0x00 NMIC 0x00; attach to 1 "
	    "controller(s); NVME_IOCTL_RESCAN");

	x->f.n = 0;
	assert_int_equal(k->send(&x->c, to, err, sizeof err), 0);
	/* identify controller, effects log, identify x2, detach, delete, create, attach */
	assert_int_equal(x->f.n, 8);
	const struct {
		uint8_t op;
		uint32_t nsid, cdw10;
	} want[] = {{0x06, 0, 1}, {0x02, 0, 0x03ff0005}, {0x06, 1, 0x11}, {0x06, 1, 0x12},
		    {0x15, 1, 1}, {0x0d, 1, 1},		 {0x0d, 0, 0},	  {0x15, 1, 0}};
	for (int i = 0; i < 8; i++) {
		assert_int_equal(x->f.log[i].opcode, want[i].op);
		assert_int_equal(x->f.log[i].nsid, want[i].nsid);
		assert_int_equal(x->f.log[i].cdw10, want[i].cdw10);
	}
	const uint8_t list[4] = {0x01, 0x00, 0x41, 0x00};
	assert_memory_equal(x->f.log[4].data, list, 4);
	assert_memory_equal(x->f.log[7].data, list, 4);
	const uint8_t create[32] = {0x00, 0x00, 0x06, 0, 0, 0, 0, 0, 0x00, 0x00, 0x06,
				    0,	  0,	0,    0, 0, 0, 0, 0, 0,	   0,	 0,
				    0,	  0,	0,    0, 0, 0, 0, 0, 0,	   0};
	assert_memory_equal(x->f.log[6].data, create, 32);
	assert_true(x->f.exists && x->f.attached);
	assert_int_equal(x->f.nsze, 393216);

	assert_int_equal(k->read(&x->c, &now, err, sizeof err), 0);
	assert_true(k->same(now, to));
	assert_false(k->same(now, from));
	json_object_put(now);

	/* the restore: the original layout back */
	assert_int_equal(k->send(&x->c, from, err, sizeof err), 0);
	assert_int_equal(x->f.nsze, 524288);
	assert_int_equal(k->read(&x->c, &now, err, sizeof err), 0);
	assert_true(k->same(now, from));
	json_object_put(now);
	json_object_put(from);
	json_object_put(to);
}

static void test_fails_midway(void **state)
{
	struct fx *x = *state;
	const struct devchange_kind *k = &devchange_kind_nvme_namespace;
	struct json_object *from = NULL, *to = NULL, *now = NULL;
	char err[512] = "";

	assert_int_equal(k->read(&x->c, &from, err, sizeof err), 0);
	assert_int_equal(devchange_nvme_ns_shrunk(&x->c, 192ull << 20, &to, err, sizeof err), 0);
	/* Namespace Insufficient Capacity (SCT 1, SC 0x15) on the create: deleted, not created */
	x->f.fail_create = 0x4115;
	assert_int_equal(k->send(&x->c, to, err, sizeof err), -EIO);
	assert_non_null(strstr(err, "Namespace Management (create)"));
	assert_false(x->f.exists);
	/* what the restore finds: no namespace (nsze 0), so it only creates and attaches */
	assert_int_equal(k->read(&x->c, &now, err, sizeof err), 0);
	assert_string_equal(js(now), "{\"nsid\":1,\"nsze\":0,\"ncap\":0,\"flbas\":0,\"dps\":0,"
				     "\"nmic\":0,\"controllers\":[]}");
	assert_false(k->same(now, from));
	json_object_put(now);
	x->f.n = 0;
	assert_int_equal(k->send(&x->c, from, err, sizeof err), 0);
	/* identify controller, effects log, identify (no such namespace), create, attach */
	assert_int_equal(x->f.n, 5);
	assert_int_equal(x->f.log[3].opcode, 0x0d);
	assert_int_equal(x->f.log[4].opcode, 0x15);
	assert_true(x->f.exists && x->f.attached);
	assert_int_equal(x->f.nsze, 524288);
	json_object_put(from);
	json_object_put(to);
}

static void test_dry_run_and_refusals(void **state)
{
	struct fx *x = *state;
	const struct devchange_kind *k = &devchange_kind_nvme_namespace;
	struct json_object *to = NULL, *v = NULL;
	char err[512] = "", *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	assert_non_null(mem);
	assert_int_equal(devchange_nvme_ns_shrunk(&x->c, 192ull << 20, &to, err, sizeof err), 0);
	x->c.dry_run = true;
	x->c.dry_out = mem;
	assert_int_equal(k->send(&x->c, to, err, sizeof err), 0);
	fclose(mem);
	assert_non_null(strstr(
	    buf, "would send: NVMe admin opcode 0x15 (Namespace Attachment), nsid 0x00000001, "
		 "cdw10 0x00000001 (SEL 1 detach)"));
	assert_non_null(strstr(
	    buf, "opcode 0x0d (Namespace Management), nsid 0x00000001, cdw10 0x00000001 (SEL 1 "
		 "delete)"));
	assert_non_null(strstr(
	    buf, "opcode 0x0d (Namespace Management), nsid 0x00000000, cdw10 0x00000000 (SEL 0 "
		 "create)"));
	assert_non_null(strstr(buf, "would send: NVME_IOCTL_RESCAN"));
	assert_int_equal(x->f.nsze, 524288);
	assert_true(x->f.exists && x->f.attached);
	free(buf);
	x->c.dry_run = false;

	/* a detached namespace of the original layout (a change that failed after its detach): only
	 * attached again */
	x->f.attached = false;
	x->f.n = 0;
	struct json_object *from = NULL;
	assert_int_equal(k->read(&x->c, &from, err, sizeof err), 0);
	assert_string_equal(
	    js(from),
	    "{\"nsid\":1,\"nsze\":524288,\"ncap\":524288,\"flbas\":0,\"dps\":0,\"nmic\":0,"
	    "\"controllers\":[]}");
	json_object_object_add(from, "controllers", json_object_new_array());
	json_object_array_add(json_object_object_get(from, "controllers"),
			      json_object_new_int(0x41));
	x->f.n = 0;
	assert_int_equal(k->send(&x->c, from, err, sizeof err), 0);
	assert_int_equal(x->f.n, 5); /* identify controller, log, CNS 0x11, CNS 0x12, attach */
	assert_int_equal(x->f.log[4].opcode, 0x15);
	assert_int_equal(x->f.log[4].cdw10, 0);
	assert_true(x->f.attached);
	json_object_put(from);

	/* QEMU 7.2: OACS bit 3 set, but the effects log does not list Namespace Management; or no
	 * OACS bit 3: refused before anything is sent */
	x->f.effects = 2;
	x->f.n = 0;
	assert_int_equal(k->read(&x->c, &v, err, sizeof err), -EOPNOTSUPP);
	assert_non_null(strstr(err, "does not list Namespace Management (0x0D)"));
	assert_int_equal(k->send(&x->c, to, err, sizeof err), -EOPNOTSUPP);
	assert_true(x->f.exists && x->f.attached);
	for (int i = 0; i < x->f.n; i++)
		assert_true(x->f.log[i].opcode == 0x06 || x->f.log[i].opcode == 0x02);
	x->f.effects = 0; /* no log: OACS decides */
	x->f.oacs = 0x0002;
	assert_int_equal(k->read(&x->c, &v, err, sizeof err), -EOPNOTSUPP);
	assert_string_equal(
	    err, "/dev/nvme0n1: the controller has no namespace management (OACS bit 3 clear)");
	x->f.oacs = 0x000a;
	assert_int_equal(k->read(&x->c, &v, err, sizeof err), 0);
	json_object_put(v);
	v = NULL;

	/* bigger than the namespace, or not NVMe */
	assert_int_equal(devchange_nvme_ns_shrunk(&x->c, 512ull << 20, &v, err, sizeof err),
			 -EINVAL);
	assert_null(v);
	x->c.transport = DRIVEDB_ATA;
	assert_int_equal(k->read(&x->c, &v, err, sizeof err), -EOPNOTSUPP);
	assert_string_equal(err, "/dev/nvme0n1 is not an NVMe namespace");
	json_object_put(to);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_shrink_and_restore, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_fails_midway, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_dry_run_and_refusals, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
