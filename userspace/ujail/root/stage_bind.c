/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bind-mount stage backend: each path is one bind mount, made as it is
 * added. The source is opened with O_PATH|O_NOFOLLOW and cloned from that
 * fd (open_tree), so what is mounted is the object that was checked; the
 * clone gets its flags while still detached (mount_setattr, recursive), so
 * a read-only tree is never writable in the jail, not even for a moment;
 * then it is moved onto a mount point opened beneath the jail's root with
 * symbolic links refused (stage_mountpoint).
 *
 * Mount points for paths below a staged host directory are created in that
 * directory, on the host: the price of bind mounts (jailfs has none).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "root/mount_api.h"
#include "root/stage.h"

static int bind_begin(struct stage *st)
{
	(void)st;
	return 0;
}

/*
 * nosuid always; nodev too, except for device nodes and what goes below
 * /dev (-w /dev/ttyUSB0 must stay usable).
 */
static uint64_t bind_attrs(const char *dst, mode_t mode, bool writable)
{
	uint64_t attrs = UJ_MOUNT_ATTR_NOSUID;

	if (!S_ISCHR(mode) && !S_ISBLK(mode) && !stage_path_beneath(dst, "/dev"))
		attrs |= UJ_MOUNT_ATTR_NODEV;
	if (!writable)
		attrs |= UJ_MOUNT_ATTR_RDONLY;
	return attrs;
}

static int bind_symlink(struct stage *st, int src_fd, const char *src, const char *dst)
{
	char target[PATH_MAX];
	ssize_t n = readlinkat(src_fd, "", target, sizeof(target) - 1);

	if (n < 0)
		return stage_fail(st->err, st->errlen, errno, "%s: read the link", src);
	target[n] = '\0';
	return stage_symlink(st->root_fd, target, dst, st->err, st->errlen);
}

static int bind_tree(struct stage *st, int src_fd, const struct stat *sb, const char *src,
		     const char *dst, bool writable)
{
	int tree_fd, target_fd, ret = -1;

	tree_fd = uj_open_tree(src_fd, "", UJ_OPEN_TREE_CLONE | O_CLOEXEC | AT_EMPTY_PATH |
			       UJ_AT_RECURSIVE);
	if (tree_fd < 0)
		return stage_fail(st->err, st->errlen, errno, "%s: clone for a bind mount", src);
	target_fd = stage_mountpoint(st->root_fd, dst, S_ISDIR(sb->st_mode), st->err, st->errlen);
	if (target_fd >= 0) {
		ret = stage_attach(tree_fd, target_fd, bind_attrs(dst, sb->st_mode, writable));
		if (ret < 0)
			stage_fail(st->err, st->errlen, errno, "%s: bind mount %s on it (%s)",
				   dst, src, writable ? "rw" : "ro,nosuid,nodev");
		close(target_fd);
	}
	close(tree_fd);
	return ret;
}

static int bind_add(struct stage *st, const char *src, const char *dst, bool writable)
{
	struct stat sb;
	int src_fd, ret;

	if (stage_check_path(src) < 0)
		return stage_fail(st->err, st->errlen, 0,
				  "%s: not a clean absolute host path (no . or ..)", src);
	src_fd = open(src, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (src_fd < 0)
		return stage_fail(st->err, st->errlen, errno, "%s: open on the host (for %s)",
				  src, dst);
	if (fstat(src_fd, &sb) < 0)
		ret = stage_fail(st->err, st->errlen, errno, "%s: stat on the host", src);
	else if (S_ISLNK(sb.st_mode))
		ret = bind_symlink(st, src_fd, src, dst);
	else
		ret = bind_tree(st, src_fd, &sb, src, dst, writable);
	close(src_fd);
	return ret;
}

/* Every mount is in place as soon as it is added: nothing to do. */
static int bind_commit(struct stage *st)
{
	(void)st;
	return 0;
}

static void bind_abort(struct stage *st)
{
	(void)st;
}

const struct stage_ops stage_bind_ops = {
	.name = "bind",
	.begin = bind_begin,
	.add = bind_add,
	.commit = bind_commit,
	.abort = bind_abort,
};
