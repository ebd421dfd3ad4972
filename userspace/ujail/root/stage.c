/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stage front and the helpers every backend needs: looking up and
 * creating paths inside the jail's root without ever following a symbolic
 * link, so that a link planted in a writable directory cannot send a mount
 * point (or a mount) anywhere else.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "root/mount_api.h"
#include "root/stage.h"

int stage_begin(struct stage *st, const struct stage_ops *ops, int root_fd,
		const char *root_path, char *err, size_t errlen)
{
	st->ops = ops;
	st->root_fd = root_fd;
	st->root_path = root_path;
	st->new_root_fd = -1;
	st->err = err;
	st->errlen = errlen;
	st->priv = NULL;
	return ops->begin(st);
}

int stage_fail(char *err, size_t errlen, int errnum, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err || !errlen)
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	if (errnum && n >= 0 && (size_t)n < errlen)
		snprintf(err + n, errlen - (size_t)n, ": %s", strerror(errnum));
	return -1;
}

int stage_check_path(const char *path)
{
	const char *p = path;

	if (path[0] != '/' || strlen(path) >= PATH_MAX)
		return -1;
	for (;;) {
		size_t len;

		p += strspn(p, "/");
		if (!*p)
			return 0;
		len = strcspn(p, "/");
		if ((len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.'))
			return -1;
		p += len;
	}
}

bool stage_path_beneath(const char *path, const char *dir)
{
	size_t len = strlen(dir);

	while (len > 0 && dir[len - 1] == '/')
		len--;
	return strncmp(path, dir, len) == 0 && (path[len] == '\0' || path[len] == '/');
}

/* One lookup step beneath @dir_fd; symbolic links of any kind fail (ELOOP). */
static int open_step(int dir_fd, const char *name, int flags)
{
	struct uj_open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC),
		.resolve = UJ_RESOLVE_BENEATH | UJ_RESOLVE_NO_SYMLINKS | UJ_RESOLVE_NO_MAGICLINKS,
	};

	return uj_openat2(dir_fd, name, &how);
}

int stage_open_beneath(int root_fd, const char *path, int flags)
{
	const char *rel = path + strspn(path, "/");

	return open_step(root_fd, *rel ? rel : ".", flags);
}

/* Says why looking up @part (a prefix of jail path @path) failed. */
static int lookup_fail(char *err, size_t errlen, int errnum, const char *path,
		       const char *part, size_t part_len)
{
	if (errnum == ELOOP)
		return stage_fail(err, errlen, 0,
				  "%s: %.*s is a symbolic link in the jail: refused, not followed",
				  path, (int)part_len, part);
	if (errnum == ENOTDIR)
		return stage_fail(err, errlen, 0, "%s: %.*s is not a directory in the jail",
				  path, (int)part_len, part);
	return stage_fail(err, errlen, errnum, "%s: look up %.*s in the jail",
			  path, (int)part_len, part);
}

/*
 * The directory made of the first @len bytes of jail @path in one lookup,
 * where it exists (most do: staged before); -1 otherwise. openat2()
 * refuses a symbolic link in any component as a step-by-step walk does.
 */
static int open_existing_dirs(int root_fd, const char *path, size_t len)
{
	char rel[PATH_MAX];
	size_t skip = strspn(path, "/");

	if (skip >= len || len - skip >= sizeof(rel))
		return -1;
	memcpy(rel, path + skip, len - skip);
	rel[len - skip] = '\0';
	return open_step(root_fd, rel, O_PATH | O_DIRECTORY);
}

/*
 * Opens the directory made of the first @len bytes of jail @path,
 * creating missing components one by one: each is opened with symbolic
 * links refused, so the next one is created where it was checked to be.
 */
static int open_dirs(int root_fd, const char *path, size_t len, char *err, size_t errlen)
{
	char name[NAME_MAX + 1];
	size_t at = 0;
	int fd = open_existing_dirs(root_fd, path, len);

	/* Missing or refused: step by step, which creates or says which part. */
	if (fd >= 0)
		return fd;
	fd = open_step(root_fd, ".", O_PATH | O_DIRECTORY);

	if (fd < 0)
		return stage_fail(err, errlen, errno, "%s: open the jail's root", path);
	for (;;) {
		size_t clen;
		int next, errnum;

		at += strspn(path + at, "/");
		if (at >= len)
			return fd;
		clen = strcspn(path + at, "/");
		if (clen > NAME_MAX) {
			close(fd);
			return stage_fail(err, errlen, ENAMETOOLONG, "%s", path);
		}
		memcpy(name, path + at, clen);
		name[clen] = '\0';
		at += clen;
		/* Most exist (staged before): look first, create only what is missing. */
		next = open_step(fd, name, O_PATH | O_DIRECTORY);
		if (next < 0 && errno == ENOENT) {
			if (mkdirat(fd, name, 0755) < 0 && errno != EEXIST) {
				errnum = errno;
				close(fd);
				return stage_fail(err, errlen, errnum,
						  "%s: create directory %.*s in the jail",
						  path, (int)at, path);
			}
			next = open_step(fd, name, O_PATH | O_DIRECTORY);
		}
		errnum = errno;
		close(fd);
		if (next < 0)
			return lookup_fail(err, errlen, errnum, path, path, at);
		fd = next;
	}
}

int stage_mountpoint(int root_fd, const char *path, bool dir, char *err, size_t errlen)
{
	const char *base;
	struct stat sb;
	int dir_fd, fd, errnum;

	if (stage_check_path(path) < 0 || !strcmp(path + strspn(path, "/"), ""))
		return stage_fail(err, errlen, 0,
				  "%s: not a mount point the jail can have"
				  " (absolute, no . or .., not /)", path);
	base = strrchr(path, '/') + 1;
	if (!*base)
		return stage_fail(err, errlen, 0, "%s: ends with /", path);
	dir_fd = open_dirs(root_fd, path, (size_t)(base - path), err, errlen);
	if (dir_fd < 0)
		return -1;
	if (dir)
		fd = mkdirat(dir_fd, base, 0755);
	else
		fd = mknodat(dir_fd, base, S_IFREG | 0644, 0);
	if (fd < 0 && errno != EEXIST) {
		errnum = errno;
		close(dir_fd);
		return stage_fail(err, errlen, errnum, "%s: create the mount point in the jail",
				  path);
	}
	fd = open_step(dir_fd, base, O_PATH);
	errnum = errno;
	close(dir_fd);
	if (fd < 0)
		return lookup_fail(err, errlen, errnum, path, path, strlen(path));
	if (fstat(fd, &sb) < 0) {
		errnum = errno;
		close(fd);
		return stage_fail(err, errlen, errnum, "%s: stat the mount point", path);
	}
	if (!S_ISDIR(sb.st_mode) != !dir) {
		close(fd);
		return stage_fail(err, errlen, 0, "%s: %s in the jail, but the source is %s", path,
				  dir ? "not a directory" : "a directory",
				  dir ? "a directory" : "not");
	}
	return fd;
}

int stage_symlink(int root_fd, const char *target, const char *path, char *err, size_t errlen)
{
	char have[PATH_MAX];
	const char *base;
	ssize_t n;
	int dir_fd, errnum;

	if (stage_check_path(path) < 0 || !strcmp(path + strspn(path, "/"), ""))
		return stage_fail(err, errlen, 0, "%s: not a path the jail can have a link at",
				  path);
	base = strrchr(path, '/') + 1;
	dir_fd = open_dirs(root_fd, path, (size_t)(base - path), err, errlen);
	if (dir_fd < 0)
		return -1;
	if (symlinkat(target, dir_fd, base) == 0) {
		close(dir_fd);
		return 0;
	}
	errnum = errno;
	n = errnum == EEXIST ? readlinkat(dir_fd, base, have, sizeof(have) - 1) : -1;
	close(dir_fd);
	if (n >= 0) {
		have[n] = '\0';
		if (!strcmp(have, target))
			return 0;
	}
	if (errnum == EEXIST)
		return stage_fail(err, errlen, 0, "%s: exists in the jail and is not a link to %s",
				  path, target);
	return stage_fail(err, errlen, errnum, "%s: create a link to %s in the jail", path, target);
}

int stage_attach(int tree_fd, int target_fd, uint64_t attrs)
{
	struct uj_mount_attr attr = { .attr_set = attrs };

	if (attrs && uj_mount_setattr(tree_fd, "", AT_EMPTY_PATH | UJ_AT_RECURSIVE, &attr) < 0)
		return -1;
	return uj_move_mount(tree_fd, "", target_fd, "",
			     UJ_MOVE_MOUNT_F_EMPTY_PATH | UJ_MOVE_MOUNT_T_EMPTY_PATH);
}
