/* SPDX-License-Identifier: MIT */
/*
 * test_drivedb: the drive database. profiles/drives/drives.yaml loads and every entry cites a
 * source; one model per family finds its entry; malformed entries give exact file:line:col
 * messages; and the WA arithmetic on counter pairs whose results are worked out by hand in the
 * comments (Micron's page ratio, Intel's 32 MiB units, a compressing SandForce pair, Samsung
 * client's missing NAND counter, the NVMe OCP C0 and Endurance Group logs).
 * Every entry's `examples` (model strings from smartmontools' drivedb.h "tested with"
 * comments) are looked up to that entry and its `not_examples` (a neighbouring family's
 * models) are not; and the models in the real SMART dumps
 * ($SSDLAB_SHARED/fixtures/atasmart-blobs) resolve to the entries a table written from
 * smartmontools' drivedb.h says (skipped, 77, without them). The `match` patterns are the
 * project's own: none is, or holds a sub-pattern of, the smartmontools text they replaced.
 */
#include <errno.h>
#include <math.h>
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
#include "host/drivedb.h"

static struct drivedb *load_real(void)
{
	const char *src = getenv("SSDLAB_SRCDIR");
	char path[4096];
	struct drivedb *db = NULL;
	struct ydoc_error err = {0};
	char buf[1024];
	int ret;

	assert_non_null(src); /* meson sets it for every test */
	snprintf(path, sizeof(path), "%s/profiles/drives/drives.yaml", src);
	ret = drivedb_load(path, &db, &err);
	if (ret < 0)
		fail_msg("%s", ydoc_error_format(&err, buf, sizeof(buf)));
	return db;
}

static void test_every_entry_cites_a_source(void **state)
{
	(void)state;
	struct drivedb *db = load_real();
	bool have_ata_default = false, have_nvme_default = false;

	assert_true(drivedb_count(db) >= 17);
	for (size_t i = 0; i < drivedb_count(db); i++) {
		const struct drivedb_entry *e = drivedb_entry(db, i);
		/* A citation names a document, never a path on the author's machine. */
		assert_true(strlen(e->source) > 20);
		assert_null(strstr(e->source, "/work/"));
		assert_null(strstr(e->source, "../"));
		assert_true(e->line > 0);
		if (e->match[0] == '\0')
			*(e->transport == DRIVEDB_ATA ? &have_ata_default : &have_nvme_default) = true;
	}
	assert_true(have_ata_default);
	assert_true(have_nvme_default);
	assert_null(drivedb_entry(db, drivedb_count(db)));
	drivedb_free(db);
}

static void test_lookup_one_per_family(void **state)
{
	(void)state;
	/* Model strings as the drives report them (smartctl -i / ATA IDENTIFY, NVMe MN). */
	static const struct {
		enum drivedb_transport t;
		const char *model, *entry;
	} rows[] = {
	    {DRIVEDB_ATA, "Crucial_CT500MX200SSD1", "Crucial/Micron client"},
	    {DRIVEDB_ATA, "CT1000MX500SSD1", "Crucial/Micron client"},
	    {DRIVEDB_ATA, "Micron_1100_MTFDDAK512TBN", "Crucial/Micron client"},
	    {DRIVEDB_ATA, "Micron_5200_MTFDDAK960TDC", "Micron 5100/52x0"},
	    {DRIVEDB_ATA, "INTEL SSDSC2CW240A3", "Intel 520/525"},
	    {DRIVEDB_ATA, "INTEL SSDSC2BA400G3", "Intel 730, DC S3500"},
	    {DRIVEDB_ATA, "INTEL SSDSC2KW120H6", "Intel 540"},
	    {DRIVEDB_ATA, "INTEL SSDSA2CW120G3", "Intel 320"},
	    {DRIVEDB_ATA, "SanDisk SDSSDA240G", "SandForce-driven SanDisk"},
	    {DRIVEDB_ATA, "Samsung SSD 860 EVO 500GB", "Samsung client"},
	    {DRIVEDB_ATA, "SAMSUNG MZ7LM480HCHP-00003", "Samsung enterprise PM863"},
	    {DRIVEDB_ATA, "SAMSUNG MZ7LN256HMJP-00000", "Samsung enterprise CM871a"},
	    {DRIVEDB_ATA, "KINGSTON SV300S37A120G", "SandForce-driven"},
	    {DRIVEDB_ATA, "KINGSTON SA400S37240G", "Phison-driven"},
	    {DRIVEDB_ATA, "ADATA SU800", "Silicon Motion-based"},
	    {DRIVEDB_ATA, "WDC  WDS500G2B0A-00SM50", "WD Blue/Red/Green"},
	    {DRIVEDB_ATA, "SanDisk SDSSDH3500G", "Marvell-based SanDisk"},
	    {DRIVEDB_ATA, "SK hynix SC311 SATA 512GB", "SK hynix SATA"},
	    {DRIVEDB_ATA, "Seagate IronWolf ZA500NM10002-2ZG101", "Seagate IronWolf"},
	    {DRIVEDB_ATA, "XA960LE10063", "Seagate Nytro"},
	    {DRIVEDB_ATA, "QEMU HARDDISK", "ATA default"},
	    {DRIVEDB_NVME, "INTEL SSDPE2MX450G7", "Intel NVMe"},
	    {DRIVEDB_NVME, "QEMU NVMe Ctrl", "NVMe (OCP C0, then Endurance Group)"},
	};
	struct drivedb *db = load_real();

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct drivedb_entry *e = drivedb_lookup(db, rows[i].t, rows[i].model);
		if (!e || strncmp(e->name, rows[i].entry, strlen(rows[i].entry)) != 0)
			fail_msg("%s: got '%s', expected '%s...'", rows[i].model,
				 e ? e->name : "(none)", rows[i].entry);
	}
	drivedb_free(db);
}

static void test_malformed(void **state)
{
	(void)state;
	/* Each document starts with two fixed lines, so positions are in the third line on. */
	static const char head[] = "drives:\n  - name: x\n";
	static const struct {
		const char *body, *msg;
	} rows[] = {
	    {"    match: a\n    transport: ata\n    host: {counter: 'ata:241', unit: 512B}\n",
	     "bad.yaml:2:5: missing required key 'source' in a drive entry"},
	    {"    match: a\n    transport: sata\n    host: {counter: 'ata:241', unit: 512B}\n"
	     "    source: a document\n",
	     "bad.yaml:4:16: expected ata or nvme, got 'sata' (did you mean 'ata'?)"},
	    {"    match: a\n    transport: ata\n    host: {counter: 'ata:241', unit: 32MB}\n"
	     "    source: a document\n",
	     "bad.yaml:5:38: expected 512B, 32MiB, 1GiB, 1GB, 1B, 512000B or page, got '32MB' "
	     "(did you mean '32MiB'?)"},
	    {"    match: a\n    transport: ata\n    host: {counter: 'ata:256', unit: 512B}\n"
	     "    source: a document\n",
	     "bad.yaml:5:21: unknown counter 'ata:256' in host: expected ata:ID (1-255) or an NVMe "
	     "log field such as nvme:smart.data_units_written"},
	    {"    match: '(Crucial'\n    transport: ata\n    host: {counter: 'ata:241', unit: 512B}\n"
	     "    source: a document\n",
	     "bad.yaml:3:12: bad regular expression '(Crucial': "},
	    {"    match: a\n    transport: ata\n    host: {counter: 'ata:241', unit: 512B}\n"
	     "    source: ''\n",
	     "bad.yaml:6:13: empty source in 'x': cite the document the entry comes from"},
	    {"    match: a\n    transport: ata\n    host: {counter: 'ata:241', unit: 512B}\n"
	     "    nand: [{counter: 'ata:248', unit: page}]\n    source: a document\n",
	     "bad.yaml:6:39: a NAND counter in pages needs wa: pages_ratio"},
	    {"    match: a\n    transport: ata\n    host: {counter: 'ata:241', unit: 512B}\n"
	     "    wa: pages_ratio\n    source: a document\n",
	     "bad.yaml:6:9: wa: pages_ratio needs host_pages and nand counters"},
	    {"    match: a\n    transport: ata\n    host: {counter: 'ata:241', unit: 512B}\n"
	     "    sorce: a document\n",
	     "bad.yaml:6:5: unknown key 'sorce' in a drive entry (did you mean 'source'?)"},
	    /* raw_nand rows: a source, a match, a size in range */
	    {"    match: a\n    transport: ata\n    host: {counter: 'ata:241', unit: 512B}\n"
	     "    source: a document\n    raw_nand: [{match: 'a', gib: 512, source: ''}]\n",
	     "bad.yaml:7:47: empty source in a raw_nand row: cite the datasheet or teardown that "
	     "states the drive's NAND"},
	    {"    match: a\n    transport: ata\n    host: {counter: 'ata:241', unit: 512B}\n"
	     "    source: a document\n    raw_nand: [{match: '', gib: 512, source: t}]\n",
	     "bad.yaml:7:24: empty match in a raw_nand row: a raw NAND size belongs to one "
	     "capacity, so the row names its models"},
	    {"    match: a\n    transport: ata\n    host: {counter: 'ata:241', unit: 512B}\n"
	     "    source: a document\n    raw_nand: [{match: a, gib: 512}]\n",
	     "bad.yaml:7:16: missing required key 'source' in raw_nand"},
	    {"    match: a\n    transport: ata\n    host: {counter: 'ata:241', unit: 512B}\n"
	     "    source: a document\n    examples: ['a1', {model: a2}]\n",
	     "bad.yaml:7:22: expected a model string in examples, got a mapping"},
	    {"    match: a\n    transport: ata\n    host: {counter: 'ata:241', unit: 512B}\n"
	     "    source: a document\n    not_examples: ['']\n",
	     "bad.yaml:7:20: empty model string in not_examples"},
	    {"    match: a\n    transport: ata\n    host: {counter: 'ata:241', unit: 512B}\n"
	     "    source: a document\n    examples: a1\n",
	     "bad.yaml:7:15: "},
	};
	char text[1024], buf[1024];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct drivedb *db = NULL;
		struct ydoc_error err = {0};
		int n = snprintf(text, sizeof(text), "%s%s", head, rows[i].body);
		int ret = drivedb_load_string(text, (size_t)n, "bad.yaml", &db, &err);
		assert_int_equal(ret, -EINVAL);
		assert_null(db);
		ydoc_error_format(&err, buf, sizeof(buf));
		/* The regex row's tail is libc's wording, the last row's ydoc's: prefixes only. */
		bool prefix_only = i == 4 || i == sizeof(rows) / sizeof(rows[0]) - 1;
		if (strncmp(buf, rows[i].msg, strlen(rows[i].msg)) != 0 ||
		    (!prefix_only && strlen(buf) != strlen(rows[i].msg)))
			fail_msg("row %zu: got\n  %s\nexpected\n  %s", i, buf, rows[i].msg);
	}
}

/* raw_nand rows (the sprandom fill's spare: auto on a drive): the bundled rows as their
 * teardowns state them, per exact model, and the spare they give, worked by hand. */
static void test_raw_nand(void **state)
{
	static const struct {
		const char *model;
		uint64_t bytes; /* 0: no row */
		double spare;	/* 1 - user capacity / raw */
		uint64_t user;
	} rows[] = {
	    /* 480 GB on 512 GiB: 1 - 480e9 / 549755813888 = 0.126885 */
	    {"Crucial_CT480M500SSD1", 512ull << 30, 0.126885, 480000000000ull},
	    /* 200 GB on 264 GiB: 1 - 200e9 / 283467841536 = 0.294452 */
	    {"INTEL SSDSC2BA200G3", 264ull << 30, 0.294452, 200000000000ull},
	    /* 800 GB on 1024 GiB: 1 - 800e9 / 1099511627776 = 0.272404 */
	    {"INTEL SSDSC2BA800G3", 1024ull << 30, 0.272404, 800000000000ull},
	    /* the same families, capacities no cited document counts */
	    {"Crucial_CT240M500SSD4", 0, 0, 0},
	    {"Crucial_CT480M500SSD3", 0, 0, 0},
	    {"INTEL SSDSC2BA400G3", 0, 0, 0},
	};
	struct drivedb *db = load_real();

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct drivedb_entry *e = drivedb_lookup(db, DRIVEDB_ATA, rows[i].model);
		const char *src = NULL;
		uint64_t b = 7;
		int rc;

		assert_non_null(e);
		rc = drivedb_raw_nand_bytes(e, rows[i].model, &b, &src);
		if (!rows[i].bytes) {
			assert_int_equal(rc, -ENOENT);
			assert_int_equal(b, 7);
			continue;
		}
		assert_int_equal(rc, 0);
		assert_int_equal(b, rows[i].bytes);
		assert_non_null(strstr(src, "teardown"));
		assert_true(fabs(1 - (double)rows[i].user / (double)b - rows[i].spare) < 1e-6);
	}
	assert_int_equal(drivedb_raw_nand_bytes(NULL, "x", &(uint64_t){0}, &(const char *){NULL}),
			 -ENOENT);
	drivedb_free(db);
}

#define R(c, b, a) {.counter = (c), .before = (b), .after = (a)}

static void wa_of(struct drivedb *db, enum drivedb_transport t, const char *model,
		  const struct drivedb_reading *r, size_t n, struct drivedb_wa *w)
{
	assert_int_equal(drivedb_compute_wa(drivedb_lookup(db, t, model), model, r, n, w), 0);
}

static void test_wa_hand_worked(void **state)
{
	(void)state;
	struct drivedb *db = load_real();
	struct drivedb_wa w;

	/* Micron MX500: 246 +2,000,000 sectors = 1,024,000,000 B; 247 +1000 host pages, 248 +500
	 * FTL pages: WA = (1000 + 500) / 1000 = 1.5; NAND bytes unknown (page size unknown). */
	const struct drivedb_reading micron[] = {R("ata:246", 1000, 2001000),
						 R("ata:247", 5000, 6000), R("ata:248", 300, 800)};
	wa_of(db, DRIVEDB_ATA, "CT1000MX500SSD1", micron, 3, &w);
	assert_true(w.host_known);
	assert_true(w.host_bytes == 1024000000.0);
	assert_false(w.nand_known);
	assert_true(w.wa_known);
	assert_true(w.wa == 1.5);
	assert_false(w.compression);
	assert_false(w.unverified);

	/* Intel 520: 241 +64 x 32 MiB = 2,147,483,648 B; 249 +3 GiB = 3,221,225,472 B:
	 * WA = 32 x 3 / 64 = 1.5. */
	const struct drivedb_reading i520[] = {R("ata:241", 100, 164), R("ata:249", 10, 13)};
	wa_of(db, DRIVEDB_ATA, "INTEL SSDSC2CW240A3", i520, 2, &w);
	assert_true(w.host_bytes == 2147483648.0);
	assert_true(w.nand_bytes == 3221225472.0);
	assert_true(w.wa_known && w.wa == 1.5);

	/* Intel DC S3700: 241 +100 x 32 MiB = 3,355,443,200 B; 243 +130 x 32 MiB =
	 * 4,362,076,160 B: WA = 130 / 100 = 1.3. */
	const struct drivedb_reading s3700[] = {R("ata:241", 7, 107), R("ata:243", 20, 150)};
	wa_of(db, DRIVEDB_ATA, "INTEL SSDSC2BA400G3", s3700, 2, &w);
	assert_true(w.host_bytes == 3355443200.0);
	assert_true(w.nand_bytes == 4362076160.0);
	assert_true(w.wa_known);
	assert_true(fabs(w.wa - 1.3) < 1e-12);

	/* SandForce: 241 +10 GiB host, 233 +7 GiB NAND: WA = 0.7 < 1, flagged as compression. */
	const struct drivedb_reading sf[] = {R("ata:241", 500, 510), R("ata:233", 400, 407)};
	wa_of(db, DRIVEDB_ATA, "KINGSTON SV300S37A120G", sf, 2, &w);
	assert_true(w.host_bytes == 10737418240.0);
	assert_true(w.nand_bytes == 7516192768.0);
	assert_true(w.wa_known);
	assert_true(fabs(w.wa - 0.7) < 1e-12);
	assert_true(w.compression);

	/* Samsung 860 EVO: 241 +2,097,152 sectors = 1 GiB host; no NAND counter: WA null. */
	const struct drivedb_reading sam[] = {R("ata:241", 0, 2097152), R("ata:177", 1, 2)};
	wa_of(db, DRIVEDB_ATA, "Samsung SSD 860 EVO 500GB", sam, 2, &w);
	assert_true(w.host_known && w.host_bytes == 1073741824.0);
	assert_false(w.wa_known);
	assert_string_equal(w.reason, "no NAND-write counter known for Samsung SSD 860 EVO 500GB");

	/* Silicon Motion: 241 +10, TLC 245 +8 and SLC 246 +7 (all 32 MiB): WA = 15 / 10 = 1.5. */
	const struct drivedb_reading smi[] = {R("ata:241", 0, 10), R("ata:245", 0, 8),
					      R("ata:246", 3, 10)};
	wa_of(db, DRIVEDB_ATA, "ADATA SU800", smi, 3, &w);
	assert_true(w.nand_bytes == 15.0 * 33554432.0);
	assert_true(w.wa_known && w.wa == 1.5);

	/* NVMe OCP C0: data units +1000 = 512,000,000 B; physical media +768,000,000 B:
	 * WA = 1.5. The Endurance Group counter, also present, is not used (OCP comes first). */
	const struct drivedb_reading ocp[] = {
	    R("nvme:smart.data_units_written", 5000, 6000),
	    R("nvme:endurance.media_units_written", 3, 4),
	    R("nvme:ocp_c0.physical_media_written", 1000, 768001000)};
	wa_of(db, DRIVEDB_NVME, "ACME DC NVMe", ocp, 3, &w);
	assert_true(w.host_bytes == 512000000.0);
	assert_true(w.nand_bytes == 768000000.0);
	assert_true(w.wa_known && w.wa == 1.5);
	assert_false(w.unverified);

	/* Endurance Group only: +1 media unit (10^9 B, unverified) over +1000 data units
	 * (512,000,000 B): WA = 1e9 / 512e6 = 1.953125, marked unverified. */
	const struct drivedb_reading eg[] = {R("nvme:smart.data_units_written", 0, 1000),
					     R("nvme:endurance.media_units_written", 2, 3)};
	wa_of(db, DRIVEDB_NVME, "ACME NVMe", eg, 2, &w);
	assert_true(w.wa_known && w.wa == 1.953125);
	assert_true(w.unverified);

	/* Media Units Written of 0 means unknown, never WA 0 (QEMU's controller reports none). */
	const struct drivedb_reading qemu[] = {R("nvme:smart.data_units_written", 0, 1000),
					       R("nvme:endurance.media_units_written", 0, 0)};
	wa_of(db, DRIVEDB_NVME, "QEMU NVMe Ctrl", qemu, 2, &w);
	assert_false(w.wa_known);
	assert_string_equal(w.reason, "no NAND-write counter known for QEMU NVMe Ctrl");

	/* No entry at all. */
	assert_int_equal(drivedb_compute_wa(NULL, "Mystery SSD", sam, 2, &w), 0);
	assert_false(w.wa_known);
	assert_string_equal(w.reason, "no NAND-write counter known for Mystery SSD");

	/* No host writes; a counter that went backwards leaves *out untouched. */
	const struct drivedb_reading idle[] = {R("ata:241", 5, 5), R("ata:249", 10, 11)};
	wa_of(db, DRIVEDB_ATA, "INTEL SSDSC2CW240A3", idle, 2, &w);
	assert_false(w.wa_known);
	assert_string_equal(w.reason, "no host writes in the window");
	const struct drivedb_reading back[] = {R("ata:241", 5, 4), R("ata:249", 10, 11)};
	w.wa = 42.0;
	assert_int_equal(drivedb_compute_wa(drivedb_lookup(db, DRIVEDB_ATA, "INTEL SSDSC2CW240A3"),
					    "x", back, 2, &w),
			 -ERANGE);
	assert_true(w.wa == 42.0);
	drivedb_free(db);
}

/*
 * Every entry's examples resolve to it and its not_examples do not, with the lookup every
 * command uses (transport, then the first match in file order), so an example taken by an
 * earlier entry fails as surely as one the regex misses. All failures are listed at once.
 */
static void test_examples_resolve(void **state)
{
	(void)state;
	struct drivedb *db = load_real();
	size_t bad = 0, n_ex = 0, n_not = 0;

	/* Each failure on a line of its own (cmocka cuts long messages), then one fail. */
	for (size_t i = 0; i < drivedb_count(db); i++) {
		const struct drivedb_entry *e = drivedb_entry(db, i);
		/* Only the catch-alls may go without examples: the rest are what this checks. */
		if (e->match[0] != '\0' && e->n_examples == 0) {
			printf("  '%s' lists no examples\n", e->name);
			bad++;
		}
		for (size_t k = 0; k < e->n_examples; k++, n_ex++) {
			const struct drivedb_entry *got =
			    drivedb_lookup(db, e->transport, e->examples[k]);
			if (got != e) {
				printf("  example '%s' of '%s' -> '%s'\n", e->examples[k], e->name,
				       got ? got->name : "(none)");
				bad++;
			}
		}
		for (size_t k = 0; k < e->n_not_examples; k++, n_not++) {
			if (drivedb_lookup(db, e->transport, e->not_examples[k]) == e) {
				printf("  not_example '%s' of '%s' matches it\n",
				       e->not_examples[k], e->name);
				bad++;
			}
		}
	}
	if (bad)
		fail_msg("%zu drive database examples resolve wrongly (listed above)", bad);
	/* A floor, so that a loader that dropped the lists would not pass by checking nothing:
	 * the file lists 300-odd examples and 80-odd not_examples. */
	assert_true(n_ex >= 250);
	assert_true(n_not >= 60);
	drivedb_free(db);
}

/*
 * The `match` patterns are the project's own. These are the patterns drives.yaml held when they
 * were copied verbatim from smartmontools' drivedb.h (git log -p -- profiles/drives/drives.yaml,
 * as of commit 4e21c78), kept here only so that no pattern slides back to that text.
 */
static const char *const smartmontools_patterns[] = {
    /* Crucial/Micron client (MX100-MX500, BX300/500, M500-M600, 1100/1300) */
    "^(Crucial_CT(128|256|512)MX100SSD1|Crucial_CT(200|250|256|500|512|1000|"
    "1024)MX200SSD[1346]|Crucial_CT(275|525|750|1050|2050)MX300SSD[14]|Crucial_CT(120|"
    "240|480|960)M500SSD[134]|Crucial_CT(128|256|512|1024)M550SSD[134]|CT(120|240|"
    "480)BX300SSD1|CT(120|240|480|960|[124]000)BX500SSD1|CT(250|500|"
    "[124]000)MX500SSD[14][A-Z]?|Micron_M500_MTFDDA[KTV](120|240|480|960)MAV|"
    "Micron_M500DC_(EE|MT)FDDA[AK](120|240|480|800)MBB|"
    "(Micron[_ ])?M500IT[_ ]MTFDDA[KTY](032|050|060|064|120|128|240|256)[MS]BD|"
    "(Micron_)?M510[_-]MTFDDA[KTV](128|256)MAZ|MICRON_M510DC_(EE|MT)FDDAK(120|240|480|"
    "800|960)MBP|(Micron_)?M550[_-]MTFDDA[KTV](064|128|256|512|1T0)MAY|"
    "(Micron_M600_)?(EE|MT)FDDA[KTV](128|256|512|1T0)MBF[25Z]?(-.*)?|"
    "(Micron_1100_)?MTFDDA[KV](256|512|1T0|2T0)TBN(-.*)?|Micron 1100 SATA (256G|512G|1T|"
    "2T)B|(Micron_1300_)?(EE|MT)FDDA[KV](256|512|1T0|2T0)TDL(-.*)?)$",
    /* Micron 5100/52x0/5300/5400 */
    "^((Micron_5100_)?(EE|MT)FDDA[KV](240|480|960|1T9|3T8|7T6)T(BY|CB|CC)(_SED)?|"
    "(Micron_5200_)?MTFDDAK(240|480|960|1T9|3T8|7T6)TD(C|D|N)|Micron_5210_MTFDDAK(480|"
    "960|1T9|3T8|7T6)QDE|(Micron_5300(HC)?_)?MTFDDA[KV](240|480|960|1T9|3T8|"
    "7T6)TD[STU]([-_].*)?|(Micron_5400_)?(EE|MT)FDDA[KV](240|480|960|1T9|3T8|"
    "7T6)TG[ABC](_SED)?|VK001920G(WSXK|XAWN))$",
    /* Intel 520/525/53x/330/335/545s, Pro 5400s, DC S3110 */
    "^(INTEL SSDSC2[BC]W(060|120|180|240|480)A3[FL]?|INTEL SSDMCEAC(030|060|090|120|180|"
    "240)B3|INTEL SSD(MCEA|SC2B|SCKJ)[WF](056|080|120|180|240|360|480)(A4H?|A5L?|H6)|"
    "INTEL SSDSC2CT(060|120|180|240)A[34]|INTEL SSDSC[2K]K[WF](128G|256G|512G|010T)8.*|"
    "INTEL SSDSC[2K]KF((120|180|240|256|360|480|512)H|010X)6( .*)?|INTEL SSDSCKKI(128|"
    "256|512)G8)$",
    /* Intel 540 */
    "^INTEL SSDSC[K2]KW(120H|180H|240H|360H|480H|010X)6$",
    /* Intel 730, DC S3500/S3510/S3520/S3610/S3700, Intel/Solidigm S45x0/S46x0 */
    "^(INTEL SSDSC(1N|[12]B)[ABGPX]((080|100|120|150|160|200|240|300|400|480|600|"
    "800)[GH][3467][CERT]?|(012|016)T[46])|VK000(120|240|480)GWSXF|INTEL SSDSC(2|K)(J|"
    "B)B(240G|480G|960G|150G|760G|800G|012T|016T)7.?|(INTEL|SOLIDIGM) SSDSC(2K|KK)(B|"
    "G)(240G|480G|960G|019T|038T|076T)[78Z].?)$",
    /* Intel 320 */
    "^INTEL SSDSA[12][BCN][WT](040|080|120|160|300|600)G3[ADHL]?$",
    /* Intel X18-M/X25-M G1 */
    "^INTEL SSDSA[12]MH(080|160)G1.*$",
    /* Intel X18-M/X25-M/X25-V G2 */
    "^INTEL SSDSA[12]M(040|080|160)G2",
    /* Samsung client (840/850/860/870, 8x0 EVO/PRO/QVO) */
    "^(Samsung SSD 840 (PRO )?Series|Samsung SSD 8[4-7]0 EVO (mSATA |M\\.2 )?((120|250|"
    "500|750)G|[124]T)B|Samsung SSD 8[56]0 PRO ((128|256|512)G|[124]T)B|"
    "Samsung SSD 8[67]0 QVO [1248]TB)$",
    /* Samsung enterprise CM871a/PM871 */
    "^(SAMSUNG MZ[7N]TY(128|192|256)H[CD](GS|HP)-.*|SAMSUNG MZ[7NY]LN(128|256|512|"
    "1T0)H[ACM](GR|HP|HQ|J[HPQ]|LR)-.*|SAMSUNG SSD PM871 .*)$",
    /* Samsung enterprise PM863/PM893 */
    "^(SAMSUNG MZ7LM(120|240|480|960|1T9|3T8)HC(JM|HP|GR|FD)-.*|(SAMSUNG )?MZ7LM(240|480|"
    "960|1T9|3T8)HM(JP|HQ|LP)(-.*|0D3)|SAMSUNG MZ7L3(240|480|960|1T9|3T8|7T6)H(B[LN][AT]|"
    "CHQ|CJR)-.*)$",
    /* SandForce-driven SanDisk (SSD Plus SDSSDA, Z400s) */
    "^(SanDisk SDSSDA(120|240|480)G|SanDisk SD8S[BFN]AT128G1(00|12)2)$",
    /* SandForce-driven (Kingston, OCZ, Corsair, ...) */
    "^(KINGSTON SH10[03]S3(90|120|240|480)G|KINGSTON SKC(300S37A|380S3)(60|120|180|240|"
    "480)G|KINGSTON SVP200S3(7A)?(60|90|120|240|480)G|KINGSTON (SV300|SKC100|SE100)S3.*G|"
    "KINGSTON SHFS37A(120|240|480)G|OCZ-(AGILITY3|SOLID3|VERTEX3(\\.20| LT| MI)?)|"
    "Corsair Force ((3 )?SSD|GS|GT))$",
    /* Phison-driven (Kingston A400, KIOXIA EXCERIA SATA, ...) */
    "^(BP4 mSATA SSD|Corsair Force LE(200)? SSD|CUBEX CS500 (128|256|480|960|1024)GB|"
    "DGSR2(128|256|512)GP13T|FOXLINE FLSSD(120|128|240|256|480|512|960|1024)X5SE|"
    "GIGABYTE GP-GSTFS31((120|240|256|480)G|100T)NTD|GOODRAM IRIDIUM PRO|Hoodisk SSD|"
    "IRP?-SSDPR-S25[AC]-(120|240|256|480|512|960|0[12]T)|KINGSTON O(C|M[48S])P0S3(64|128|"
    "256|512)B-[0A]0|KINGSTON RBUSNS(4|8)180S3(32|64|128|256|512)GJ|"
    "KINGSTON SEDC400S37(400|480|800|960|1600|1800)G|KINGSTON SEDC(450R|500[MR]|"
    "600ME?)(480|960|1920|3840|7680)G|KINGSTON SM2280S3(G2)?(120|240|480)G|"
    "KINGSTON SUV300S37A(120|240|480)G|KINGSTON SKC310S3B?7A960G|KINGSTON SKC400S37(128G|"
    "256G|512G|1T)|KINGSTON SV310S3(7A|D7|N7A|B7A)960G|KINGSTON SHSS3B?7A(120|240|480|"
    "960)G|KINGSTON SS200S330G|KINGSTON  ?SA400(M8|S37)(120|240|480|960)G|"
    "KIOXIA-EXCERIA SATA SSD|MSI S270 (120|240|480|960)GB|Patriot (Blast|Blaze|Flare|"
    "Ignite)|Patriot Burst( (120|240|480|960)GB)?|PNY CS(900|1311|2211) ((12|2[45]|48|50|"
    "96)0G|[12]T)B SSD|PNY ELITE PSSD|S11-(128|256|512)G-PHISON-SSD-B27|SSD Smartbuy (60|"
    "64|120|128|240|256|480|512|960|1024|2000)GB|SSD PHISON (128|256)GB PS3110-S10C|"
    "SSDPR-CX400-(128|256|512|1024)|TEAM L3 EVO SSD (120|240|480|960)GB|SSM28(128|256|"
    "512)GPTCB3B-S11[24]61[123]|SVM2S46(128|256|512)GNPI51UF)$",
    /* Silicon Motion-based */
    "^(ADATA_IMSS332-((008|016|032|064|128|256|512)G|001T)[AEMT]P?|ADATA (SP550|"
    "SU(63[05]|650(NS38)?|655|[89]00))|AMD R5SL512G|CORSAIR FORCE LX SSD|"
    "Corsair Force LX SSD|CHN (25SATA01M|mSATAM3) (060|128|256|512)|CIS 2S M305 (16|32|"
    "64|128|256)GB|CT(120|250|500|1000)BX100SSD1|CT(240|480|960)BX200SSD1|DREVO X1 SSD|"
    "Drevo X1 pro (64|128|256)G|DEXP SSD C100 (128|256|512)Gb|EX27(8215|653[69]|"
    "668[35])RUS|HP SSD S700 ((128|256|512)G|1T)B|JAJS[56]00M((12[08]|240|256|480|512|"
    "960)C|1TB)(-1)?|KingDian S100 (32|64)GB|KingDian S(200|280|400) ((60|120|240|480)GB|"
    "1TB)|KingSpec KSD-[PS]A25\\.[1-9]-(016|032|064|128)(MS|SJ)|KINGSTON SKC600(MS)?(256|"
    "512|1024|2048)G|LITEON L[CM]H-(128|256|512)V2[MS](-.*)?|MKNSSDRE((25[06]|500|512)G|"
    "[12]T)B(-LT)?|MKNSSD(S2|TR)(12[08]|2[45]0|480|500)GB(-(3DL|LT))?|N900-(256|512)|"
    "NFN025SA31T-.*|NFORCE (256|512)25 - SSZS13|ONDA S-12 64GB|OWC Envoy Pro|"
    "Patriot P2[01]0 ((128|256|512)GB|[12]TB)|R3SL(120|240|480|960)G|"
    "Ramsta SSD S800 (120|240|480)GB|SED2QII-LP SATA SSD ((64|128|256|512)GB|[12]TB)|"
    "SH00M(120|240|480)GB|T60|TCSUNBOW [MX]3 (60|120|240|480)GB|TEAM( T253(TD|X6)?|"
    "L5Lite3D)((120|240|256|480|512)G|[12]TB?)|TS((16|32|64|128|256|512)G|1T)(SSD|"
    "MS[AM])(230S?|3[67]0[SI]?|420[IK]?)|TS(16|32|64|128|512|256)GMTS4[03]0S?|TS(120|"
    "240)GMTS420S?|TS[1248]GSSD25H-S|TS(128G|256G|512G|1T|2T|4T)SSD230S|TS(120|240|480|"
    "960)GSSD220S|TS((64|128|256|512)G|[12]T)SSD452K|TS((64|128|256|512)G|[12]T)MTS952T|"
    "TS((128|256|512)G|[124]T)SSD470K|TS(16G|32G|64G|128G|256G|512G|1T)MTS800S?|TS(120|"
    "240|480|960)GMTS820S|TS(16|32|64)GMSA630|TS(32|64|128)GPSD330|TS(16|32|64|96|128|"
    "256)GSSD(630|360S)|TS(128G|256G|512G|1T)ESD400K|TS(128G|256G|512G|1T)MTS830S|TSG(16|"
    "32|64|128|256|512)MTS400ISI|UMAX 2242 (128|256|512)GB|ZOZT G3000 (120|240|480)GB)$",
    /* WD Blue/Red/Green SATA */
    "^(WDC WDBNCE(250|500|00[124])0PNC(-.*)?|WDC  ?WDS((120|240|250|400|480|500)G|"
    "[124]00T)(1B|2B|[1235]G|[12]R)0[AB](-.*)?|WD (Green|(Blue|Red) SA5[01]0) (2\\.5|"
    "M\\.2 2280) ((24|25|50|100)0G|[24]T)B|SanDisk (Extreme )?Portable SSD|"
    "SanDisk SD9SN8W[124]T00)$",
    /* Marvell-based SanDisk */
    "^(SanDisk SD5SG2[0-9]*G1052E|SanDisk SD6S[BFP][12]M[0-9]*G(1022I?|1102)?|"
    "SanDisk SD7S[BN][67]S-?(128|256|512|960)G(1122|-1006)?|SanDisk SD8[ST][BN]8U-?((128|"
    "256|512)G|1T00)(1122|-10[01]6)|SanDisk SD9S[BN]8W-?((128|256|512)G|[12]T00)(1122|"
    "-1006|1020)|SanDisk SDSSDA-((120|240|480)G|[12]T00)|SanDisk SDSSDHP[0-9]*G|"
    "SanDisk (SDSSDHII|Ultra II )[0-9]*GB?|SanDisk SDSSDH2(128|256)G|"
    "SanDisk SDSSDH3 ?((250|500|512|1000|1024|2000)G|[124]T00)|SanDisk SDSSDXPS?[0-9]*G|"
    "SanDisk SSD G5 BICS4|SanDisk SSD PLUS (120|240|480|[12]000) ?GB|SD Ultra 3D [124]TB|"
    "SSD SATAIII 16GB)$",
    /* SK hynix SATA */
    "^(SK ?hynix (SC(210|300|308|311|313|401)|SH920) .*|HFS(128|256|"
    "512)G3[29A]MN[BD]-(2200|3[23]10)A|HFS(128|256|512)G3[29]MND-3(312|510)A|HFS(128|256|"
    "512)G39TND-N210A|HFS(120|250|500)G32TND-N1A2A|HFS(128|256|512)G32TNF-N3A0A|"
    "SHGS31-(250|500|1000)GS-2)$",
    /* Seagate IronWolf (Pro) 125 */
    "^(Seagate IronWolf ZA(250|500|1000|2000|4000)NM10002-.*|Seagate IronWolfPro ZA(240|"
    "480|960|1920|3840)NX10001-.*)$",
    /* Seagate Nytro SATA */
    "^XA(240|480|960|1920|3840)[LM]E10(00|02|04|06|08|10)3$",
    /* Intel NVMe (log 0xCA) */
    "^INTEL SSDPE",
};

/* What is left of `pat` inside its anchoring: '^', '$' and an outer group spanning the whole
 * pattern are dropped, so that '^(A|B)$' and 'A|B' count as the same text. */
static void pattern_body(const char *pat, char *out, size_t cap)
{
	size_t n;
	int depth = 0;

	if (pat[0] == '^')
		pat++;
	n = strlen(pat);
	if (n > 0 && pat[n - 1] == '$')
		n--;
	assert_true(n < cap);
	memcpy(out, pat, n);
	out[n] = '\0';
	if (out[0] != '(')
		return;
	for (size_t i = 0; i < n; i++) {
		depth += out[i] == '(';
		depth -= out[i] == ')';
		if (depth == 0) {
			if (i == n - 1) { /* the first group closes at the end: it wraps it all */
				memmove(out, out + 1, n - 2);
				out[n - 2] = '\0';
			}
			return;
		}
	}
}

/* Counts the places where `piece` of an old pattern shows up in the database's patterns
 * (each entry's match and its endurance rows'), printing each; a piece with no regex syntax
 * in it is a model name, a fact any pattern may spell out, and is not looked for. */
static size_t count_reused(const struct drivedb *db, const char *piece)
{
	size_t hits = 0;

	if (strpbrk(piece, "[](){}*+?.|\\") == NULL)
		return 0;
	for (size_t i = 0; i < drivedb_count(db); i++) {
		const struct drivedb_entry *e = drivedb_entry(db, i);
		const char *pats[1 + DRIVEDB_MAX_ENDURANCE];
		size_t np = 0;

		pats[np++] = e->match;
		for (size_t k = 0; k < e->n_endurance; k++)
			pats[np++] = e->endurance[k].match;
		for (size_t k = 0; k < np; k++) {
			if (strstr(pats[k], piece)) {
				printf("  '%s' holds smartmontools' '%s'\n", e->name, piece);
				hits++;
			}
		}
	}
	return hits;
}

/*
 * No pattern is smartmontools' text: none equals an old verbatim pattern, none holds one's body,
 * and none holds any of its top-level alternatives that has regex syntax in it (a family's own
 * sub-pattern). The families' model strings may recur; the way they are expressed may not.
 */
static void test_patterns_are_ours(void **state)
{
	(void)state;
	struct drivedb *db = load_real();
	static char body[4096], alt[4096];
	size_t bad = 0, n_alts = 0;

	for (size_t p = 0; p < sizeof(smartmontools_patterns) / sizeof(smartmontools_patterns[0]);
	     p++) {
		const char *old = smartmontools_patterns[p];
		for (size_t i = 0; i < drivedb_count(db); i++) {
			if (strcmp(drivedb_entry(db, i)->match, old) == 0) {
				printf("  '%s' is smartmontools' pattern verbatim\n",
				       drivedb_entry(db, i)->name);
				bad++;
			}
		}
		pattern_body(old, body, sizeof(body));
		bad += count_reused(db, body);
		/* Top-level alternatives: split at '|' outside groups and bracket expressions. */
		size_t start = 0, n = strlen(body);
		int depth = 0;
		bool in_bracket = false;
		for (size_t i = 0; i <= n; i++) {
			char c = body[i];
			if (in_bracket) {
				in_bracket = c != ']';
				continue;
			}
			if (c == '[')
				in_bracket = true;
			else if (c == '(')
				depth++;
			else if (c == ')')
				depth--;
			else if ((c == '|' && depth == 0) || c == '\0') {
				memcpy(alt, body + start, i - start);
				alt[i - start] = '\0';
				bad += count_reused(db, alt);
				n_alts++;
				start = i + 1;
			}
		}
	}
	if (bad)
		fail_msg("%zu drive database patterns reuse smartmontools' text (listed above)",
			 bad);
	/* A floor, so that a list emptied by mistake would not pass: 21 patterns, 150-odd parts. */
	assert_true(sizeof(smartmontools_patterns) / sizeof(smartmontools_patterns[0]) >= 21);
	assert_true(n_alts >= 150);
	drivedb_free(db);
}

static const char *fixtures;

/*
 * The real SMART dumps: the model each blob's IDENTIFY holds (skdump prints the same) and the
 * entry it must resolve to. Expected from smartmontools drivedb.h (f1d0da9), where the model
 * matches: Intel 320 Series (line 1622: 225 and 241 Host_Writes_32MiB, no NAND attribute) and
 * Intel X18-M/X25-M G1 (line 1549: 225 Host_Writes_32MiB only); the hard disks' entries there
 * (Fujitsu MHY/MHZ BH, Maxtor DiamondMax, SAMSUNG SpinPoint, Seagate U6/Momentus, Toshiba
 * MK..51GSY, WD Caviar) name no host-write counter, and MCCOE64GEMPP and SAMSUNG
 * MMCQE28G8MUP-0VA match no entry: all of them get our ATA default.
 */
static void test_fixture_models(void **state)
{
	(void)state;
	static const struct {
		const char *file, *model, *entry;
	} rows[] = {
	    {"FUJITSU_MHY2120BH--0084000D", "FUJITSU MHY2120BH", "ATA default"},
	    {"FUJITSU_MHY2120BH--0085000B", "FUJITSU MHY2120BH", "ATA default"},
	    {"FUJITSU_MHY2250BH--0085000B", "FUJITSU MHY2250BH", "ATA default"},
	    {"FUJITSU_MHZ2160BH_G1--0084000A", "FUJITSU MHZ2160BH G1", "ATA default"},
	    {"INTEL_SSDSA2CW120G3--4PC10302", "INTEL SSDSA2CW120G3", "Intel 320"},
	    {"INTEL_SSDSA2MH080G1GC--045C8820", "INTEL SSDSA2MH080G1GC", "Intel X18-M/X25-M G1"},
	    {"MCCOE64GEMPP--2.9.09", "MCCOE64GEMPP", "ATA default"},
	    {"Maxtor_96147H8--BAC51KJ0", "Maxtor 96147H8", "ATA default"},
	    {"Maxtor_96147H8--BAC51KJ0--2", "Maxtor 96147H8", "ATA default"},
	    {"SAMSUNG_HD501LJ--CR100-12", "SAMSUNG HD501LJ", "ATA default"},
	    {"SAMSUNG_MMCQE28G8MUP--0VA_VAM08L1Q", "SAMSUNG MMCQE28G8MUP-0VA", "ATA default"},
	    {"SAMSUNG_MP0804H--UE100-14", "SAMSUNG MP0804H", "ATA default"},
	    {"ST320410A--3.39", "ST320410A", "ATA default"},
	    {"ST9100821AS--3.CME", "ST9100821AS", "ATA default"},
	    {"ST9160821AS--3.CLH", "ST9160821AS", "ATA default"},
	    {"TOSHIBA_MK1651GSY--38IGT0G5T", "TOSHIBA MK1651GSY", "ATA default"},
	    {"WDC_WD2500JB--00REA0-20.00K20", "WDC WD2500JB-00REA0", "ATA default"},
	    {"WDC_WD2500JS-75NCB3--10.02E04", "WDC WD2500JS-75NCB3", "ATA default"},
	    {"WDC_WD5000AAKS--00TMA0-12.01C01", "WDC WD5000AAKS-00TMA0", "ATA default"},
	};
	struct drivedb *db = load_real();

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char path[4096], err[256], *buf = NULL;
		size_t len = 0;
		struct ata_smart s;

		snprintf(path, sizeof(path), "%s/atasmart-blobs/%s", fixtures, rows[i].file);
		assert_int_equal(fileio_read_file(path, 0, &buf, &len), 0);
		assert_int_equal(ata_smart_decode_blob(buf, len, &s, err, sizeof(err)), 0);
		free(buf);
		assert_string_equal(s.model, rows[i].model);
		const struct drivedb_entry *e = drivedb_lookup(db, DRIVEDB_ATA, s.model);
		if (!e || strcmp(e->name, rows[i].entry) != 0)
			fail_msg("%s: got '%s', expected '%s'", s.model, e ? e->name : "(none)",
				 rows[i].entry);

		/* The Intel 320's host writes through its entry: 241 raw 0x334 = 820 (skdump prints
		 * 0x340300000000, bytes little-endian) x 32 MiB = 820 x 33554432 = 27514634240
		 * bytes; no NAND counter, so WA is null with the reason. Before the entry existed
		 * the default read 241 as 512-byte sectors: 419840 bytes. */
		if (strcmp(rows[i].model, "INTEL SSDSA2CW120G3") == 0) {
			const struct ata_smart_attr *a = ata_smart_find(&s, 241);
			struct drivedb_wa w;
			assert_non_null(a);
			assert_int_equal(a->raw, 820);
			const struct drivedb_reading r[] = {R("ata:241", 0, a->raw)};
			assert_int_equal(drivedb_compute_wa(e, s.model, r, 1, &w), 0);
			assert_true(w.host_known && w.host_bytes == 27514634240.0);
			assert_false(w.unverified);
			assert_false(w.wa_known);
			assert_string_equal(w.reason,
					    "no NAND-write counter known for INTEL SSDSA2CW120G3");
		}
	}
	drivedb_free(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_entry_cites_a_source),
	    cmocka_unit_test(test_lookup_one_per_family),
	    cmocka_unit_test(test_malformed),
	    cmocka_unit_test(test_raw_nand),
	    cmocka_unit_test(test_wa_hand_worked),
	    cmocka_unit_test(test_examples_resolve),
	    cmocka_unit_test(test_patterns_are_ours),
	};
	const struct CMUnitTest fixture_tests[] = {
	    cmocka_unit_test(test_fixture_models),
	};
	static char dir[4096];
	const char *shared = getenv("SSDLAB_SHARED");
	char probe[4200];
	FILE *f = NULL;
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	if (rc)
		return rc;
	if (shared) {
		snprintf(dir, sizeof(dir), "%s/fixtures", shared);
		snprintf(probe, sizeof(probe), "%s/atasmart-blobs/INTEL_SSDSA2CW120G3--4PC10302",
			 dir);
		f = fopen(probe, "rb");
	}
	if (!f) {
		printf("SKIP: no SMART dumps in $SSDLAB_SHARED/fixtures/atasmart-blobs; "
		       "the fixture models' entries were not checked\n");
		return 77;
	}
	fclose(f);
	fixtures = dir;
	return cmocka_run_group_tests(fixture_tests, NULL, NULL);
}
