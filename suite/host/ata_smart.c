// SPDX-License-Identifier: MIT
/*
 * ata_smart: libatasmart blob -> SMART attributes with our own units (see ata_smart.h).
 * We parse the blob ourselves rather than through libatasmart so that the raw bytes we decode are
 * exactly the ones on the wire and no library guess (pretty units, quirks) sits in between; the
 * test checks every raw value against skdump's own output.
 */
#include "host/ata_smart.h"
#include "host/ata_identify.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define BLOCK 512u

/* Names as smartmontools' drivedb DEFAULT entry spells them (drivedb.h, reference C). */
static const struct {
	uint8_t id;
	const char *name;
} names[] = {
	{1, "Raw_Read_Error_Rate"},	  {2, "Throughput_Performance"},
	{3, "Spin_Up_Time"},		  {4, "Start_Stop_Count"},
	{5, "Reallocated_Sector_Ct"},	  {7, "Seek_Error_Rate"},
	{8, "Seek_Time_Performance"},	  {9, "Power_On_Hours"},
	{10, "Spin_Retry_Count"},	  {11, "Calibration_Retry_Count"},
	{12, "Power_Cycle_Count"},	  {170, "Available_Reservd_Space"},
	{171, "Program_Fail_Count"},	  {172, "Erase_Fail_Count"},
	{184, "End-to-End_Error"},	  {187, "Reported_Uncorrect"},
	{188, "Command_Timeout"},	  {189, "High_Fly_Writes"},
	{190, "Airflow_Temperature_Cel"}, {191, "G-Sense_Error_Rate"},
	{192, "Power-Off_Retract_Count"}, {193, "Load_Cycle_Count"},
	{194, "Temperature_Celsius"},	  {195, "Hardware_ECC_Recovered"},
	{196, "Reallocated_Event_Count"}, {197, "Current_Pending_Sector"},
	{198, "Offline_Uncorrectable"},	  {199, "UDMA_CRC_Error_Count"},
	{200, "Multi_Zone_Error_Rate"},	  {220, "Disk_Shift"},
	{222, "Loaded_Hours"},		  {223, "Load_Retry_Count"},
	{224, "Load_Friction"},		  {225, "Load_Cycle_Count"},
	{226, "Load-in_Time"},		  {240, "Head_Flying_Hours"},
	{241, "Total_LBAs_Written"},	  {242, "Total_LBAs_Read"},
};

/*
 * Our unit table: (model prefix, id) -> unit and scale. The first match wins, so model rows go
 * before the "" (any model) rows. Only units with a source are listed; the rest stay "raw".
 */
enum kind { K_BYTES, K_HOURS, K_COUNT, K_CELSIUS_LOW };
static const struct unit_row {
	const char *model_prefix;
	uint8_t id;
	const char *name; /* overrides the default name for this model; NULL keeps it */
	enum kind kind;
	uint64_t scale; /* bytes per raw unit for K_BYTES */
} units[] = {
	/* Intel 320 (SSDSA2CW/BW) and X25-M (SSDSA2M*): drivedb Intel 320 / X25-M entries,
	 * "-v 225,raw48,Host_Writes_32MiB", 241 Host_Writes_32MiB, 242 Host_Reads_32MiB. */
	{"INTEL SSDSA2", 225, "Host_Writes_32MiB", K_BYTES, 32ull << 20},
	{"INTEL SSDSA2", 241, "Host_Writes_32MiB", K_BYTES, 32ull << 20},
	{"INTEL SSDSA2", 242, "Host_Reads_32MiB", K_BYTES, 32ull << 20},
	/* drivedb DEFAULT (line 148): 241/242 count 512-byte LBAs; 9 hours; 12 a count;
	 * 194 the current temperature in the low byte (raw48 with tempminmax). */
	{"", 241, NULL, K_BYTES, 512},
	{"", 242, NULL, K_BYTES, 512},
	{"", 9, NULL, K_HOURS, 0},
	{"", 12, NULL, K_COUNT, 0},
	{"", 194, NULL, K_CELSIUS_LOW, 0},
};

static const char *default_name(uint8_t id)
{
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].id == id)
			return names[i].name;
	return "Unknown_Attribute";
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void apply_unit(const char *model, struct ata_smart_attr *a)
{
	a->unit = "raw";
	a->value = (double)a->raw;
	a->verified = false;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		const struct unit_row *u = &units[i];
		if (u->id != a->id || strncmp(model, u->model_prefix, strlen(u->model_prefix)))
			continue;
		if (u->name)
			a->name = u->name;
		a->verified = true;
		switch (u->kind) {
		case K_BYTES:
			a->unit = "bytes";
			a->value = (double)a->raw * (double)u->scale;
			break;
		case K_HOURS:
			a->unit = "hours";
			break;
		case K_COUNT:
			a->unit = "count";
			break;
		case K_CELSIUS_LOW:
			a->unit = "celsius";
			a->value = (double)(a->raw & 0xff);
			break;
		}
		return;
	}
}

int ata_smart_decode_blob(const void *blob, size_t len, struct ata_smart *out, char *err,
			  size_t errlen)
{
	const uint8_t *p = blob, *idfy = NULL, *data = NULL, *thr = NULL;
	struct ata_smart s;
	size_t off = 0;

	memset(&s, 0, sizeof s);
	while (off < len) {
		if (len - off < 8) {
			snprintf(err, errlen, "blob: truncated block header at byte %zu", off);
			return -EINVAL;
		}
		const uint8_t *tag = p + off;
		uint32_t n = be32(p + off + 4);
		if (n > len - off - 8) {
			snprintf(err, errlen, "blob: block '%.4s' at byte %zu claims %u bytes, %zu left",
				 (const char *)tag, off, n, len - off - 8);
			return -EINVAL;
		}
		const uint8_t *payload = p + off + 8;
		bool sized = true;
		if (!memcmp(tag, "IDFY", 4)) {
			idfy = payload, sized = n == BLOCK;
		} else if (!memcmp(tag, "SMDT", 4)) {
			data = payload, sized = n == BLOCK;
		} else if (!memcmp(tag, "SMTH", 4)) {
			thr = payload, sized = n == BLOCK;
		} else if (!memcmp(tag, "SMST", 4)) {
			sized = n == 4;
			if (sized) {
				s.status_valid = true;
				s.status_good = be32(payload) != 0;
			}
		} /* other tags: skipped, as libatasmart does */
		if (!sized) {
			snprintf(err, errlen, "blob: block '%.4s' at byte %zu has %u bytes, expected %u",
				 (const char *)tag, off, n, !memcmp(tag, "SMST", 4) ? 4u : BLOCK);
			return -EINVAL;
		}
		off += 8 + (size_t)n;
	}
	if (!idfy) {
		snprintf(err, errlen, "blob: no IDFY block (IDENTIFY data is mandatory)");
		return -EINVAL;
	}
	ata_identify_string(idfy, 10, 10, s.serial);
	ata_identify_string(idfy, 23, 4, s.firmware);
	ata_identify_string(idfy, 27, 20, s.model);

	/* SMART READ DATA: 30 entries of 12 bytes from byte 2: id, flags (LE16), current,
	 * worst, raw[6], reserved. Thresholds: same layout, id then threshold. id 0 = unused. */
	for (unsigned i = 0; data && i < ATA_SMART_MAX_ATTRS; i++) {
		const uint8_t *e = data + 2 + 12 * i;
		if (!e[0])
			continue;
		struct ata_smart_attr *a = &s.a[s.n++];
		a->id = e[0];
		a->name = default_name(e[0]);
		a->flags = (uint16_t)(e[1] | e[2] << 8);
		a->current = e[3];
		a->worst = e[4];
		for (int b = 5; b >= 0; b--)
			a->raw = a->raw << 8 | e[5 + b];
		for (unsigned j = 0; thr && j < ATA_SMART_MAX_ATTRS; j++) {
			const uint8_t *t = thr + 2 + 12 * j;
			if (t[0] == a->id) {
				a->threshold = t[1];
				a->threshold_valid = true;
				break;
			}
		}
		apply_unit(s.model, a);
	}
	*out = s;
	return 0;
}

const struct ata_smart_attr *ata_smart_find(const struct ata_smart *s, uint8_t id)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->a[i].id == id)
			return &s->a[i];
	return NULL;
}

int ata_smart_counters(const struct ata_smart *s, struct devcounters *dc)
{
	int r = 0;

	for (size_t i = 0; i < s->n && !r; i++)
		r = devcounters_setf(dc, s->a[i].raw, "ata:%u", s->a[i].id);
	return r;
}
