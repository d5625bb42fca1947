// SPDX-License-Identifier: MIT
/*
 * test_purge_chain: the purge methods and the `auto` walk (targets/purge_chain.h) over a
 * scripted admin table. The drive is nvme_script.h's controller and namespace (FLBAS 0x01: LBA
 * format 1, no metadata, no PI) with OACS, FNA and SANICAP set per case (Identify Controller
 * bytes 256, 524 and 328). Expected commands, worked out from NVMe Base Specification 2.0:
 *   - Format NVM, user-data erase, LBAF 1: cdw10 = 1 | (SES 1 << 9) = 0x00000201; nsid 1 when FNA
 *     bits 0/1 are clear, 0xffffffff with FNA 0x01.
 *   - Sanitize block erase: cdw10 0x00000002; crypto erase 0x00000004 (NDAS bit 9 clear).
 *   - Sanitize Status log: Get Log Page cdw10 0x007f0081 (512 bytes), SSTAT 1 = completed.
 * auto: block-erase sanitize, then format, then discard; each skipped row's reason recorded.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nvme_script.h"
#include "targets/purge_chain.h"

enum { R_CTRL, R_NS, R_FORMAT, R_SAN_BLOCK, R_SAN_CRYPTO, R_SANLOG, R_N };

struct fixture {
	uint8_t ctrl[NVME_IDENTIFY_LEN], ns[NVME_IDENTIFY_LEN], sanlog[512];
	struct nvme_script_row rows[R_N];
	struct nvme_script s;
	struct ioctl_ops ops;
	struct purge_drive d;
	int discards, reach_calls;
	int reach_rc;
	char reach_what[128];
	bool flip_flbas; /* the format changes FLBAS (a drive that lost the format) */
};

static int fx_discard(void *ctx)
{
	struct fixture *f = ctx;

	f->discards++;
	return 0;
}

static int fx_reach(void *ctx, const char *what, char *reason, size_t len)
{
	struct fixture *f = ctx;

	f->reach_calls++;
	snprintf(f->reach_what, sizeof f->reach_what, "%s", what);
	if (f->reach_rc)
		snprintf(reason, len, "nvme0n2 is mounted on /mnt");
	return f->reach_rc;
}

static int fx_admin(void *ctx, int fd, struct nvme_admin_cmd *cmd)
{
	struct fixture *f = ctx;
	int rc = nvme_script_admin(&f->s, fd, cmd);

	if (cmd->opcode == 0x80 && f->flip_flbas)
		f->ns[26] = 0x00;
	return rc;
}

static struct fixture *fx_new(uint16_t oacs, uint8_t fna, uint32_t sanicap, enum purge_transport tr)
{
	struct fixture *f = calloc(1, sizeof *f);

	assert_non_null(f);
	nvme_script_build_ctrl(f->ctrl);
	nvme_put_le(f->ctrl + 256, oacs, 2);
	f->ctrl[524] = fna;
	nvme_put_le(f->ctrl + 328, sanicap, 4);
	nvme_script_build_ns(f->ns);
	nvme_put_le(f->sanlog, 0xffff, 2);
	nvme_put_le(f->sanlog + 2, 1, 2);
	f->rows[R_CTRL] =
	    (struct nvme_script_row){.opcode = 0x06, .cdw10 = 1, .data = f->ctrl, .len = 4096};
	f->rows[R_NS] =
	    (struct nvme_script_row){.opcode = 0x06, .cdw10 = 0, .data = f->ns, .len = 4096};
	f->rows[R_FORMAT] = (struct nvme_script_row){.opcode = 0x80, .cdw10 = 0x201};
	f->rows[R_SAN_BLOCK] = (struct nvme_script_row){.opcode = 0x84, .cdw10 = 0x2};
	f->rows[R_SAN_CRYPTO] = (struct nvme_script_row){.opcode = 0x84, .cdw10 = 0x4};
	f->rows[R_SANLOG] = (struct nvme_script_row){
	    .opcode = 0x02, .cdw10 = 0x007f0081, .data = f->sanlog, .len = 512};
	f->s = (struct nvme_script){.rows = f->rows, .n = R_N};
	f->ops = (struct ioctl_ops){.admin = fx_admin, .ctx = f};
	f->d = (struct purge_drive){.ops = &f->ops,
				    .fd = 3,
				    .transport = tr,
				    .nsid = 1,
				    .discard = fx_discard,
				    .reach_ok = fx_reach,
				    .ctx = f};
	return f;
}

static void test_auto_block_sanitize(void **state)
{
	struct fixture *f = fx_new(0x000f, 0x04, 0x3, PURGE_NVME);
	struct purge_outcome o;
	char err[512] = "";

	(void)state;
	assert_int_equal(purge_chain_run(&f->d, "auto", &o, err, sizeof err), 0);
	assert_string_equal(o.method, "nvme-sanitize (block erase)");
	assert_true(o.pts_purge);
	assert_true(o.all_namespaces);
	assert_false(o.discard_after);
	assert_string_equal(o.skipped, "");
	assert_int_equal(f->rows[R_SAN_BLOCK].calls, 1);
	assert_int_equal(f->rows[R_SANLOG].calls, 1);
	assert_int_equal(f->rows[R_FORMAT].calls, 0);
	assert_int_equal(f->reach_calls, 1);
	assert_non_null(strstr(f->reach_what, "sanitize"));
	assert_int_equal(f->discards, 0);
	assert_int_equal(f->s.unmatched, 0);
	free(f);
}

static void test_auto_format(void **state)
{
	/* QEMU's controller: OACS 0x10a (format, namespace management), FNA 0, SANICAP 0 */
	struct fixture *f = fx_new(0x010a, 0x00, 0x0, PURGE_NVME);
	struct purge_outcome o;
	char err[512] = "";

	(void)state;
	assert_int_equal(purge_chain_run(&f->d, NULL, &o, err, sizeof err), 0);
	assert_string_equal(o.method, "nvme-format (user data erase)");
	assert_true(o.pts_purge);
	assert_false(o.all_namespaces);
	assert_string_equal(o.skipped,
			    "nvme-sanitize: the controller has no sanitize (SANICAP 0x0); "
			    "ata-sanitize-block: not a SATA drive");
	assert_int_equal(f->rows[R_FORMAT].calls, 1);
	assert_int_equal(f->rows[R_FORMAT].seen.nsid, 1);
	assert_int_equal(f->reach_calls, 0); /* one namespace: the gate's own check covers it */
	/* the namespace read again after the format: Identify NS twice */
	assert_int_equal(f->rows[R_NS].calls, 2);
	assert_int_equal(f->rows[R_SAN_BLOCK].calls + f->rows[R_SAN_CRYPTO].calls, 0);
	free(f);
}

static void test_auto_format_all_refused(void **state)
{
	/* crypto-only sanitize (not for auto), a format reaching every namespace (FNA bit 0): the
	 * reach check refuses before anything is sent */
	struct fixture *f = fx_new(0x000f, 0x01, 0x1, PURGE_NVME);
	struct purge_outcome o;
	char err[512] = "";

	(void)state;
	f->reach_rc = -EPERM;
	assert_int_equal(purge_chain_run(&f->d, "auto", &o, err, sizeof err), -EPERM);
	assert_string_equal(o.skipped, "nvme-sanitize: no block-erase sanitize (SANICAP 0x1); "
				       "ata-sanitize-block: not a SATA drive");
	assert_true(o.all_namespaces);
	assert_int_equal(f->reach_calls, 1);
	assert_non_null(strstr(f->reach_what, "format"));
	assert_string_equal(err, "nvme0n2 is mounted on /mnt");
	assert_int_equal(f->rows[R_FORMAT].calls, 0);
	assert_int_equal(f->s.unmatched, 0);

	/* when the other namespaces are free, the format goes to nsid 0xffffffff */
	f->reach_rc = 0;
	assert_int_equal(purge_chain_run(&f->d, "auto", &o, err, sizeof err), 0);
	assert_int_equal(f->rows[R_FORMAT].calls, 1);
	assert_int_equal(f->rows[R_FORMAT].seen.nsid, 0xffffffffu);
	free(f);
}

static void test_named_crypto_sanitize(void **state)
{
	struct fixture *f = fx_new(0x000f, 0x04, 0x1, PURGE_NVME);
	struct purge_outcome o;
	char err[512] = "";

	(void)state;
	assert_int_equal(purge_chain_run(&f->d, "nvme-sanitize", &o, err, sizeof err), 0);
	assert_string_equal(o.method, "nvme-sanitize (crypto erase)");
	assert_true(o.discard_after);
	assert_int_equal(f->discards, 1);
	assert_int_equal(f->rows[R_SAN_CRYPTO].calls, 1);
	free(f);
}

static void test_not_nvme_and_errors(void **state)
{
	struct fixture *f = fx_new(0x000f, 0x04, 0x3, PURGE_OTHER);
	struct purge_outcome o;
	char err[512] = "";

	(void)state;
	assert_int_equal(purge_chain_run(&f->d, "auto", &o, err, sizeof err), 0);
	assert_string_equal(o.method, "discard");
	assert_false(o.pts_purge);
	assert_string_equal(
	    o.skipped, "nvme-sanitize: not an NVMe drive; ata-sanitize-block: not a SATA drive; "
		       "nvme-format: not an NVMe drive; ata-security-erase: not a SATA drive");
	assert_int_equal(f->discards, 1);
	assert_int_equal(f->s.calls, 0);

	assert_int_equal(purge_chain_run(&f->d, "nvme-format", &o, err, sizeof err), -EOPNOTSUPP);
	assert_string_equal(err, "purge method nvme-format: not an NVMe drive");
	assert_int_equal(purge_chain_run(&f->d, "shred", &o, err, sizeof err), -EINVAL);
	free(f);

	/* no Format NVM, no sanitize, no discard: nothing applies, every reason given */
	f = fx_new(0x0000, 0x00, 0x0, PURGE_NVME);
	f->d.discard = NULL;
	assert_int_equal(purge_chain_run(&f->d, "auto", &o, err, sizeof err), -EOPNOTSUPP);
	assert_string_equal(
	    err, "no purge method applies: nvme-sanitize: the controller has no sanitize "
		 "(SANICAP 0x0); ata-sanitize-block: not a SATA drive; nvme-format: the controller "
		 "has no Format NVM (OACS bit 1 clear); ata-security-erase: not a SATA drive; "
		 "discard: the device has no discard; ata-sanitize-crypto: auto takes a block "
		 "erase; a crypto scramble only when named");
	free(f);

	/* the format came back in another LBA format: an error, not a purge */
	f = fx_new(0x000f, 0x00, 0x0, PURGE_NVME);
	f->flip_flbas = true;
	assert_int_equal(purge_chain_run(&f->d, "nvme-format", &o, err, sizeof err), -EIO);
	assert_string_equal(err, "the format changed FLBAS from 0x01 to 0x00");
	free(f);
}

static void test_dry_run(void **state)
{
	struct fixture *f = fx_new(0x000f, 0x00, 0x0, PURGE_NVME);
	struct purge_outcome o;
	char err[512] = "", *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(mem);
	f->d.dry_run = true;
	f->d.dry_out = mem;
	assert_int_equal(purge_chain_run(&f->d, "auto", &o, err, sizeof err), 0);
	fclose(mem);
	assert_non_null(
	    strstr(buf, "would send: NVMe admin opcode 0x80 (Format NVM), nsid 0x00000001, cdw10 "
			"0x00000201 (LBAF 1, MSET 0, PI 0, PIL 0, SES 1 user data erase)"));
	assert_int_equal(f->rows[R_FORMAT].calls, 0);
	free(buf);
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_auto_block_sanitize),
	    cmocka_unit_test(test_auto_format),
	    cmocka_unit_test(test_auto_format_all_refused),
	    cmocka_unit_test(test_named_crypto_sanitize),
	    cmocka_unit_test(test_not_nvme_and_errors),
	    cmocka_unit_test(test_dry_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
