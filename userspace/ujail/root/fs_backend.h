/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which stage backend builds the jail's root (--fs): jailfs, one filtered
 * mount for every staged path (kernel/jailfs), or one bind mount per path.
 * "auto", the default, takes jailfs when the running kernel has it.
 */
#ifndef UJAIL_FS_BACKEND_H
#define UJAIL_FS_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "root/stage.h"

/* True if @word is "jailfs", "bind" or "auto" (--fs's values). */
bool jail_fs_known(const char *word);

/*
 * The backend for --fs @want (NULL: auto; the caller passes $UJAIL_FS
 * when --fs is not given, checked here): jailfs only if the kernel
 * knows the filesystem (fsopen succeeds). Returns 0 with *@ops set, or
 * -1 with @err saying why --fs=jailfs cannot be had.
 */
int jail_fs_choose(const char *want, const struct stage_ops **ops, char *err, size_t errlen);

#endif
