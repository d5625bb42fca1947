// SPDX-License-Identifier: MIT
/*
 * nvme_logs: the NVMe logs beyond SMART/Health that hold NAND (media) writes, read into the
 * neutral counter list (host/devcounters.h) so that the drive database can take WA from them:
 *   0x09 Endurance Group Information (NVMe base spec; read for the namespace's ENDGID),
 *   0xC0 OCP SMART/Health Information Extended (OCP Datacenter NVMe SSD spec; GUID checked),
 *   0xCA Intel's vendor SMART log (attribute records, PCI vendor 0x8086 only).
 * Layouts: ../shared/reference/ftl_smart_hpa.md section C (NVMe). Each reader says whether the
 * log was read or, when absent, why: a drive that does not have a log is not an error.
 */
#ifndef SSDLAB_HOST_NVME_LOGS_H
#define SSDLAB_HOST_NVME_LOGS_H

#include "host/devcounters.h"
#include "host/ioctl_ops.h"
#include "host/nvme_ident.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NVME_LOG_ENDURANCE 0x09
#define NVME_LOG_OCP_C0 0xc0
#define NVME_LOG_INTEL_CA 0xca
#define NVME_EXTRA_LOG_LEN 512
#define NVME_VID_INTEL 0x8086

/* The OCP log page GUID as it sits at bytes 496..511 (nvme-cli plugins/ocp, scao_guid). */
extern const uint8_t nvme_ocp_c0_guid[16];

/* One extra log's outcome: read (its counters are in the list) or absent with the reason. */
struct nvme_log_state {
	uint8_t lid;
	bool present;
	char reason[256];
};

/* Get Log Page with a Log Specific Identifier (cdw11 bits 31:16): nvme_get_log_cmd plus LSI. */
void nvme_get_log_lsi_cmd(struct nvme_admin_cmd *cmd, uint32_t nsid, uint8_t lid, uint16_t lsi, void *buf,
			  uint32_t len);

/* Pure decoders of a 512-byte page into dc. Endurance: "nvme:endurance.FIELD" (critical_warning,
 * available_spare, spare_threshold, percentage_used, data_units_read, data_units_written,
 * media_units_written, host_read_cmds, host_write_cmds); media_units_written left out when 0
 * (the drive does not know it), *muw_unknown then set. OCP: -ENOENT with the reason when the
 * GUID is wrong, else "nvme:ocp_c0.FIELD" (physical_media_written and physical_media_read in
 * bytes, log_page_version). Intel: "nvme:intel_ca.nand_bytes_written" (key 0xF4) and
 * "host_bytes_written" (0xF5), 48-bit raw in the drive's units (32 MiB, unverified); -ENOENT
 * when neither record is there. Otherwise 0 or -ENOSPC. */
int nvme_endurance_counters(const uint8_t page[NVME_EXTRA_LOG_LEN], struct devcounters *dc, bool *muw_unknown);
int nvme_ocp_c0_counters(const uint8_t page[NVME_EXTRA_LOG_LEN], struct devcounters *dc, char *why, size_t len);
int nvme_intel_ca_counters(const uint8_t page[NVME_EXTRA_LOG_LEN], struct devcounters *dc, char *why, size_t len);

/* Which extra logs to ask this controller/namespace for, as the commands the readers send, in
 * order 0x09, 0xC0, 0xCA; a log not asked for (no endurance groups, ENDGID 0, not Intel) gets no
 * command but a state with its reason. Returns the number of commands (0..3) put in cmds;
 * states[3] always filled. buf: 512 bytes the commands point at. */
int nvme_extra_log_plan(const struct nvme_id_ctrl *c, const struct nvme_id_ns *ns, void *buf,
			struct nvme_admin_cmd cmds[3], struct nvme_log_state states[3]);

/* Reads the logs nvme_extra_log_plan asks for into dc; states[3] say which were read and why
 * the others are absent (Invalid Field / Invalid Log Page: "not supported"; another NVMe status;
 * a wrong OCP GUID). 0, or -errno for a transport failure or a full list, message in err. */
int nvme_extra_logs_read(const struct ioctl_ops *ops, int fd, const struct nvme_id_ctrl *c,
			 const struct nvme_id_ns *ns, struct devcounters *dc, struct nvme_log_state states[3],
			 char *err, size_t errlen);

#endif
