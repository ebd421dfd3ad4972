/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which stage backend builds the jail's root (--fs): jailfs, one filtered
 * mount for every staged path (kernel/jailfs), or one bind mount per path.
 * "auto", the default, takes jailfs when the running kernel has it.
 */
#ifndef UJAIL_FS_BACKEND_H
#define UJAIL_FS_BACKEND_H

#include <stddef.h>

#include "options/options.h"
#include "root/stage.h"

/*
 * The backend @o->fs_kind asks for (--fs, else $UJAIL_FS, parsed by the
 * options): jailfs only if the kernel knows the filesystem (fsopen
 * succeeds). Returns 0 with *@ops set, or -1 with @err saying why not:
 * a bad $UJAIL_FS, or --fs=jailfs that cannot be had.
 */
int jail_fs_choose(const struct jail_opts *o, const struct stage_ops **ops, char *err,
		   size_t errlen);

#endif
