// SPDX-License-Identifier: MIT
/*
 * test_smart_ata: the Device Statistics part of an ata-smart snapshot (the counters from
 * targets/drive_snapshot.c's mapping, which `smart --json` and the runner share; the raw keys
 * from cli/smart_ata.c), with hand-worked values: Logical Sectors Written 1,000,000 x 4096-byte logical sectors =
 * 4,096,000,000 bytes; Logical Sectors Read 3 x 4096 = 12,288; Percentage Used 0x0107 -> low
 * byte 7 (the bits above are not part of the indicator); attribute keys ("ata:241") stay out
 * of the raw part's device_statistics. With a database entry whose host counter (241 in 512 B)
 * is unverified, the standard counter still wins: 4,096,000,000 bytes, not 2 x 512; with a
 * verified one (241 in 32 MiB), 241 wins: 2 x 33,554,432 = 67,108,864 bytes.
 */
#include <errno.h>
#include <json-c/json.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cli/cli.h"
#include "cli/smart_ata.h"
#include "targets/drive_snapshot.h"

/* cli/main.c's, which this test does not link */
void cli_error(const char *cmd, const char *fmt, ...)
{
	(void)cmd;
	(void)fmt;
}

static void test_devstat_snapshot(void **state)
{
	(void)state;
	struct devcounters dc;
	struct snapshot snap;

	devcounters_init(&dc);
	assert_int_equal(devcounters_set(&dc, "ata:241", 2), 0);
	assert_int_equal(devcounters_set(&dc, "ata:devstat.1.0x18", 1000000), 0);
	assert_int_equal(devcounters_set(&dc, "ata:devstat.1.0x28", 3), 0);
	assert_int_equal(devcounters_set(&dc, "ata:devstat.7.0x08", 0x0107), 0);
	snapshot_init(&snap, "ata-smart");
	assert_int_equal(drive_snapshot_build(&dc, DRIVEDB_ATA, "X", 4096, NULL, &snap), 0);
	assert_true(snapshot_get(&snap, "host_bytes_written")->value == 4096000000.0);
	assert_true(snapshot_get(&snap, "host_bytes_written_resolution")->value == 4096.0);
	assert_string_equal(snapshot_get(&snap, "host_bytes_written")->unit, "bytes");
	assert_true(snapshot_get(&snap, "host_bytes_read")->value == 12288.0);
	assert_true(snapshot_get(&snap, "percentage_used")->value == 7.0);
	assert_string_equal(snapshot_get(&snap, "percentage_used")->unit, "percent");
	snapshot_release(&snap);

	/* an entry's unconfirmed host counter gives way to the standard one; a confirmed one not */
	static const char yaml[] =
		"drives:\n"
		"  - {name: guess, match: '^G', transport: ata, source: s,\n"
		"     host: {counter: 'ata:241', unit: 512B, verified: false}}\n"
		"  - {name: known, match: '^K', transport: ata, source: s,\n"
		"     host: {counter: 'ata:241', unit: 32MiB}}\n";
	struct drivedb *db = NULL;
	struct ydoc_error ye;
	assert_int_equal(drivedb_load_string(yaml, strlen(yaml), "t.yaml", &db, &ye), 0);
	snapshot_init(&snap, "ata-smart");
	assert_int_equal(drive_snapshot_build(&dc, DRIVEDB_ATA, "G1", 4096,
					      drivedb_lookup(db, DRIVEDB_ATA, "G1"), &snap), 0);
	assert_true(snapshot_get(&snap, "host_bytes_written")->value == 4096000000.0);
	snapshot_release(&snap);
	snapshot_init(&snap, "ata-smart");
	assert_int_equal(drive_snapshot_build(&dc, DRIVEDB_ATA, "K1", 4096,
					      drivedb_lookup(db, DRIVEDB_ATA, "K1"), &snap), 0);
	assert_true(snapshot_get(&snap, "host_bytes_written")->value == 67108864.0);
	assert_true(snapshot_get(&snap, "host_bytes_written_resolution")->value == 33554432.0);
	snapshot_release(&snap);
	drivedb_free(db);

	/* the raw part: every devstat key without its prefix, the attributes left out */
	struct json_object *raw = json_object_new_object(), *ds, *v;
	assert_non_null(raw);
	assert_int_equal(smart_ata_devstat_json(raw, &dc, NULL), 0);
	assert_true(json_object_object_get_ex(raw, "device_statistics", &ds));
	assert_int_equal(json_object_object_length(ds), 3);
	assert_true(json_object_object_get_ex(ds, "1.0x18", &v));
	assert_int_equal(json_object_get_int64(v), 1000000);
	assert_true(json_object_object_get_ex(raw, "device_statistics_note", &v));
	assert_null(v);
	json_object_put(raw);

	/* no devstat keys: no counters from them, an empty object and the note */
	devcounters_init(&dc);
	snapshot_init(&snap, "ata-smart");
	assert_int_equal(drive_snapshot_build(&dc, DRIVEDB_ATA, "X", 512, NULL, &snap), 0);
	assert_null(snapshot_get(&snap, "host_bytes_written"));
	snapshot_release(&snap);
	raw = json_object_new_object();
	assert_int_equal(smart_ata_devstat_json(raw, &dc, "no GPL"), 0);
	assert_true(json_object_object_get_ex(raw, "device_statistics", &ds));
	assert_int_equal(json_object_object_length(ds), 0);
	assert_true(json_object_object_get_ex(raw, "device_statistics_note", &v));
	assert_string_equal(json_object_get_string(v), "no GPL");
	json_object_put(raw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_devstat_snapshot)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
