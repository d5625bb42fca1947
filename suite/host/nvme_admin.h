// SPDX-License-Identifier: MIT
/*
 * NVMe admin commands sent through the ioctl table (host/ioctl_ops.h). Decodes the SMART/Health log (Get Log Page 0x02).
 * Also what the other NVMe modules (nvme_ident, nvme_logs) share: the printable description of
 * any admin command ssdlab sends (for --dry-run, made from the very struct the send path uses),
 * the status classes, and little-endian counter reading.
 */
#ifndef SSDLAB_HOST_NVME_ADMIN_H
#define SSDLAB_HOST_NVME_ADMIN_H

#include "host/devcounters.h"
#include "host/ioctl_ops.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NVME_ADMIN_GET_LOG_PAGE 0x02
#define NVME_LOG_SMART 0x02
#define NVME_SMART_LOG_LEN 512
/* One data unit is 1000 units of 512 bytes (NVMe base spec; reference section C). */
#define NVME_DATA_UNIT_BYTES 512000ull
/* nsid meaning "the controller as a whole" for the SMART/Health log. */
#define NVME_NSID_ALL 0xffffffffu
#define NVME_ADMIN_IDENTIFY 0x06
#define NVME_ADMIN_GET_FEATURES 0x0a
/* The commands of host/nvme_format (their fields are described here, with the others). */
#define NVME_ADMIN_NS_MGMT 0x0d
#define NVME_ADMIN_NS_ATTACH 0x15
#define NVME_ADMIN_FORMAT_NVM 0x80
#define NVME_ADMIN_SANITIZE 0x84

struct nvme_smart {
	uint8_t critical_warning;
	uint16_t temperature_k;		/* composite temperature as the log holds it */
	double temperature_c;		/* temperature_k - 273.15 */
	uint8_t available_spare, spare_threshold, percentage_used;
	/* The low 64 bits of 128-bit counters; *_overflow set when the high half is non-zero. */
	uint64_t data_units_read, data_units_written, host_read_cmds, host_write_cmds;
	bool data_units_read_overflow, data_units_written_overflow;
	bool host_read_cmds_overflow, host_write_cmds_overflow;
	uint32_t warning_temp_minutes, critical_temp_minutes;
	uint32_t thm_transitions[2]; /* thermal management temperature 1 and 2 transition counts */
	uint32_t thm_seconds[2];     /* total time spent in each */
};

/* Fills cmd with Get Log Page for log id lid, len bytes (a multiple of 4) into buf. */
void nvme_get_log_cmd(struct nvme_admin_cmd *cmd, uint32_t nsid, uint8_t lid, void *buf, uint32_t len);

/* Decodes a 512-byte SMART/Health log page. */
void nvme_smart_decode(const uint8_t page[NVME_SMART_LOG_LEN], struct nvme_smart *out);

/* Reads and decodes the SMART/Health log through ops; -errno (or -EIO for an NVMe status)
 * with a message in err. */
int nvme_smart_read(const struct ioctl_ops *ops, int fd, uint32_t nsid, struct nvme_smart *out, char *err,
		    size_t errlen);

/* Adds the log's counters to dc under "nvme:smart.FIELD" keys (host/devcounters.h), 128-bit
 * overflow as that header says. 0 or -ENOSPC. */
int nvme_smart_counters(const struct nvme_smart *m, struct devcounters *dc);

/* Sends cmd through ops: 0; -errno for a transport failure; -EOPNOTSUPP for Invalid Field /
 * Invalid Log Page (nvme_status_not_supported), -EIO for another NVMe status; "WHAT: reason"
 * in err for the negatives. */
int nvme_admin_send(const struct ioctl_ops *ops, int fd, struct nvme_admin_cmd *cmd, const char *what, char *err,
		    size_t errlen);

/* Prints cmd as one line: opcode with its name, nsid, cdw10..15 each with what its bits mean
 * for that opcode, data_len. Truncates to len. */
void nvme_cmd_describe(const struct nvme_admin_cmd *cmd, char *buf, size_t len);

/* True for a completion status meaning "this drive does not have that": Invalid Field in
 * Command (SCT 0, SC 0x02) or Invalid Log Page (SCT 1, SC 0x09), whatever the DNR/More bits. */
bool nvme_status_not_supported(int status);

/* The n-byte (n <= 8) little-endian integer at p. */
uint64_t nvme_le(const uint8_t *p, int n);

/* Adds the 128-bit little-endian counter at p16 to dc as "PREFIX.FIELD": its value, or
 * UINT64_MAX with "PREFIX.FIELD.overflow" = 1 when the high 64 bits are not zero
 * (host/devcounters.h). 0 or -ENOSPC/-EINVAL. */
int nvme_counter_wide(struct devcounters *dc, const char *prefix, const char *field, const uint8_t *p16);

#endif
