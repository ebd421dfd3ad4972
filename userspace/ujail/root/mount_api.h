/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The new mount API (Linux 5.2, mount_setattr 5.12) and openat2 (5.6),
 * called by number: musl wraps none of them, glibc only some, and
 * <linux/mount.h> clashes with <sys/mount.h> in some libc versions. The
 * constants are the kernel's uapi values (a stable ABI) under our own names.
 */
#ifndef UJAIL_MOUNT_API_H
#define UJAIL_MOUNT_API_H

#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#define UJ_OPEN_TREE_CLONE		0x1
#define UJ_AT_RECURSIVE			0x8000
#define UJ_MOVE_MOUNT_F_EMPTY_PATH	0x04
#define UJ_MOVE_MOUNT_T_EMPTY_PATH	0x40
#define UJ_FSOPEN_CLOEXEC		0x1
#define UJ_FSMOUNT_CLOEXEC		0x1
#define UJ_FSCONFIG_SET_FLAG		0
#define UJ_FSCONFIG_SET_STRING		1
#define UJ_FSCONFIG_SET_BINARY		2
#define UJ_FSCONFIG_CMD_CREATE		6

#define UJ_MOUNT_ATTR_RDONLY		0x1
#define UJ_MOUNT_ATTR_NOSUID		0x2
#define UJ_MOUNT_ATTR_NODEV		0x4
#define UJ_MOUNT_ATTR_NOEXEC		0x8

#define UJ_RESOLVE_NO_MAGICLINKS	0x02
#define UJ_RESOLVE_NO_SYMLINKS		0x04
#define UJ_RESOLVE_BENEATH		0x08

struct uj_mount_attr {
	uint64_t attr_set;
	uint64_t attr_clr;
	uint64_t propagation;
	uint64_t userns_fd;
};

struct uj_open_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};

static inline int uj_open_tree(int dfd, const char *path, unsigned int flags)
{
	return (int)syscall(SYS_open_tree, dfd, path, flags);
}

static inline int uj_move_mount(int from_dfd, const char *from, int to_dfd, const char *to,
				unsigned int flags)
{
	return (int)syscall(SYS_move_mount, from_dfd, from, to_dfd, to, flags);
}

static inline int uj_fsopen(const char *fstype, unsigned int flags)
{
	return (int)syscall(SYS_fsopen, fstype, flags);
}

static inline int uj_fsconfig(int fd, unsigned int cmd, const char *key, const void *value,
			      int aux)
{
	return (int)syscall(SYS_fsconfig, fd, cmd, key, value, aux);
}

static inline int uj_fsmount(int fd, unsigned int flags, unsigned int attrs)
{
	return (int)syscall(SYS_fsmount, fd, flags, attrs);
}

static inline int uj_mount_setattr(int dfd, const char *path, unsigned int flags,
				   struct uj_mount_attr *attr)
{
	return (int)syscall(SYS_mount_setattr, dfd, path, flags, attr, sizeof(*attr));
}

static inline int uj_openat2(int dfd, const char *path, struct uj_open_how *how)
{
	return (int)syscall(SYS_openat2, dfd, path, how, sizeof(*how));
}

static inline int uj_pivot_root(const char *new_root, const char *put_old)
{
	return (int)syscall(SYS_pivot_root, new_root, put_old);
}

#endif
