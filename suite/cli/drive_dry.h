/* SPDX-License-Identifier: MIT */
/*
 * drive_dry: --dry-run for the commands that write to a target (`io DEV --dry-run`, and `plan
 * PROFILE --target DEV`): which ATA or NVMe commands the command would send to the drive, in
 * order, with their opcodes and fields, sending none. Two groups: the identity read at open
 * (host/drive_ident.h, the manifest's target.drive) and the counter snapshot read at each point
 * the caller names (targets/drive_snapshot.h's reader rows for the drive's transport). Each
 * listing is printed from the same command structs the send paths fill (cli/nvme_report.h,
 * cli/info_ata.h, cli/smart_ata.h). Only sysfs is read.
 */
#ifndef SSDLAB_CLI_DRIVE_DRY_H
#define SSDLAB_CLI_DRIVE_DRY_H

/*
 * Prints, on stdout, the commands sent to the target spec: a virtual SSD, a file or a block
 * device that is neither NVMe nor SATA gets one line saying it is sent none. `points` names
 * when snapshots are taken ("at the start, at the ramp's end and at the end"). Returns 0, or
 * -errno when spec cannot be examined (the message printed on stderr by the caller's name cmd).
 */
int cli_drive_dry(const char *cmd, const char *spec, const char *points);

#endif
