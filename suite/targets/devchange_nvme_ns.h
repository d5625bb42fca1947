// SPDX-License-Identifier: MIT
/*
 * devchange_nvme_ns: NVMe over-provisioning by namespace (issue 13 point 3), the devchange kind
 * `nvme_namespace` (targets/devchange.h): the namespace is deleted and created again at a
 * smaller size, so that the flash it no longer maps is spare, and at the end (or by `ssdlab
 * restore`) deleted and created again with its original layout. Value:
 *   {"nsid": N, "nsze": N, "ncap": N, "flbas": N, "dps": N, "nmic": N, "controllers": [CNTLID...]}
 * nsze/ncap in logical blocks; flbas/dps/nmic as Identify Namespace has them (the LBA format,
 * metadata and protection information, sharing); controllers: those the namespace is attached
 * to (Identify CNS 0x12). An allocated namespace is read with CNS 0x11 (it answers while the
 * namespace is detached too); nsze 0 means no namespace of that id exists (a change that failed
 * between its delete and its create: the restore then only creates).
 *
 * The commands, in order (host/nvme_format.h builds them): Namespace Attachment detach (0x15
 * SEL 1) from its controllers, Namespace Management delete (0x0D SEL 1), create (SEL 0, nsid 0,
 * the layout; the new id comes back in completion dword 0 and must be the old one), attach (SEL
 * 0) to the same controllers, then NVME_IOCTL_RESCAN on the controller's character device so that
 * the kernel sees the new size. Admin commands go to the controller's character device
 * (/dev/nvmeX, from sysfs) because the namespace's block device disappears with the delete; with
 * ctx->sysfs_disk NULL (tests) everything goes through ctx->fd and there is no kernel to rescan.
 */
#ifndef SSDLAB_TARGETS_DEVCHANGE_NVME_NS_H
#define SSDLAB_TARGETS_DEVCHANGE_NVME_NS_H

#include <stdint.h>

#include "targets/devchange.h"

extern const struct devchange_kind devchange_kind_nvme_namespace;

/*
 * The `to` value that shrinks c's namespace to `bytes` (rounded down to whole logical blocks of
 * its current LBA format; nsze = ncap), everything else as it is now: a new object in *to, or
 * -EINVAL (bigger than the namespace, or smaller than one block) / -errno with err.
 */
int devchange_nvme_ns_shrunk(const struct devchange_ctx *c, uint64_t bytes, struct json_object **to,
			     char *err, size_t errlen);

/*
 * Whether c's controller really does namespace management (OACS bit 3 and, where the drive has
 * it, log 0x05 listing Namespace Management and Attachment): 0, or -EOPNOTSUPP with the reason
 * (QEMU 7.2 advertises OACS bit 3 and answers a delete with Invalid Opcode), -errno. Sends only
 * Identify and Get Log Page: `ssdlab namespace` shows it and refuses --set with it before
 * anything that changes the drive is sent.
 */
int devchange_nvme_ns_supported(const struct devchange_ctx *c, char *err, size_t errlen);

#endif
