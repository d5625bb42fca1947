// SPDX-License-Identifier: MIT
/*
 * test_nvme_format: host/nvme_format's commands, with the expected CDW values worked out here
 * from the NVMe Base Specification 2.0 layouts:
 *   - Format NVM CDW10 = LBAFL (3:0) | MSET (4) | PI (7:5) | PIL (8) | SES (11:9) | LBAFU (13:12).
 *     FLBAS 0x01, DPS 0, user-data erase:  1 | 1<<9 = 0x00000201, nsid 1 (FNA 0x04: per namespace).
 *     FLBAS 0x52 = 0101 0010b: index low 2, bit 4 set (MSET 1), bits 6:5 = 10b (index high 2) ->
 *     LBAF 2 + 2*16 = 34; DPS 0x0b: PI 3, PIL 1; crypto erase (SES 2):
 *     0x2 | 0x10 | 3<<5 (0x60) | 0x100 | 2<<9 (0x400) | 2<<12 (0x2000) = 0x00002572; FNA 0x05 (all
 *     namespaces + crypto) -> nsid 0xffffffff.
 *     FNA 0x02 (secure erase reaches all): no erase -> the namespace; an erase -> 0xffffffff.
 *   - Sanitize CDW10: SANACT 2:0, AUSE 3, OWPASS 7:4, OIPBP 8, NDAS 9: block erase 0x00000002,
 *     crypto 0x00000004, overwrite with one pass 0x00000013; NDAS always 0.
 *   - Get Log Page 0x81, 512 bytes: NUMD 127 -> cdw10 0x007f0081.
 *   - Sanitize Status: SPROG 0x4000 = 0.25, 0xc000 = 0.75; SSTAT 0x0109 -> state 1, passes 1,
 *     global erased.
 *   - Namespace Management create: NSZE/NCAP little-endian at 0/8, FLBAS 26, DPS 29, NMIC 30;
 *     Namespace Attachment: the list count at 0, ids from byte 2.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "host/nvme_admin.h"
#include "host/nvme_format.h"
#include "host/nvme_ident.h"
#include "nvme_script.h"

static uint8_t ns_page[NVME_IDENTIFY_LEN];

static void ns_with(uint8_t flbas, uint8_t dps)
{
	memset(ns_page, 0, sizeof ns_page);
	ns_page[26] = flbas;
	ns_page[29] = dps;
}

static void test_format_plan(void **state)
{
	struct nvme_id_ctrl c = {.oacs = NVME_OACS_FORMAT, .fna = 0x04};
	struct nvme_format_plan p;
	char err[256];

	(void)state;
	ns_with(0x01, 0);
	assert_int_equal(nvme_format_plan(&c, ns_page, 1, NVME_SES_USER_DATA, &p, err, sizeof err),
			 0);
	assert_int_equal(p.cdw10, 0x00000201);
	assert_int_equal(p.nsid, 1);
	assert_false(p.all_namespaces);
	assert_int_equal(p.lbaf, 1);

	c.fna = 0x05;
	ns_with(0x52, 0x0b);
	assert_int_equal(nvme_format_plan(&c, ns_page, 1, NVME_SES_CRYPTO, &p, err, sizeof err), 0);
	assert_int_equal(p.lbaf, 34);
	assert_int_equal(p.mset, 1);
	assert_int_equal(p.pi, 3);
	assert_int_equal(p.pil, 1);
	assert_int_equal(p.cdw10, 0x00002572);
	assert_int_equal(p.nsid, 0xffffffffu);
	assert_true(p.all_namespaces);

	struct nvme_admin_cmd cmd;
	char d[512];
	nvme_format_cmd(&cmd, &p);
	assert_int_equal(cmd.opcode, 0x80);
	assert_int_equal(cmd.nsid, 0xffffffffu);
	assert_int_equal(cmd.cdw10, 0x00002572);
	assert_int_equal(cmd.data_len, 0);
	nvme_cmd_describe(&cmd, d, sizeof d);
	assert_non_null(strstr(
	    d, "opcode 0x80 (Format NVM), nsid 0xffffffff, cdw10 0x00002572 (LBAF 34, MSET 1, "
	       "PI 3, PIL 1, SES 2 cryptographic erase)"));

	/* FNA bit 1: only a secure erase reaches every namespace */
	c.fna = 0x02;
	ns_with(0x00, 0);
	assert_int_equal(nvme_format_plan(&c, ns_page, 3, NVME_SES_NONE, &p, err, sizeof err), 0);
	assert_int_equal(p.nsid, 3);
	assert_int_equal(p.cdw10, 0);
	assert_int_equal(nvme_format_plan(&c, ns_page, 3, NVME_SES_USER_DATA, &p, err, sizeof err),
			 0);
	assert_int_equal(p.nsid, 0xffffffffu);

	/* no crypto erase (FNA bit 2), no Format NVM (OACS bit 1): refused, p untouched */
	p.cdw10 = 0xdead;
	assert_int_equal(nvme_format_plan(&c, ns_page, 3, NVME_SES_CRYPTO, &p, err, sizeof err),
			 -EOPNOTSUPP);
	assert_non_null(strstr(err, "FNA bit 2"));
	assert_int_equal(p.cdw10, 0xdead);
	c.oacs = 0;
	assert_int_equal(nvme_format_plan(&c, ns_page, 3, NVME_SES_USER_DATA, &p, err, sizeof err),
			 -EOPNOTSUPP);
	assert_non_null(strstr(err, "OACS bit 1"));
}

static void test_sanitize_cmd(void **state)
{
	struct nvme_admin_cmd cmd;
	char d[512];

	(void)state;
	nvme_sanitize_cmd(&cmd, NVME_SANACT_BLOCK_ERASE);
	assert_int_equal(cmd.opcode, 0x84);
	assert_int_equal(cmd.cdw10, 0x00000002);
	nvme_sanitize_cmd(&cmd, NVME_SANACT_CRYPTO_ERASE);
	assert_int_equal(cmd.cdw10, 0x00000004);
	nvme_sanitize_cmd(&cmd, NVME_SANACT_OVERWRITE);
	assert_int_equal(cmd.cdw10, 0x00000013);
	assert_int_equal(cmd.cdw11, 0);
	nvme_cmd_describe(&cmd, d, sizeof d);
	assert_non_null(strstr(
	    d, "opcode 0x84 (Sanitize), nsid 0x00000000, cdw10 0x00000013 (SANACT 3 overwrite, "
	       "AUSE 0, OWPASS 1, OIPBP 0, NDAS 0)"));

	assert_int_equal(nvme_sanitize_pick(0x7), NVME_SANACT_BLOCK_ERASE);
	assert_int_equal(nvme_sanitize_pick(0x5), NVME_SANACT_CRYPTO_ERASE);
	assert_int_equal(nvme_sanitize_pick(0x4), NVME_SANACT_OVERWRITE);
	assert_int_equal(nvme_sanitize_pick(0), 0);
	const char *w = nvme_sanitize_warning();
	assert_non_null(strstr(w, "whole NVM subsystem"));
	assert_non_null(strstr(w, "cannot be aborted"));
	assert_non_null(strstr(w, "power loss"));
	assert_non_null(strstr(w, "restricted state"));
}

/* A drive whose Sanitize Status log answers from a list of pages, one per read. */
struct seq {
	uint16_t sprog[8], sstat[8];
	int npages, at;
	int sanitize_calls, log_calls, sleeps, other;
	uint32_t sanitize_cdw10, log_cdw10;
	double progress[8];
	int nprogress;
};

static int seq_admin(void *ctx, int fd, struct nvme_admin_cmd *cmd)
{
	struct seq *s = ctx;
	uint8_t *p = (uint8_t *)(uintptr_t)cmd->addr;
	int i;

	(void)fd;
	if (cmd->opcode == 0x84) {
		s->sanitize_calls++;
		s->sanitize_cdw10 = cmd->cdw10;
		return 0;
	}
	if (cmd->opcode != 0x02 || (cmd->cdw10 & 0xff) != 0x81) {
		s->other++;
		return 0x4002;
	}
	s->log_calls++;
	s->log_cdw10 = cmd->cdw10;
	i = s->at < s->npages ? s->at++ : s->npages - 1;
	memset(p, 0, cmd->data_len);
	nvme_put_le(p, s->sprog[i], 2);
	nvme_put_le(p + 2, s->sstat[i], 2);
	return 0;
}

static void seq_sleep(void *ctx, uint64_t ns)
{
	struct seq *s = ctx;

	assert_int_equal(ns, 1000);
	s->sleeps++;
}

static void seq_progress(void *ctx, double f)
{
	struct seq *s = ctx;

	if (s->nprogress < 8)
		s->progress[s->nprogress++] = f;
}

static void test_sanitize_run(void **state)
{
	struct seq s = {.sprog = {0x4000, 0xc000, 0xffff}, .sstat = {2, 2, 0x0101}, .npages = 3};
	struct ioctl_ops ops = {.admin = seq_admin, .ctx = &s};
	struct nvme_wait w = {
	    .ctx = &s, .sleep_ns = seq_sleep, .progress = seq_progress, .poll_ns = 1000};
	char err[256] = "";

	(void)state;
	assert_int_equal(nvme_sanitize_run(&ops, 3, NVME_SANACT_BLOCK_ERASE, &w, err, sizeof err),
			 0);
	assert_int_equal(s.sanitize_calls, 1);
	assert_int_equal(s.sanitize_cdw10, 0x00000002);
	assert_int_equal(s.log_cdw10, 0x007f0081);
	assert_int_equal(s.log_calls, 3);
	assert_int_equal(s.sleeps, 2);
	assert_int_equal(s.nprogress, 3);
	assert_true(s.progress[0] == 0.25);
	assert_true(s.progress[1] == 0.75);
	assert_true(s.progress[2] == 1.0);
	assert_int_equal(s.other, 0);

	/* failed: the restricted state is named */
	struct seq f = {.sprog = {0x1000, 0xffff}, .sstat = {2, 3}, .npages = 2};
	ops.ctx = &f;
	w.ctx = &f;
	assert_int_equal(nvme_sanitize_run(&ops, 3, NVME_SANACT_CRYPTO_ERASE, &w, err, sizeof err),
			 -EIO);
	assert_non_null(strstr(err, "sanitize failure mode"));
	assert_int_equal(f.sanitize_cdw10, 0x00000004);

	/* never done within max_polls */
	struct seq t = {.sprog = {0x1000}, .sstat = {2}, .npages = 1};
	ops.ctx = &t;
	w.ctx = &t;
	w.max_polls = 3;
	assert_int_equal(nvme_sanitize_run(&ops, 3, NVME_SANACT_BLOCK_ERASE, &w, err, sizeof err),
			 -ETIMEDOUT);
	assert_int_equal(t.log_calls, 3);
	assert_int_equal(t.sleeps, 2);

	/* the drive refuses the command: its status, nothing polled */
	struct nvme_script_row rows[] = {{.opcode = 0x84, .cdw10 = 0x2, .status = 0x4002}};
	struct nvme_script sc = {.rows = rows, .n = 1};
	struct ioctl_ops so = nvme_script_ops(&sc);
	assert_int_equal(nvme_sanitize_run(&so, 3, NVME_SANACT_BLOCK_ERASE, NULL, err, sizeof err),
			 -EOPNOTSUPP);
	assert_int_equal(sc.calls, 1);
}

static void test_sanitize_status(void **state)
{
	uint8_t page[NVME_SANITIZE_LOG_LEN] = {0};
	struct nvme_sanitize_status st;

	(void)state;
	nvme_put_le(page, 0xffff, 2);
	nvme_put_le(page + 2, 0x0109, 2);
	nvme_put_le(page + 4, 0x00000002, 4);
	nvme_put_le(page + 12, 120, 4);
	nvme_put_le(page + 16, 0xffffffffu, 4);
	nvme_sanitize_status_decode(page, &st);
	assert_int_equal(st.sprog, 0xffff);
	assert_int_equal(st.state, 1);
	assert_int_equal(st.passes, 1);
	assert_true(st.global_erased);
	assert_int_equal(st.scdw10, 2);
	assert_int_equal(st.est_block_s, 120);
	assert_int_equal(st.est_crypto_s, 0xffffffffu);
}

static void test_namespace_cmds(void **state)
{
	uint8_t page[NVME_IDENTIFY_LEN] = {0}, buf[NVME_IDENTIFY_LEN];
	struct nvme_ns_layout l;
	struct nvme_admin_cmd cmd;
	char d[512];

	(void)state;
	/* QEMU's 256 MiB namespace in 512-byte blocks: 524288 = 0x80000 */
	nvme_put_le(page, 0x80000, 8);
	nvme_put_le(page + 8, 0x80000, 8);
	page[26] = 0x01;
	page[29] = 0x00;
	page[30] = 0x01;
	nvme_ns_layout_decode(page, &l);
	assert_int_equal(l.nsze, 0x80000);
	assert_int_equal(l.flbas, 1);
	assert_int_equal(l.nmic, 1);

	l.nsze = l.ncap = 0x60000;
	nvme_ns_create_cmd(&cmd, &l, buf);
	assert_int_equal(cmd.opcode, 0x0d);
	assert_int_equal(cmd.nsid, 0);
	assert_int_equal(cmd.cdw10, 0);
	assert_int_equal(cmd.data_len, 4096);
	const uint8_t want[32] = {0x00, 0x00, 0x06, 0, 0,    0, 0, 0, 0x00, 0x00, 0x06,
				  0,	0,    0,    0, 0,    0, 0, 0, 0,    0,	  0,
				  0,	0,    0,    0, 0x01, 0, 0, 0, 0x01, 0};
	assert_memory_equal(buf, want, 32);
	nvme_cmd_describe(&cmd, d, sizeof d);
	assert_non_null(strstr(
	    d, "opcode 0x0d (Namespace Management), nsid 0x00000000, cdw10 0x00000000 (SEL 0 "
	       "create)"));

	nvme_ns_delete_cmd(&cmd, 1);
	assert_int_equal(cmd.cdw10, 1);
	assert_int_equal(cmd.nsid, 1);
	assert_int_equal(cmd.data_len, 0);

	/* the controller list of CNS 0x12: two ids, 0x0000 and 0x0041 */
	memset(page, 0, sizeof page);
	nvme_put_le(page, 2, 2);
	nvme_put_le(page + 4, 0x41, 2);
	nvme_ctrl_list_decode(page, &l);
	assert_int_equal(l.nctrl, 2);
	assert_int_equal(l.ctrl[1], 0x41);
	nvme_ns_attach_cmd(&cmd, 2, true, &l, buf);
	assert_int_equal(cmd.opcode, 0x15);
	assert_int_equal(cmd.nsid, 2);
	assert_int_equal(cmd.cdw10, 0);
	const uint8_t list[6] = {2, 0, 0, 0, 0x41, 0};
	assert_memory_equal(buf, list, 6);
	nvme_ns_attach_cmd(&cmd, 2, false, &l, buf);
	assert_int_equal(cmd.cdw10, 1);
	nvme_cmd_describe(&cmd, d, sizeof d);
	assert_non_null(
	    strstr(d, "(Namespace Attachment), nsid 0x00000002, cdw10 0x00000001 (SEL 1 detach)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_format_plan),	   cmocka_unit_test(test_sanitize_cmd),
	    cmocka_unit_test(test_sanitize_run),   cmocka_unit_test(test_sanitize_status),
	    cmocka_unit_test(test_namespace_cmds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
