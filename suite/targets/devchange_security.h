/* SPDX-License-Identifier: MIT */
/*
 * devchange_security: the devchange kind `security` (targets/devchange.h): the ATA user password
 * a SECURITY ERASE sets first (host/ata_purge.h). It is journaled before SECURITY SET PASSWORD is
 * sent, because an erase that fails, or a timeout that resets the drive mid-erase, leaves the
 * drive locked with that password; the restore then unlocks it and disables the password.
 *
 * Value: {"password_set": bool, "locked": bool} as read from IDENTIFY word 128 (bits 1 and 2),
 * and in a "to" value also "password": the password sent (ATA_PURGE_PASSWORD unless the caller
 * gave another). Restoring to {"password_set": false} sends SECURITY UNLOCK (when locked) and
 * SECURITY DISABLE PASSWORD with that password; no "password" in the value means
 * ATA_PURGE_PASSWORD, the one ssdlab always sets.
 */
#ifndef SSDLAB_TARGETS_DEVCHANGE_SECURITY_H
#define SSDLAB_TARGETS_DEVCHANGE_SECURITY_H

#include "targets/devchange.h"

/* The kind's row, for devchange_kinds.c's table. */
extern const struct devchange_kind devchange_kind_security;

/* A new value {"password_set": set, "locked": false, "password": password} (NULL: the default
 * password), or NULL when out of memory. */
struct json_object *devchange_security_value(bool set, const char *password);

#endif
