/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Staging: putting host paths into the jail's root tree.
 *
 * A backend does the work. The bind backend (stage_bind.c) makes one bind
 * mount per path as it is added on the root, a tmpfs made by rootfs.c. The
 * jailfs backend (stage_jailfs.c) collects the paths and shows them all,
 * with what is on the tmpfs by then, through one jailfs mount made at
 * commit, which becomes the new root. Either way /dev, /proc and /sys are
 * separate mounts on top of it, not staged paths.
 *
 * Life of a stage: stage_begin(), stage_add() for each path, then
 * stage_commit() (everything added is in place) or stage_abort() (nothing
 * pending is done). Mounts a backend already made are not undone by abort:
 * staging runs in the jail's own mount namespace, which ends with the jail.
 */
#ifndef UJAIL_STAGE_H
#define UJAIL_STAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct stage;

struct stage_ops {
	const char *name;
	int (*begin)(struct stage *st);
	/*
	 * Puts host path @src at jail path @dst (both absolute, without "."
	 * or ".." components; @dst not "/"), read-only unless @writable:
	 *  - directories come with their whole subtree, submounts included,
	 *    and read-only applies to the submounts too;
	 *  - a symbolic link as @src's last component is staged as a link
	 *    with the same target text (its target is not staged);
	 *    links in @src's directories are followed, as the host sees them;
	 *  - @dst's directories are created in the jail as real directories,
	 *    and a symbolic link on the way to @dst (planted in a writable
	 *    directory, say) is refused, never followed;
	 *  - adding the same @dst again puts the later one on top; the same
	 *    link again (same target) is not an error.
	 */
	int (*add)(struct stage *st, const char *src, const char *dst, bool writable);
	int (*commit)(struct stage *st);
	void (*abort)(struct stage *st);
};

struct stage {
	const struct stage_ops *ops;
	int root_fd;		/* the jail's root directory (not owned) */
	const char *root_path;	/* where root_fd is mounted, for the kernel */
	int new_root_fd;	/* after commit, if >= 0: the root from now on
				 * (the caller's to close) */
	char *err;		/* where failures are described */
	size_t errlen;
	void *priv;		/* the backend's */
};

extern const struct stage_ops stage_bind_ops;
extern const struct stage_ops stage_jailfs_ops;

/*
 * All return 0, or -1 with st->err naming the path, the step and errno.
 * @root_path names @root_fd's mount point (jailfs sources are paths).
 */
int stage_begin(struct stage *st, const struct stage_ops *ops, int root_fd,
		const char *root_path, char *err, size_t errlen);

static inline int stage_add(struct stage *st, const char *src, const char *dst, bool writable)
{
	return st->ops->add(st, src, dst, writable);
}

static inline int stage_commit(struct stage *st)
{
	return st->ops->commit(st);
}

static inline void stage_abort(struct stage *st)
{
	st->ops->abort(st);
}

/*
 * Helpers shared by the backends and rootfs.c (stage.c). Paths "in the
 * jail" are absolute and looked up beneath the root fd without following
 * any symbolic link (openat2 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS).
 */

/* Formats @fmt into @err, then ": strerror(@errnum)" if @errnum; returns -1. */
__attribute__((format(printf, 4, 5)))
int stage_fail(char *err, size_t errlen, int errnum, const char *fmt, ...);

/* 0 if @path is absolute, without "." or ".." components and fits PATH_MAX. */
int stage_check_path(const char *path);

/* True if @path is @dir or below it. */
bool stage_path_beneath(const char *path, const char *dir);

/* Opens jail @path with @flags (O_PATH, ...): an fd, or -1 with errno. */
int stage_open_beneath(int root_fd, const char *path, int flags);

/*
 * The mount point for jail @path: created if missing (a directory if
 * @dir, else an empty file, with missing parents), checked to be of that
 * kind. Returns an O_PATH fd of it, or -1 with @err set.
 */
int stage_mountpoint(int root_fd, const char *path, bool dir, char *err, size_t errlen);

/* A symbolic link @path -> @target in the jail; an identical one is fine. */
int stage_symlink(int root_fd, const char *target, const char *path, char *err, size_t errlen);

/*
 * Applies MOUNT_ATTR_* @attrs to the whole detached tree @tree_fd, then
 * mounts it on @target_fd. 0, or -1 with errno.
 */
int stage_attach(int tree_fd, int target_fd, uint64_t attrs);

#endif
