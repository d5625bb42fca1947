// SPDX-License-Identifier: MIT
/*
 * test_purge_chain: the purge method table and the auto chain (targets/purge_chain.h) over a
 * matrix of drives: which method auto takes and why each earlier one was skipped, written out
 * per row from the order (block-erase sanitize, NVMe format with user-data erase, ATA
 * enhanced erase, discard), and the explicit methods (no fall-back: a refusal is an error).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "targets/purge_chain.h"

#define SATA_SANITIZE                                                                              \
	{                                                                                          \
		.sanitize = true, .sanitize_block = true, .sanitize_crypto = true,                 \
		.security = true, .enhanced_erase = true                                           \
	}
#define SATA_SECURITY(enh, frz)                                                                    \
	{                                                                                          \
		.security = true, .enhanced_erase = (enh), .security_frozen = (frz)                \
	}

struct row {
	const char *name;
	struct purge_facts f;
	const char *chosen; /* NULL: none */
	const char *skipped[6];
	const char *why[6]; /* a piece of each skip's reason */
};

static const struct row rows[] = {
    {"sata with block-erase sanitize",
     {.transport = DRIVEDB_ATA,
      .link = "sata",
      .ata_known = true,
      .ata = SATA_SANITIZE,
      .discard = true},
     "ata-sanitize-block",
     {NULL},
     {NULL}},
    {"sata with enhanced security erase only",
     {.transport = DRIVEDB_ATA,
      .link = "sata",
      .ata_known = true,
      .ata = SATA_SECURITY(true, false),
      .discard = true},
     "ata-security-erase",
     {"ata-sanitize-block", "nvme-sanitize", "nvme-format"},
     {"does not support it", "not an NVMe drive", "not an NVMe drive"}},
    {"sata, security frozen",
     {.transport = DRIVEDB_ATA,
      .link = "sata",
      .ata_known = true,
      .ata = SATA_SECURITY(true, true),
      .discard = true},
     "discard",
     {"ata-sanitize-block", "nvme-sanitize", "nvme-format", "ata-security-erase"},
     {"does not support it", "not an NVMe drive", "not an NVMe drive", "suspend and resume"}},
    {"sata, normal security erase only",
     {.transport = DRIVEDB_ATA,
      .link = "sata",
      .ata_known = true,
      .ata = SATA_SECURITY(false, false),
      .discard = true},
     "discard",
     {"ata-sanitize-block", "nvme-sanitize", "nvme-format", "ata-security-erase"},
     {"does not support it", "not an NVMe drive", "not an NVMe drive", "only the normal"}},
    {"sata behind a usb bridge",
     {.transport = DRIVEDB_ATA,
      .link = "usb",
      .ata_known = true,
      .ata = SATA_SANITIZE,
      .discard = true},
     "discard",
     {"ata-sanitize-block", "nvme-sanitize", "nvme-format", "ata-security-erase"},
     {"USB bridge", "not an NVMe drive", "not an NVMe drive", "USB bridge"}},
    {"nvme with format, no sanitize",
     {.transport = DRIVEDB_NVME,
      .link = "nvme",
      .nvme_known = true,
      .nvme_format = true,
      .discard = true},
     "nvme-format",
     {"ata-sanitize-block", "nvme-sanitize"},
     {"not a SATA drive", "SANICAP"}},
    {"nvme with block-erase sanitize",
     {.transport = DRIVEDB_NVME,
      .nvme_known = true,
      .nvme_format = true,
      .nvme_sanitize_block = true},
     "nvme-sanitize",
     {"ata-sanitize-block"},
     {"not a SATA drive"}},
    {"nothing at all",
     {.transport = DRIVEDB_ATA, .link = "sata", .ata_known = false},
     NULL,
     {"ata-sanitize-block", "nvme-sanitize", "nvme-format", "ata-security-erase", "discard"},
     {"IDENTIFY", "not an NVMe drive", "not an NVMe drive", "IDENTIFY", "no discard"}},
};

static void test_auto_matrix(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct row *r = &rows[i];
		struct purge_choice c;
		size_t nskip = 0;
		int ret = purge_chain_choose(&r->f, "auto", &c);

		print_message("%s\n", r->name);
		while (nskip < 6 && r->skipped[nskip])
			nskip++;
		if (r->chosen) {
			assert_int_equal(ret, 0);
			assert_string_equal(c.row->method, r->chosen);
		} else {
			assert_int_equal(ret, -EOPNOTSUPP);
			assert_null(c.row);
		}
		assert_int_equal(c.nskipped, nskip);
		for (size_t k = 0; k < nskip; k++) {
			assert_string_equal(c.skipped[k].method, r->skipped[k]);
			if (!strstr(c.skipped[k].why, r->why[k]))
				fail_msg("%s: skip %zu: '%s' lacks '%s'", r->name, k,
					 c.skipped[k].why, r->why[k]);
		}
	}
}

static void test_explicit_methods(void **state)
{
	(void)state;
	struct purge_facts sata = {.transport = DRIVEDB_ATA,
				   .link = "sata",
				   .ata_known = true,
				   .ata = SATA_SECURITY(false, false),
				   .discard = true};
	struct purge_facts san = {
	    .transport = DRIVEDB_ATA, .link = "sata", .ata_known = true, .ata = SATA_SANITIZE};
	struct purge_choice c;

	/* asked for by name, the normal erase is fine */
	assert_int_equal(purge_chain_choose(&sata, "ata-security-erase", &c), 0);
	assert_string_equal(c.row->method, "ata-security-erase");
	assert_true(c.row->pts_purge && !c.row->discard_after);
	/* no fall-back: a method the drive lacks is an error with its reason */
	assert_int_equal(purge_chain_choose(&sata, "ata-sanitize-block", &c), -EOPNOTSUPP);
	assert_null(c.row);
	assert_non_null(strstr(c.why, "does not support it"));
	/* crypto scramble is never in auto, and a discard follows it */
	assert_int_equal(purge_chain_choose(&san, "ata-sanitize-crypto", &c), 0);
	assert_true(c.row->discard_after && c.row->pts_purge && !c.row->in_auto);
	/* the discard is not a PTS purge */
	assert_false(purge_chain_find("discard")->pts_purge);
	assert_int_equal(purge_chain_choose(&san, "format-c", &c), -EINVAL);
	assert_non_null(strstr(c.why, "unknown purge method 'format-c'"));
}

/* The record's keys, the skip reasons in order (the frozen SATA drive of the matrix). */
static void test_record(void **state)
{
	(void)state;
	struct purge_choice c;
	struct json_object *rec = json_object_new_object(), *sk;

	assert_int_equal(purge_chain_choose(&rows[2].f, NULL, &c), 0);
	assert_int_equal(purge_chain_record(&c, "auto", rec), 0);
	assert_string_equal(json_object_get_string(json_object_object_get(rec, "requested")),
			    "auto");
	assert_string_equal(json_object_get_string(json_object_object_get(rec, "method")),
			    "discard");
	assert_false(json_object_get_boolean(json_object_object_get(rec, "pts_purge")));
	assert_false(json_object_get_boolean(json_object_object_get(rec, "discard_after")));
	sk = json_object_object_get(rec, "skipped");
	assert_int_equal(json_object_array_length(sk), 4);
	assert_string_equal(json_object_get_string(
				json_object_object_get(json_object_array_get_idx(sk, 3), "method")),
			    "ata-security-erase");
	assert_non_null(strstr(
	    json_object_get_string(json_object_object_get(json_object_array_get_idx(sk, 3), "why")),
	    "frozen"));
	json_object_put(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_auto_matrix),
	    cmocka_unit_test(test_explicit_methods),
	    cmocka_unit_test(test_record),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
