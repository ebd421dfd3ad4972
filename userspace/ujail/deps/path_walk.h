/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Resolve a path the way the kernel does, inside an optional sysroot, and
 * note every symbolic link met on the way: a jail needs those links too.
 */
#ifndef UJAIL_PATH_WALK_H
#define UJAIL_PATH_WALK_H

#include <limits.h>
#include <stddef.h>

#include "deps/pathset.h"

/* The kernel's limit on links followed in one lookup (MAXSYMLINKS). */
#define PATH_WALK_MAX_LINKS 40

/*
 * Resolve absolute @path under @sysroot ("" for the host root): absolute
 * link targets restart at @sysroot and ".." stops there, as in a chroot.
 * On success @real (PATH_MAX bytes) is the path without any link, relative
 * to @sysroot, and each link met is added to @links (if not NULL) under
 * the name it has at that point of the walk: its directory already
 * resolved. Returns 0 or a negative errno (-ENOENT, -ENOTDIR, -ELOOP,
 * -ENAMETOOLONG, -ENOMEM, ...).
 */
int path_walk(const char *sysroot, const char *path, char *real, struct path_set *links);

/* @sysroot + @path into @buf (@len bytes); -ENAMETOOLONG if it does not fit. */
int sysroot_join(const char *sysroot, const char *path, char *buf, size_t len);

/*
 * @path with "//" and "." components removed into @buf (PATH_MAX bytes).
 * Returns 0, or -EINVAL when @path holds a ".." (which only a walk can
 * resolve) or is not absolute, -ENAMETOOLONG.
 */
int path_clean(const char *path, char *buf);

#endif
