// SPDX-License-Identifier: MIT
/*
 * nvme_report: the NVMe parts of `ssdlab info` and `ssdlab smart` (cmd_info.c and cmd_smart.c
 * call in here): Identify Controller/Namespace and the VWC/APST features for info, the extra
 * logs 0x09/0xC0/0xCA for smart, each as text and JSON, and the --dry-run listing of every admin
 * command either would send (printed from the same command structs the send path fills).
 */
#ifndef SSDLAB_CLI_NVME_REPORT_H
#define SSDLAB_CLI_NVME_REPORT_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "host/devcounters.h"
#include "host/drive_ident.h"
#include "host/ioctl_ops.h"
#include "host/nvme_ident.h"
#include "host/nvme_logs.h"

/* The extra logs smart reads beside SMART/Health. */
struct nvme_report_logs {
	struct devcounters dc;
	struct nvme_log_state st[3];
};

/* info's text lines of what drive_ident_nvme_fd() read (host/drive_ident.h; its JSON is
 * drive_ident_nvme_json()). */
void nvme_report_ident_text(FILE *f, const struct drive_ident_nvme *id);
/* info --dry-run: the commands info sends to nsid, in order. */
void nvme_report_ident_dry(FILE *f, uint32_t nsid);

/* Reads the extra logs through fd (Identify first, for CTRATT, ENDGID and VID); a log that cannot
 * be read is absent with the reason, never an error. */
void nvme_report_logs_read(const struct ioctl_ops *ops, int fd, uint32_t nsid, struct nvme_report_logs *lg);
void nvme_report_logs_text(FILE *f, const struct nvme_report_logs *lg);
/* Adds "endurance_group", "ocp_c0", "intel_ca" to a snapshot's raw object. 0 or -ENOMEM. */
int nvme_report_logs_json(struct json_object *raw, const struct nvme_report_logs *lg);
/* smart --dry-run: the commands smart sends, in order, each with its condition. */
void nvme_report_smart_dry(FILE *f, uint32_t nsid);

#endif
