/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The jailfs stage backend's inside (stage_jailfs.c, stage_jailfs_plan.c).
 *
 * Paths are collected as they are added and turned into one jailfs mount
 * at commit. Bind semantics are kept where jailfs has none: a later path
 * below a staged directory goes on top as a bind mount, unless it is what
 * the directory shows anyway; an earlier one is hidden by the directory,
 * as a bind mount would be; sockets and FIFOs (refused by jailfs: their
 * identity is the host inode) are bind-mounted onto an empty file.
 */
#ifndef UJAIL_STAGE_JAILFS_H
#define UJAIL_STAGE_JAILFS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum jf_fate {
	JF_ENTRY,		/* an entry of the jailfs mount */
	JF_DROP,		/* hidden, or shown by a staged directory already */
	JF_LATE,		/* a bind mount on the jailfs mount, after it */
	JF_PLACEHOLDER,		/* an empty file entry, the object bound on it */
};

struct jf_entry {
	char *src;		/* host path: a staged one, or on the tmpfs root */
	char *dst;		/* path in the jail */
	unsigned int seq;	/* order of adding; 0: on the tmpfs before */
	mode_t mode;		/* S_IFMT of src */
	bool writable;
	bool dir_only;		/* an empty directory: jailfs's "dir" key */
	enum jf_fate fate;
};

struct jf_list {
	struct jf_entry *v;
	size_t n, cap;
};

/* Appends a copy of @src and @dst; 0 or -1 (ENOMEM). */
int jf_push(struct jf_list *l, const char *src, const char *dst, unsigned int seq,
	    mode_t mode, bool writable, bool dir_only);
void jf_list_free(struct jf_list *l);

/*
 * What rootfs.c put on the tmpfs root (@root_fd, mounted at @root_path)
 * before commit: each file or link as a read-only entry named by its path
 * there, each empty directory (a mount point) as a "dir". 0, or -1 with
 * @err set.
 */
int jf_collect_tmpfs(struct jf_list *l, int root_fd, const char *root_path,
		     char *err, size_t errlen);

/*
 * Sorts @l by jail path and gives each entry its fate. -1 with @err set
 * for what neither jailfs nor a bind mount on it can express (a link at a
 * different place inside a staged directory).
 */
int jf_plan(struct jf_list *l, char *err, size_t errlen);

#endif
