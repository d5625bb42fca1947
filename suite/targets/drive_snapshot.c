/* SPDX-License-Identifier: MIT */
/*
 * drive_snapshot: reads a real drive's counters through the transport's reader rows, settles
 * them (drives count in batches) and maps them to a counter snapshot through the drive database.
 * See drive_snapshot.h for the contract and docs/results-format.md for the keys.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/jsonnum.h"
#include "base/units.h"
#include "config.h"
#include "host/ata_live.h"
#include "host/nvme_admin.h"
#include "host/nvme_ident.h"
#include "host/nvme_logs.h"
#include "targets/drive_snapshot.h"

struct drive_snapshot {
	struct ioctl_ops ops;
	int fd;
	enum drivedb_transport transport;
	uint32_t nsid;
	char model[128];
	uint32_t sector_bytes; /* ATA: the logical sector size, 0 unknown */
	struct drivedb *db_owned; /* NULL when the caller lent one */
	const struct drivedb_entry *entry;
	struct drive_snapshot_opts opts; /* defaults filled in */
	/* the optional rows that failed in the last read: name -> message, for raw */
	struct json_object *reader_errors;
};

/* ---- reader rows ------------------------------------------------------------------------- */

/*
 * NVMe SMART/Health (log 0x02), always for nsid 0xffffffff, the controller as a whole: every
 * controller answers that (per-namespace SMART is optional, Identify Controller LPA bit 0), and
 * write amplification is the controller's anyway. (The namespace's nsid is for the rows that
 * need it, such as the Endurance Group log through the namespace's ENDGID.)
 */
static int read_nvme_smart(const struct ioctl_ops *ops, int fd, uint32_t nsid, struct devcounters *dc,
			   char *err, size_t errlen)
{
	struct nvme_smart m;
	int r;

	(void)nsid;
	r = nvme_smart_read(ops, fd, NVME_NSID_ALL, &m, err, errlen);

	if (r)
		return r;
	r = nvme_smart_counters(&m, dc);
	if (r)
		snprintf(err, errlen, "SMART/Health counters: %s", strerror(-r));
	return r;
}

/*
 * The NVMe logs that hold media (NAND) writes: Endurance Group 0x09 for the namespace's ENDGID,
 * OCP 0xC0, Intel 0xCA (host/nvme_logs.h). Which of them to ask for depends on Identify
 * Controller and Namespace, read again each time: two admin commands of 4 KiB, cheap beside the
 * settle wait, and no state to keep in step with a drive that a firmware update changed. A log
 * the drive lacks is not an error (nvme_extra_logs_read() says why it is absent).
 */
static int read_nvme_extra(const struct ioctl_ops *ops, int fd, uint32_t nsid, struct devcounters *dc,
			   char *err, size_t errlen)
{
	struct nvme_id_ctrl c;
	struct nvme_id_ns ns;
	struct nvme_log_state st[3];
	int r;

	memset(&ns, 0, sizeof ns); /* without a namespace: ENDGID 0, no Endurance Group log */
	r = nvme_id_ctrl_read(ops, fd, &c, err, errlen);
	if (!r && nsid && nsid != NVME_NSID_ALL)
		r = nvme_id_ns_read(ops, fd, nsid, &ns, err, errlen);
	if (!r)
		r = nvme_extra_logs_read(ops, fd, &c, &ns, dc, st, err, errlen);
	return r;
}

/*
 * A SATA drive: IDENTIFY, SMART READ DATA / THRESHOLDS and the Device Statistics pages 0x01 and
 * 0x07 over ATA PASS-THROUGH (host/ata_live.h), whose counters are the attributes' raw values
 * ("ata:ID") and the supported-and-valid Device Statistics qwords ("ata:devstat.P.0xOO"). A
 * drive without Device Statistics is no error: the attributes alone are a snapshot. The struct
 * holds the blob and the decoded attribute table (a few KiB): on the heap, as the runner calls
 * this from its own stack.
 */
static int read_ata(const struct ioctl_ops *ops, int fd, uint32_t nsid, struct devcounters *dc, char *err,
		    size_t errlen)
{
	struct ata_live *l = malloc(sizeof(*l));
	int r;

	(void)nsid;
	if (!l)
		return -ENOMEM;
	r = ata_live_read(ops, fd, l, err, errlen);
	for (size_t i = 0; !r && i < l->dc.n; i++) {
		r = devcounters_set(dc, l->dc.c[i].key, l->dc.c[i].value);
		if (r)
			snprintf(err, errlen, "ATA counters: %s", strerror(-r));
	}
	free(l);
	return r;
}

/*
 * One row per reader: NVMe's SMART/Health log and extra logs (0x09 Endurance Group, OCP 0xC0,
 * Intel 0xCA), ATA's live reader.
 */
static const struct drive_snapshot_reader readers[] = {
	{.transport = DRIVEDB_NVME, .name = "nvme-smart-log", .source = "nvme-smart", .required = true,
	 .read = read_nvme_smart},
	{.transport = DRIVEDB_NVME, .name = "nvme-extra-logs", .source = "nvme-smart", .required = false,
	 .read = read_nvme_extra},
	{.transport = DRIVEDB_ATA, .name = "ata-smart", .source = "ata-smart", .required = true,
	 .read = read_ata},
};

const struct drive_snapshot_reader *drive_snapshot_readers(enum drivedb_transport t, size_t *n)
{
	size_t first = 0, count = 0;

	/* rows of one transport are kept together in the table */
	for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++)
		if (readers[i].transport == t && !count++)
			first = i;
	*n = count;
	return count ? &readers[first] : NULL;
}

/* ---- open / read ------------------------------------------------------------------------- */

/* The database as cmd_drives finds it: the source tree's copy first (a build run in place),
 * then the installed one. */
static const char *default_drivedb(void)
{
	const char *p = SSDLAB_PROFILES_SRCDIR "/drives/drives.yaml";

	return access(p, R_OK) == 0 ? p : SSDLAB_PROFILES_DIR "/drives/drives.yaml";
}

int drive_snapshot_open(const struct drive_snapshot_cfg *cfg, struct drive_snapshot **out, char *err,
			size_t errlen)
{
	struct drive_snapshot *ds;
	const struct drivedb *db = cfg->db;
	struct ydoc_error ye;
	size_t n;
	int r;

	if (!drive_snapshot_readers(cfg->transport, &n)) {
		snprintf(err, errlen, "ssdlab cannot read the counters of a %s drive yet",
			 cfg->transport == DRIVEDB_ATA ? "SATA" : drivedb_transport_name(cfg->transport));
		return -EOPNOTSUPP;
	}
	ds = calloc(1, sizeof(*ds));
	if (!ds)
		return -ENOMEM;
	ds->ops = cfg->ops ? *cfg->ops : ioctl_ops_real;
	ds->fd = cfg->fd;
	ds->transport = cfg->transport;
	ds->nsid = cfg->nsid;
	snprintf(ds->model, sizeof(ds->model), "%s", cfg->model ? cfg->model : "");
	ds->sector_bytes = cfg->sector_bytes;
	ds->opts.settle_ns = cfg->opts.settle_ns ? cfg->opts.settle_ns : DRIVE_SNAPSHOT_SETTLE_NS;
	ds->opts.interval_ns = cfg->opts.interval_ns ? cfg->opts.interval_ns : DRIVE_SNAPSHOT_INTERVAL_NS;
	ds->opts.max_reads = cfg->opts.max_reads ? cfg->opts.max_reads : DRIVE_SNAPSHOT_MAX_READS;
	if (!db) {
		const char *path = cfg->drivedb_path ? cfg->drivedb_path : default_drivedb();

		memset(&ye, 0, sizeof ye);
		r = drivedb_load(path, &ds->db_owned, &ye);
		if (r) {
			char where[YDOC_FILE_MAX + YDOC_MSG_MAX + 32];

			if (ye.msg[0])
				snprintf(err, errlen, "drive database %s", ydoc_error_format(&ye, where, sizeof where));
			else
				snprintf(err, errlen, "drive database %s: %s", path, strerror(-r));
			free(ds);
			return r;
		}
		db = ds->db_owned;
	}
	ds->entry = drivedb_lookup(db, ds->transport, ds->model);
	*out = ds;
	return 0;
}

void drive_snapshot_free(struct drive_snapshot *ds)
{
	if (!ds)
		return;
	drivedb_free(ds->db_owned);
	json_object_put(ds->reader_errors);
	free(ds);
}

const struct drivedb_entry *drive_snapshot_entry(const struct drive_snapshot *ds)
{
	return ds->entry;
}

int drive_snapshot_read(struct drive_snapshot *ds, struct devcounters *dc, char *err, size_t errlen)
{
	size_t n;
	const struct drive_snapshot_reader *row = drive_snapshot_readers(ds->transport, &n);
	struct json_object *errs = NULL;
	char msg[256];
	int r;

	devcounters_init(dc);
	for (size_t i = 0; i < n; i++) {
		msg[0] = 0;
		r = row[i].read(&ds->ops, ds->fd, ds->nsid, dc, msg, sizeof msg);
		if (!r)
			continue;
		if (row[i].required) {
			snprintf(err, errlen, "%s", msg[0] ? msg : strerror(-r));
			json_object_put(errs);
			return r;
		}
		/* an optional log the drive lacks: said in raw, never fatal */
		if (!errs)
			errs = json_object_new_object();
		if (!errs || jsonnum_add(errs, row[i].name, json_object_new_string(msg[0] ? msg : strerror(-r)))) {
			json_object_put(errs);
			return -ENOMEM;
		}
	}
	json_object_put(ds->reader_errors);
	ds->reader_errors = errs;
	return 0;
}

/* ---- the settle loop --------------------------------------------------------------------- */

/*
 * Counters that move on their own, without a write: temperatures and clocks. Comparing them
 * would keep a hot drive from ever "settling", and they say nothing about batched write
 * counting, so the agreement test leaves them out.
 */
static bool moves_alone(const char *key)
{
	static const char *const exact[] = {
		"nvme:smart.temperature_k",	  "nvme:smart.warning_temp_minutes",
		"nvme:smart.critical_temp_minutes", "nvme:smart.thm1_seconds",
		"nvme:smart.thm2_seconds",	  "ata:9",   /* power-on hours */
		"ata:190",			  "ata:194", /* airflow / drive temperature */
		"ata:devstat.1.0x10",		  /* power-on hours */
	};

	for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
		if (!strcmp(key, exact[i]))
			return true;
	return !strncmp(key, "ata:devstat.5.", 14); /* the temperature statistics page */
}

static void without_moving(const struct devcounters *in, struct devcounters *out)
{
	devcounters_init(out);
	for (size_t i = 0; i < in->n; i++)
		if (!moves_alone(in->c[i].key))
			out->c[out->n++] = in->c[i];
}

static bool settled(const struct devcounters *a, const struct devcounters *b)
{
	struct devcounters *fa = malloc(sizeof(*fa)), *fb = malloc(sizeof(*fb));
	bool same = false;

	if (fa && fb) {
		without_moving(a, fa);
		without_moving(b, fb);
		same = devcounters_equal(fa, fb);
	}
	free(fa);
	free(fb);
	return same;
}

static void wait_ns(uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000u), .tv_nsec = (long)(ns % 1000000000u)};

	if (ns == UINT64_MAX)
		return;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int drive_snapshot_take(struct drive_snapshot *ds, bool during_io, struct snapshot *s, char *err,
			size_t errlen)
{
	/* two lists of up to 128 keys each: on the heap, not the runner's stack */
	struct devcounters *prev = malloc(sizeof(*prev)), *cur = malloc(sizeof(*cur));
	size_t nrow;
	const struct drive_snapshot_reader *row = drive_snapshot_readers(ds->transport, &nrow);
	struct snapshot tmp;
	unsigned reads = 0, max_reads = during_io ? 1 : ds->opts.max_reads;
	uint64_t settle_ns = during_io ? UINT64_MAX : ds->opts.settle_ns;
	bool agree = false;
	int e = 0, r;

	snapshot_init(&tmp, row ? row->source : "none");
	if (!prev || !cur) {
		r = -ENOMEM;
		goto out;
	}
	wait_ns(settle_ns);
	for (;;) {
		r = drive_snapshot_read(ds, cur, err, errlen);
		if (r)
			goto out;
		reads++;
		if (reads > 1 && settled(prev, cur)) {
			agree = true;
			break;
		}
		if (reads >= max_reads)
			break;
		*prev = *cur;
		wait_ns(ds->opts.interval_ns);
	}
	/* one read compares nothing: it stands as read, which is what max_reads = 1 asks for
	 * (during I/O the counters are moving: not settled) */
	if (max_reads == 1 && !during_io)
		agree = true;
	r = drive_snapshot_build(cur, ds->transport, ds->model, ds->sector_bytes, ds->entry, &tmp);
	if (r) {
		snprintf(err, errlen, "building the snapshot: %s", strerror(-r));
		goto out;
	}
	jsonnum_build_num(tmp.raw, "reads", reads, &e);
	jsonnum_build_num(tmp.raw, "settle_ns", settle_ns == UINT64_MAX ? 0 : (double)settle_ns, &e);
	jsonnum_build_num(tmp.raw, "interval_ns",
			  ds->opts.interval_ns == UINT64_MAX ? 0 : (double)ds->opts.interval_ns, &e);
	jsonnum_build_num(tmp.raw, "max_reads", max_reads, &e);
	jsonnum_build_add(tmp.raw, "settled", json_object_new_boolean(agree), &e);
	if (during_io)
		jsonnum_build_add(tmp.raw, "during_io", json_object_new_boolean(true), &e);
	if (ds->reader_errors)
		jsonnum_build_add(tmp.raw, "reader_errors", json_object_get(ds->reader_errors), &e);
	if (e) {
		r = e;
		snprintf(err, errlen, "building the snapshot: %s", strerror(-r));
		goto out;
	}
	/* keep what the caller set (label, target_ns); take source, counters and raw */
	snprintf(s->source, sizeof(s->source), "%s", tmp.source);
	json_object_put(s->raw);
	s->raw = tmp.raw;
	tmp.raw = NULL;
	s->n = tmp.n;
	memcpy(s->c, tmp.c, tmp.n * sizeof(tmp.c[0]));
	r = 0;
out:
	snapshot_release(&tmp);
	free(prev);
	free(cur);
	return r;
}

/* ---- the mapping ------------------------------------------------------------------------- */

/* A counter's value, unless absent or a 128-bit value past 64 bits (devcounters.h). */
static bool value_of(const struct devcounters *dc, const char *key, uint64_t *v)
{
	const struct devcounter *c = devcounters_get(dc, key);
	char ov[DEVCOUNTER_KEY_MAX + 16];

	if (!c)
		return false;
	snprintf(ov, sizeof ov, "%s.overflow", key);
	if (devcounters_get(dc, ov))
		return false;
	*v = c->value;
	return true;
}

/* Adds unit's name to the list unless it is there already. */
static void add_unverified(struct json_object *list, enum drivedb_unit u, int *e)
{
	const char *name = drivedb_unit_name(u);

	for (size_t i = 0; i < json_object_array_length(list); i++)
		if (!strcmp(json_object_get_string(json_object_array_get_idx(list, i)), name))
			return;
	jsonnum_build_push(list, json_object_new_string(name), e);
}

/* Where a drive has no entry: the counters that may hold host writes, raw, for the analysis
 * to infer a unit from the bytes ssdlab wrote (ACS-4 Device Statistics page 1 offset 0x18 is
 * Logical Sectors Written; the attributes are the reference's section C table). */
static const char *const host_candidates[] = {
	"ata:241", "ata:246", "ata:225", "ata:devstat.1.0x18", "nvme:smart.data_units_written",
};

/*
 * Host and NAND writes per the entry. Every counter's resolution is one unit of it: a read of
 * n means the drive has counted somewhere in [n, n+1) units (or (n-1, n] where it rounds up,
 * as NVMe data units do), so a delta is known to one unit of each end. A sum of several NAND
 * counters is known to the sum of their units.
 */
static int map_writes(const struct devcounters *dc, enum drivedb_transport transport, const char *model,
		      uint32_t sector_bytes, const struct drivedb_entry *e, struct snapshot *s,
		      struct json_object *raw)
{
	struct json_object *db = NULL, *unverified = NULL;
	uint64_t v, sectors;
	bool have_nand = false;
	double nand = 0, res = 0, part[3] = {0};
	bool have_part[3] = {false};
	int err = 0;
	/* the standard counter (drive_snapshot.h): wins over an entry's unconfirmed guess */
	bool devstat = transport == DRIVEDB_ATA && sector_bytes &&
		       value_of(dc, DRIVE_SNAPSHOT_ATA_HOST_WRITES, &sectors);
	bool entry_host = e && e->host.counter && e->host.counter[0] && devcounters_get(dc, e->host.counter) &&
			  (e->host.verified || !devstat);

	if (entry_host && value_of(dc, e->host.counter, &v)) {
		double u = (double)drivedb_unit_bytes(e->host.unit);
		err = err ? err : snapshot_set(s, "host_bytes_written", "bytes", (double)v * u);
		err = err ? err : snapshot_set(s, "host_bytes_written_resolution", "bytes", u);
		jsonnum_build_add(raw, "host_counter", json_object_new_string(e->host.counter), &err);
	} else if (!entry_host && devstat) {
		/* one logical sector: the counter's resolution */
		err = err ? err : snapshot_set(s, "host_bytes_written", "bytes", (double)sectors * sector_bytes);
		err = err ? err : snapshot_set(s, "host_bytes_written_resolution", "bytes", sector_bytes);
		jsonnum_build_add(raw, "host_counter", json_object_new_string(DRIVE_SNAPSHOT_ATA_HOST_WRITES), &err);
	}
	if (e) {
		unverified = json_object_new_array();
		if (!unverified)
			return -ENOMEM;
		if (entry_host && !e->host.verified)
			add_unverified(unverified, e->host.unit, &err);
		if (e->wa == DRIVEDB_WA_PAGES_RATIO && e->has_host_pages &&
		    value_of(dc, e->host_pages.counter, &v)) {
			err = err ? err : snapshot_set(s, "host_pages_written", "pages", (double)v);
			if (!e->host_pages.verified)
				add_unverified(unverified, e->host_pages.unit, &err);
		}
		for (size_t i = 0; i < e->n_nand; i++) {
			const struct drivedb_counter *c = &e->nand[i];
			double u = (double)drivedb_unit_bytes(c->unit);

			if (!value_of(dc, c->counter, &v))
				continue;
			/* "first": the first counter present and non-zero; an NVMe Media Units
			 * Written of 0 means the drive does not know (never a WA of 0) */
			if (e->combine == DRIVEDB_FIRST && v == 0)
				continue;
			have_nand = true;
			if (!c->verified)
				add_unverified(unverified, c->unit, &err);
			if (e->wa == DRIVEDB_WA_PAGES_RATIO) {
				nand += (double)v; /* pages */
			} else {
				nand += (double)v * u;
				res += u;
				part[c->part] += (double)v * u;
				have_part[c->part] = true;
			}
			if (e->combine == DRIVEDB_FIRST) {
				jsonnum_build_add(raw, "nand_counter", json_object_new_string(c->counter), &err);
				break;
			}
		}
		if (have_nand && e->wa == DRIVEDB_WA_PAGES_RATIO) {
			err = err ? err : snapshot_set(s, "ftl_pages_written", "pages", nand);
		} else if (have_nand) {
			err = err ? err : snapshot_set(s, "nand_bytes_written", "bytes", nand);
			err = err ? err : snapshot_set(s, "nand_bytes_written_resolution", "bytes", res);
			if (have_part[DRIVEDB_PART_SLC])
				err = err ? err : snapshot_set(s, "nand_bytes_written_slc", "bytes", part[DRIVEDB_PART_SLC]);
			if (have_part[DRIVEDB_PART_TLC])
				err = err ? err : snapshot_set(s, "nand_bytes_written_tlc", "bytes", part[DRIVEDB_PART_TLC]);
		}
		db = json_object_new_object();
		if (!db) {
			json_object_put(unverified);
			return -ENOMEM;
		}
		jsonnum_build_add(db, "name", json_object_new_string(e->name), &err);
		jsonnum_build_add(db, "source", json_object_new_string(e->source), &err);
		jsonnum_build_add(db, "unverified", unverified, &err);
		jsonnum_build_add(db, "compresses", json_object_new_boolean(e->compresses), &err);
	} else {
		struct json_object *cand = json_object_new_object();

		if (!cand)
			return -ENOMEM;
		for (size_t i = 0; i < sizeof host_candidates / sizeof host_candidates[0]; i++)
			if (value_of(dc, host_candidates[i], &v))
				jsonnum_build_add(cand, host_candidates[i], json_object_new_uint64(v), &err);
		jsonnum_build_add(raw, "host_write_candidates", cand, &err);
		/* NVMe fixes its host counter's unit in the base specification, so even an
		 * unknown NVMe drive has host bytes */
		if (transport == DRIVEDB_NVME && value_of(dc, "nvme:smart.data_units_written", &v)) {
			err = err ? err : snapshot_set(s, "host_bytes_written", "bytes", (double)v * NVME_DATA_UNIT_BYTES);
			err = err ? err : snapshot_set(s, "host_bytes_written_resolution", "bytes", NVME_DATA_UNIT_BYTES);
		}
	}
	if (db)
		jsonnum_build_add(raw, "drivedb", db, &err);
	else if (!err && json_object_object_add(raw, "drivedb", NULL)) /* no entry: JSON null */
		err = -ENOMEM;
	if (!have_nand) {
		char why[DRIVEDB_REASON_MAX];

		snprintf(why, sizeof why, "no NAND-write counter known for %s", model);
		jsonnum_build_add(raw, "no_nand_reason", json_object_new_string(why), &err);
	}
	return err;
}

/* Reads, temperature, wear, power-on time and throttling, where the source has them. */
static int map_health(const struct devcounters *dc, enum drivedb_transport transport, uint32_t sector_bytes,
		      struct snapshot *s)
{
	uint64_t v, w;
	int err = 0;

	if (value_of(dc, "nvme:smart.data_units_read", &v))
		err = err ? err : snapshot_set(s, "host_bytes_read", "bytes", (double)v * NVME_DATA_UNIT_BYTES);
	else if (transport == DRIVEDB_ATA && sector_bytes && value_of(dc, DRIVE_SNAPSHOT_ATA_HOST_READS, &v))
		/* Device Statistics page 0x01 "Logical Sectors Read", in logical sectors */
		err = err ? err : snapshot_set(s, "host_bytes_read", "bytes", (double)v * sector_bytes);
	/* power-on hours: Device Statistics page 0x01 offset 0x10 (ACS-3, a standard unit), else
	 * attribute 9, which the reference's table and smartmontools' default give in hours */
	if (value_of(dc, "ata:devstat.1.0x10", &v) || value_of(dc, "ata:9", &v))
		err = err ? err : snapshot_set(s, "power_on_ns", "ns", (double)v * 3600e9);
	/* NVMe composite temperature in kelvin (0: not reported); ATA 194's low byte, celsius */
	if (value_of(dc, "nvme:smart.temperature_k", &v) && v)
		err = err ? err : snapshot_set(s, "temperature_c", "celsius", units_kelvin_to_celsius((double)v));
	else if (value_of(dc, "ata:194", &v))
		err = err ? err : snapshot_set(s, "temperature_c", "celsius", (double)(v & 0xff));
	/* ACS-4 Device Statistics page 7 offset 0x08: Percentage Used Endurance Indicator */
	if (value_of(dc, "nvme:smart.percentage_used", &v))
		err = err ? err : snapshot_set(s, "percentage_used", "percent", (double)v);
	else if (value_of(dc, "ata:devstat.7.0x08", &v))
		err = err ? err : snapshot_set(s, "percentage_used", "percent", (double)(v & 0xff));
	if (value_of(dc, "nvme:smart.available_spare", &v))
		err = err ? err : snapshot_set(s, "available_spare", "percent", (double)v);
	if (value_of(dc, "nvme:smart.thm1_transitions", &v) && value_of(dc, "nvme:smart.thm2_transitions", &w))
		err = err ? err : snapshot_set(s, "thermal_transitions", "count", (double)v + (double)w);
	if (value_of(dc, "nvme:smart.warning_temp_minutes", &v))
		err = err ? err : snapshot_set(s, "warning_temp_minutes", "minutes", (double)v);
	return err;
}

/* The SMART/Health fields under the names `ssdlab smart --json` printed before this module
 * (docs/results-format.md; kept: the format only grows). */
static void nvme_legacy_raw(const struct devcounters *dc, struct json_object *raw, int *e)
{
	static const struct {
		const char *key, *name;
		bool wide; /* up to 2^64: a decimal string, a double is exact only to 2^53 */
	} f[] = {
		{"critical_warning", "critical_warning", false},
		{"data_units_read", "data_units_read", true},
		{"data_units_written", "data_units_written", true},
		{"host_read_cmds", "host_read_commands", true},
		{"host_write_cmds", "host_write_commands", true},
		{"spare_threshold", "spare_threshold", false},
		{"warning_temp_minutes", "warning_temp_minutes", false},
		{"critical_temp_minutes", "critical_temp_minutes", false},
		{"thm1_transitions", "thermal_transitions_1", false},
		{"thm2_transitions", "thermal_transitions_2", false},
		{"thm1_seconds", "thermal_seconds_1", false},
		{"thm2_seconds", "thermal_seconds_2", false},
	};
	bool overflow = false;
	char key[DEVCOUNTER_KEY_MAX], num[24];

	if (!devcounters_get(dc, "nvme:smart.data_units_written"))
		return;
	jsonnum_build_num(raw, "log_id", NVME_LOG_SMART, e);
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
		const struct devcounter *c;

		snprintf(key, sizeof key, "nvme:smart.%s", f[i].key);
		c = devcounters_get(dc, key);
		if (!c)
			continue;
		if (f[i].wide) {
			snprintf(num, sizeof num, "%llu", (unsigned long long)c->value);
			jsonnum_build_add(raw, f[i].name, json_object_new_string(num), e);
			snprintf(key, sizeof key, "nvme:smart.%s.overflow", f[i].key);
			overflow |= devcounters_get(dc, key) != NULL;
		} else {
			jsonnum_build_num(raw, f[i].name, (double)c->value, e);
		}
	}
	jsonnum_build_add(raw, "overflow", json_object_new_boolean(overflow), e);
}

int drive_snapshot_build(const struct devcounters *dc, enum drivedb_transport transport,
			 const char *model, uint32_t sector_bytes, const struct drivedb_entry *e,
			 struct snapshot *s)
{
	struct json_object *raw = json_object_new_object(), *counters = json_object_new_object();
	int err = 0;

	if (!raw || !counters) {
		json_object_put(raw);
		json_object_put(counters);
		return -ENOMEM;
	}
	s->n = 0;
	jsonnum_build_add(raw, "transport", json_object_new_string(drivedb_transport_name(transport)), &err);
	jsonnum_build_add(raw, "model", json_object_new_string(model), &err);
	/* every key exactly: JSON integers, not doubles (counters pass 2^53) */
	for (size_t i = 0; i < dc->n; i++)
		jsonnum_build_add(counters, dc->c[i].key, json_object_new_uint64(dc->c[i].value), &err);
	jsonnum_build_add(raw, "counters", counters, &err);
	if (!err)
		err = map_writes(dc, transport, model, sector_bytes, e, s, raw);
	if (!err)
		err = map_health(dc, transport, sector_bytes, s);
	if (!err && transport == DRIVEDB_NVME)
		nvme_legacy_raw(dc, raw, &err);
	if (err) {
		json_object_put(raw);
		s->n = 0;
		return err;
	}
	json_object_put(s->raw);
	s->raw = raw;
	return 0;
}
