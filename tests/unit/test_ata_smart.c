// SPDX-License-Identifier: MIT
/*
 * test_ata_smart: host/ata_smart's blob decoder.
 *   - A blob built here byte by byte (IDFY strings, one attribute with a known raw48, its
 *     threshold, SMST) decodes to exactly those fields; malformed blobs fail with -EINVAL and
 *     leave the output untouched.
 *   - The real Intel dumps in $SSDLAB_SHARED/fixtures/atasmart-blobs: attribute 225
 *     Host_Writes_32MiB (drivedb's Intel 320 and X25-M entries; reference C) decodes to bytes,
 *     hand-worked below. Skips (77) with the reason where the fixtures are absent.
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

#include "base/fileio.h"
#include "host/ata_smart.h"

static size_t put_block(uint8_t *p, const char *tag, const uint8_t *payload, uint32_t n)
{
	memcpy(p, tag, 4);
	p[4] = (uint8_t)(n >> 24), p[5] = (uint8_t)(n >> 16), p[6] = (uint8_t)(n >> 8), p[7] = (uint8_t)n;
	memcpy(p + 8, payload, n);
	return 8 + n;
}

/* ATA string: two characters per word, first in the high byte. */
static void put_ata_string(uint8_t *id, unsigned word, unsigned nwords, const char *s)
{
	size_t len = strlen(s);
	for (unsigned i = 0; i < 2 * nwords; i++) {
		char c = i < len ? s[i] : ' ';
		id[2 * word + (i ^ 1)] = (uint8_t)c;
	}
}

static size_t build(uint8_t *blob)
{
	uint8_t idfy[512] = {0}, data[512] = {0}, thr[512] = {0}, st[4] = {0, 0, 0, 1};
	size_t n = 0;

	put_ata_string(idfy, 27, 20, "ACME SSD 1");
	put_ata_string(idfy, 10, 10, "SER123");
	put_ata_string(idfy, 23, 4, "FW1");
	/* entry 1 (bytes 14..25): 241, flags 0x0032, current 99, worst 98,
	 * raw 01 02 03 04 05 06 = 0x060504030201 = 6618611909121 */
	const uint8_t e[12] = {241, 0x32, 0x00, 99, 98, 1, 2, 3, 4, 5, 6, 0};
	memcpy(data + 2 + 12, e, sizeof e);
	thr[2 + 12 * 5] = 241, thr[2 + 12 * 5 + 1] = 7; /* thresholds may sit in another slot */
	n += put_block(blob + n, "IDFY", idfy, 512);
	n += put_block(blob + n, "SMST", st, 4);
	n += put_block(blob + n, "SMDT", data, 512);
	n += put_block(blob + n, "SMTH", thr, 512);
	return n;
}

static void test_built_blob(void **state)
{
	(void)state;
	uint8_t blob[2048];
	size_t n = build(blob);
	struct ata_smart s;
	char err[256];

	assert_int_equal(ata_smart_decode_blob(blob, n, &s, err, sizeof err), 0);
	assert_string_equal(s.model, "ACME SSD 1");
	assert_string_equal(s.serial, "SER123");
	assert_string_equal(s.firmware, "FW1");
	assert_true(s.status_valid && s.status_good);
	assert_int_equal(s.n, 1);
	const struct ata_smart_attr *a = ata_smart_find(&s, 241);
	assert_non_null(a);
	assert_int_equal(a->flags, 0x32);
	assert_int_equal(a->current, 99);
	assert_int_equal(a->worst, 98);
	assert_true(a->threshold_valid);
	assert_int_equal(a->threshold, 7);
	assert_int_equal(a->raw, 6618611909121ull);
	/* not an Intel model: drivedb DEFAULT, 241 counts 512-byte sectors */
	assert_string_equal(a->unit, "bytes");
	assert_true(a->value == 6618611909121.0 * 512);
	assert_null(ata_smart_find(&s, 9));
}

static void test_malformed(void **state)
{
	(void)state;
	uint8_t blob[2048];
	size_t n = build(blob);
	struct ata_smart s;
	char err[256];

	memset(&s, 0xab, sizeof s);
	/* truncated in a payload, in a header, a 500-byte IDFY, no IDFY at all */
	assert_int_equal(ata_smart_decode_blob(blob, n - 1, &s, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "'SMTH'"));
	assert_int_equal(ata_smart_decode_blob(blob, 524, &s, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "truncated block header at byte 520"));
	blob[6] = 0x01, blob[7] = 0xf4;
	assert_int_equal(ata_smart_decode_blob(blob, n, &s, err, sizeof err), -EINVAL);
	blob[6] = 0x02, blob[7] = 0x00;
	assert_int_equal(ata_smart_decode_blob(blob + 520, n - 520, &s, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "no IDFY"));
	assert_int_equal(s.n, (size_t)0xabababababababab); /* untouched */
}

static const char *fixtures;

static void intel_case(const char *file, const char *model, uint64_t raw, uint64_t bytes)
{
	char path[4096], err[256], *buf = NULL;
	size_t len = 0;
	struct ata_smart s;

	snprintf(path, sizeof path, "%s/atasmart-blobs/%s", fixtures, file);
	assert_int_equal(fileio_read_file(path, 0, &buf, &len), 0);
	assert_int_equal(ata_smart_decode_blob(buf, len, &s, err, sizeof err), 0);
	free(buf);
	assert_string_equal(s.model, model);
	const struct ata_smart_attr *a = ata_smart_find(&s, 225);
	assert_non_null(a);
	assert_string_equal(a->name, "Host_Writes_32MiB");
	assert_int_equal(a->raw, raw);
	assert_string_equal(a->unit, "bytes");
	assert_true(a->verified);
	assert_true(a->value == (double)bytes);
}

static void test_intel_host_writes(void **state)
{
	(void)state;
	/* Intel 320: raw bytes 34 03 00 00 00 00 (skdump prints 0x340300000000) = 0x334 = 820;
	 * 820 x 32 MiB = 820 x 33554432 = 27514634240 bytes (skdump's guess says 27.514 GB too). */
	intel_case("INTEL_SSDSA2CW120G3--4PC10302", "INTEL SSDSA2CW120G3", 820, 27514634240ull);
	/* X25-M G1: 11 62 00.. = 0x6211 = 25105; 25105 x 33554432 = 838860800000 + 3523215360
	 * = 842384015360 bytes. skdump calls this attribute load-cycle-count-2 and gives no unit. */
	intel_case("INTEL_SSDSA2MH080G1GC--045C8820", "INTEL SSDSA2MH080G1GC", 25105, 842384015360ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_built_blob),
	    cmocka_unit_test(test_malformed),
	};
	const struct CMUnitTest fixture_tests[] = {
	    cmocka_unit_test(test_intel_host_writes),
	};
	static char dir[4096];
	const char *shared = getenv("SSDLAB_SHARED");
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	if (rc)
		return rc;
	if (shared)
		snprintf(dir, sizeof dir, "%s/fixtures", shared);
	FILE *f = NULL;
	if (shared) {
		char p[4200];
		snprintf(p, sizeof p, "%s/atasmart-blobs/INTEL_SSDSA2CW120G3--4PC10302", dir);
		f = fopen(p, "rb");
	}
	if (!f) {
		printf("SKIP: no Intel SMART dumps in $SSDLAB_SHARED/fixtures/atasmart-blobs\n");
		return 77;
	}
	fclose(f);
	fixtures = dir;
	return cmocka_run_group_tests(fixture_tests, NULL, NULL);
}
