/* SPDX-License-Identifier: GPL-2.0 */
/*
 * path_walk() once per path: a jail's plan resolves the same paths over
 * and over (every program's /lib64, ld.so, libc.so.6; every library's
 * directory when staged), each walk an lstat per component.
 */
#ifndef UJAIL_PATH_WALK_MEMO_H
#define UJAIL_PATH_WALK_MEMO_H

#include <stddef.h>

#include "deps/pathset.h"

struct path_walk_entry;

/* Zero-initialised; one sysroot for all its walks. */
struct path_walk_memo {
	struct path_walk_entry *v;
	size_t n, cap;
};

/*
 * path_walk(@sysroot, @path, @real, @links), or what it gave @m before:
 * the same result, the same links added (none when it fails). Returns as
 * path_walk().
 */
int path_walk_memo(struct path_walk_memo *m, const char *sysroot, const char *path, char *real,
		   struct path_set *links);
void path_walk_memo_free(struct path_walk_memo *m);

#endif
