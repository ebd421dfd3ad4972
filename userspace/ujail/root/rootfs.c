/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The jail's root filesystem, built in the jail's own mount namespace by
 * its PID 1, then entered with pivot_root.
 *
 * No mount is ever undone on failure: the caller exits, and as PID 1 of
 * the jail's namespaces it takes the mount namespace, and every mount in
 * it, along. Only the scratch directory on the host (scratch_dir()) is
 * removed.
 *
 * Paths in the new root are always looked up beneath its fd with symbolic
 * links refused (stage.c), never by name from "/".
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "deps/path_walk.h"
#include "deps/path_walk_memo.h"
#include "deps/pathset.h"
#include "root/mount_api.h"
#include "root/rootfs.h"
#include "root/stage.h"

#define SCRATCH_NAME	"ujail-root.XXXXXX"
#define SCRATCH_MAX	sizeof("/dev/shm/" SCRATCH_NAME)
#define TMPFS_MAGIC	0x01021994

struct rootfs {
	const struct jail_opts *o;
	char scratch[SCRATCH_MAX]; /* the root's mount point */
	size_t scratch_dir_len;	/* its directory's part, with the slash */
	int tmp_fd;		/* that directory, to remove the scratch directory */
	int root_fd;		/* the new root */
	const struct stage_ops *backend; /* stages what comes from the host */
	bool root_is_jailfs;	/* the jailfs backend's mount became the root */
	bool made_dir;		/* the scratch directory exists */
	bool mounted;
	const struct jail_accounts *accounts;
	const struct jail_host_files *files;
	struct staged *staged;	/* the main stage's, else NULL */
	char *err;
	size_t errlen;
};

/*
 * What the main stage has staged at the same path, read-only and
 * writable: the command's dependencies name one object through its links
 * too (/bin/true and /usr/bin/true), and a bind mount identical to the
 * one under it is cost alone.
 */
struct staged {
	struct path_set ro, rw;
	struct path_walk_memo walks;	/* the host's paths, each walked once */
};

struct fs_opt {
	const char *key;
	const char *value;	/* NULL: a flag */
};

#define rootfs_fail(r, errnum, ...) stage_fail((r)->err, (r)->errlen, (errnum), __VA_ARGS__)

/* Nothing made in the jail may propagate back to the host (or elsewhere). */
static int make_mounts_private(struct rootfs *r)
{
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return rootfs_fail(r, errno, "/: make every mount private (MS_REC|MS_PRIVATE)");
	return 0;
}

/* A detached new instance of @fstype with @opts, mounted with @attrs. */
static int fs_new(struct rootfs *r, const char *where, const char *fstype,
		  const struct fs_opt *opts, unsigned int attrs)
{
	int fs_fd, mnt_fd, errnum;

	fs_fd = uj_fsopen(fstype, UJ_FSOPEN_CLOEXEC);
	if (fs_fd < 0)
		return rootfs_fail(r, errno, "%s: new %s (fsopen)", where, fstype);
	for (; opts && opts->key; opts++) {
		unsigned int cmd = opts->value ? UJ_FSCONFIG_SET_STRING : UJ_FSCONFIG_SET_FLAG;

		if (uj_fsconfig(fs_fd, cmd, opts->key, opts->value, 0) < 0) {
			errnum = errno;
			close(fs_fd);
			return rootfs_fail(r, errnum, "%s: %s option %s%s%s", where, fstype,
					   opts->key, opts->value ? "=" : "",
					   opts->value ? opts->value : "");
		}
	}
	if (uj_fsconfig(fs_fd, UJ_FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
		errnum = errno;
		close(fs_fd);
		return rootfs_fail(r, errnum, "%s: create the %s instance", where, fstype);
	}
	mnt_fd = uj_fsmount(fs_fd, UJ_FSMOUNT_CLOEXEC, attrs);
	errnum = errno;
	close(fs_fd);
	if (mnt_fd < 0)
		return rootfs_fail(r, errnum, "%s: mount the %s instance (fsmount)", where, fstype);
	return mnt_fd;
}

/* A new @fstype instance on directory @path of the jail. */
static int mount_fs_at(struct rootfs *r, const char *path, const char *fstype,
		       const struct fs_opt *opts, unsigned int attrs)
{
	int mnt_fd, target_fd, ret;

	mnt_fd = fs_new(r, path, fstype, opts, attrs);
	if (mnt_fd < 0)
		return -1;
	target_fd = stage_mountpoint(r->root_fd, path, true, r->err, r->errlen);
	if (target_fd < 0) {
		close(mnt_fd);
		return -1;
	}
	ret = stage_attach(mnt_fd, target_fd, 0);
	if (ret < 0)
		rootfs_fail(r, errno, "%s: mount %s on it (move_mount)", path, fstype);
	close(target_fd);
	close(mnt_fd);
	return ret;
}

/*
 * Where the scratch directory goes: /dev/shm where it is a tmpfs, else
 * /tmp. Made and removed at every start, it costs a disk filesystem a
 * journalled directory block each time (150 us of CPU against 7 on a
 * tmpfs, on ext4 here), and Debian's /tmp is often on disk. Sets
 * r->tmp_fd and r->scratch.
 */
static int scratch_dir(struct rootfs *r)
{
	struct statfs sfs;
	int fd = open("/dev/shm", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	const char *dir = "/dev/shm";

	if (fd >= 0 && (fstatfs(fd, &sfs) < 0 || sfs.f_type != TMPFS_MAGIC)) {
		close(fd);
		fd = -1;
	}
	if (fd < 0) {
		dir = "/tmp";
		fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	}
	if (fd < 0)
		return rootfs_fail(r, errno, "%s: open (for the jail's root)", dir);
	r->tmp_fd = fd;
	r->scratch_dir_len = strlen(dir) + 1;
	snprintf(r->scratch, sizeof(r->scratch), "%s/" SCRATCH_NAME, dir);
	return 0;
}

/*
 * The root: a tmpfs on a fresh directory of the host's /dev/shm or /tmp
 * (a directory that exists in this namespace only as the root's mount
 * point). It is unbindable, so a -r /tmp cloning the host's /tmp does not
 * bring the jail's own root along inside the jail.
 */
static int root_create(struct rootfs *r)
{
	static const struct fs_opt opts[] = { { "mode", "0755" }, { NULL, NULL } };
	struct uj_mount_attr unbindable = { .propagation = MS_UNBINDABLE };
	int dir_fd, errnum;

	if (scratch_dir(r) < 0)
		return -1;
	if (!mkdtemp(r->scratch))
		return rootfs_fail(r, errno, "%.*s: create a directory for the jail's root",
				   (int)r->scratch_dir_len - 1, r->scratch);
	r->made_dir = true;
	r->root_fd = fs_new(r, "/", "tmpfs", opts, UJ_MOUNT_ATTR_NOSUID | UJ_MOUNT_ATTR_NODEV);
	if (r->root_fd < 0)
		return -1;
	if (uj_mount_setattr(r->root_fd, "", AT_EMPTY_PATH, &unbindable) < 0)
		return rootfs_fail(r, errno, "%s: make the jail's root unbindable", r->scratch);
	dir_fd = open(r->scratch, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dir_fd < 0)
		return rootfs_fail(r, errno, "%s: open", r->scratch);
	if (uj_move_mount(r->root_fd, "", dir_fd, "",
			  UJ_MOVE_MOUNT_F_EMPTY_PATH | UJ_MOVE_MOUNT_T_EMPTY_PATH) < 0) {
		errnum = errno;
		close(dir_fd);
		return rootfs_fail(r, errnum, "%s: mount the jail's root tmpfs", r->scratch);
	}
	close(dir_fd);
	r->mounted = true;
	return 0;
}

/* After a failure: leave no directory behind on the host. */
static void root_discard(struct rootfs *r)
{
	const char *name = r->scratch + r->scratch_dir_len;

	/* The tmpfs, and the jailfs root stacked on it. */
	for (int i = 0; r->mounted && i < 2; i++)
		umount2(r->scratch, MNT_DETACH);
	if (r->made_dir)
		unlinkat(r->tmp_fd, name, AT_REMOVEDIR);
}

/* Writes @text as jail file @path, created where it was checked to be. */
static int jail_write_file(struct rootfs *r, const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd;

	fd = stage_mountpoint(r->root_fd, path, false, r->err, r->errlen);
	if (fd < 0)
		return -1;
	close(fd);
	fd = stage_open_beneath(r->root_fd, path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return rootfs_fail(r, errno, "%s: open for writing in the jail", path);
	if (fchmod(fd, 0644) < 0 || write(fd, text, len) != (ssize_t)len) {
		int errnum = errno;

		close(fd);
		return rootfs_fail(r, errnum, "%s: write in the jail", path);
	}
	close(fd);
	return 0;
}

/* Host @path at the same path, unless the main stage has it so already. */
static int stage_once(struct rootfs *r, struct stage *st, const char *path, bool writable)
{
	struct path_set *same, *other;

	if (!r->staged)
		return stage_add(st, path, path, writable);
	same = writable ? &r->staged->rw : &r->staged->ro;
	other = writable ? &r->staged->ro : &r->staged->rw;
	/* Staged the other way as well: which one is on top is the order's. */
	if (path_set_has(same, path) && !path_set_has(other, path))
		return 0;
	if (stage_add(st, path, path, writable) < 0)
		return -1;
	if (path_set_add(same, path) < 0)
		return rootfs_fail(r, ENOMEM, "%s: staged", path);
	return 0;
}

/* The main stage's libraries share their directories: each walked once. */
static int host_walk(struct rootfs *r, const char *path, char *real, struct path_set *links)
{
	if (r->staged)
		return path_walk_memo(&r->staged->walks, "", path, real, links);
	return path_walk("", path, real, links);
}

/*
 * Stages host @path at the same path in the jail the way the host
 * resolves it: each symbolic link met becomes the same link in the jail
 * (at its resolved place), then the object itself is staged. A link as
 * last component is followed only with @follow_last.
 */
static int stage_host_path(struct rootfs *r, struct stage *st, const char *path,
			   bool writable, bool follow_last)
{
	struct path_set links = { 0 };
	char clean[PATH_MAX], dir[PATH_MAX], real[PATH_MAX];
	const char *base;
	int e, ret = 0;

	e = path_clean(path, clean);
	if (e < 0 || !strcmp(clean, "/"))
		return rootfs_fail(r, e < 0 ? -e : 0,
				   "%s: cannot be staged (absolute, no .., not /)", path);
	base = strrchr(clean, '/') + 1;
	if (follow_last) {
		e = host_walk(r, clean, real, &links);
	} else {
		memcpy(dir, clean, (size_t)(base - clean));
		dir[base - clean] = '\0';
		e = host_walk(r, dir, real, &links);
		if (e == 0 && snprintf(dir, sizeof(dir), "%s/%s", strcmp(real, "/") ? real : "",
				       base) >= (int)sizeof(dir))
			e = -ENAMETOOLONG;
		if (e == 0)
			strcpy(real, dir);
	}
	if (e < 0) {
		path_set_free(&links);
		return rootfs_fail(r, -e, "%s: resolve on the host", clean);
	}
	for (size_t i = 0; i < links.n && ret == 0; i++)
		ret = stage_once(r, st, links.paths[i], false);
	path_set_free(&links);
	if (ret == 0 && strcmp(real, "/"))
		ret = stage_once(r, st, real, writable);
	return ret;
}

/* -r/-w paths below /dev, /proc or /sys go on top of those, in the late stage. */
static bool staged_late(const struct jail_opts *o, const char *dst)
{
	return stage_path_beneath(dst, "/dev") || (o->proc && stage_path_beneath(dst, "/proc")) ||
	       (o->sys && stage_path_beneath(dst, "/sys"));
}

static int stage_user_paths(struct rootfs *r, struct stage *st, bool late)
{
	for (size_t i = 0; i < r->files->n_paths; i++) {
		const struct jail_path *p = &r->files->paths[i];
		const char *dst = p->dst ? p->dst : p->src;
		int ret;

		if (staged_late(r->o, dst) != late)
			continue;
		if (!strcmp(p->src, dst))
			ret = stage_host_path(r, st, p->src, p->writable, !p->writable);
		else
			ret = stage_add(st, p->src, dst, p->writable);
		if (ret < 0)
			return -1;
	}
	return 0;
}

static int stage_ubus(struct rootfs *r, struct stage *st)
{
	static const char *const sockets[] = { "/var/run/ubus/ubus.sock", "/var/run/ubus.sock" };
	struct stat sb;

	for (size_t i = 0; i < sizeof(sockets) / sizeof(sockets[0]); i++) {
		if (stat(sockets[i], &sb) == 0)
			return stage_host_path(r, st, sockets[i], false, true);
	}
	return rootfs_fail(r, 0, "ubus: no ubus socket on the host (%s, %s)",
			   sockets[0], sockets[1]);
}

/* -D: procd's udebug socket, where the host has one; procd skips it otherwise. */
static int stage_udebug(struct rootfs *r, struct stage *st)
{
	struct stat sb;

	if (stat(JAIL_UDEBUG_SOCKET, &sb) < 0) {
		if (errno == ENOENT)
			return 0;
		return rootfs_fail(r, errno, "%s: stat on the host", JAIL_UDEBUG_SOCKET);
	}
	return stage_host_path(r, st, JAIL_UDEBUG_SOCKET, false, true);
}

static int stage_resolv_conf(struct rootfs *r, struct stage *st)
{
	struct stat sb;

	if (lstat("/etc/resolv.conf", &sb) < 0) {
		if (errno == ENOENT)
			return 0;
		return rootfs_fail(r, errno, "/etc/resolv.conf: lstat on the host");
	}
	return stage_host_path(r, st, "/etc/resolv.conf", false, true);
}

/* The stage's new root, if its backend made one (jailfs). */
static void take_new_root(struct rootfs *r, struct stage *st)
{
	if (st->new_root_fd < 0)
		return;
	close(r->root_fd);
	r->root_fd = st->new_root_fd;
	r->root_is_jailfs = true;
}

/* Everything from the host, through the stage backend. */
static int stage_from_host(struct rootfs *r)
{
	const struct path_set *deps = r->files->deps;
	struct stage st;
	int ret;

	if (stage_begin(&st, r->backend, r->root_fd, r->scratch, r->err, r->errlen) < 0)
		return -1;
	for (size_t i = 0; deps && i < deps->n; i++) {
		if (stage_host_path(r, &st, deps->paths[i], false, false) < 0)
			goto abort;
	}
	if (stage_user_paths(r, &st, false) < 0)
		goto abort;
	if (r->o->ubus && stage_ubus(r, &st) < 0)
		goto abort;
	if (r->o->udebug && stage_udebug(r, &st) < 0)
		goto abort;
	if (stage_resolv_conf(r, &st) < 0)
		goto abort;
	ret = stage_commit(&st);
	if (ret == 0)
		take_new_root(r, &st);
	return ret;
abort:
	stage_abort(&st);
	return -1;
}

/* The same, each object staged once (see struct staged). */
static int stage_main(struct rootfs *r)
{
	struct staged staged = { 0 };
	int ret;

	r->staged = &staged;
	ret = stage_from_host(r);
	r->staged = NULL;
	path_set_free(&staged.ro);
	path_set_free(&staged.rw);
	path_walk_memo_free(&staged.walks);
	return ret;
}

static int dev_symlinks(struct rootfs *r)
{
	static const char *const links[][2] = {
		{ "/dev/fd", "/proc/self/fd" },
		{ "/dev/stdin", "/proc/self/fd/0" },
		{ "/dev/stdout", "/proc/self/fd/1" },
		{ "/dev/stderr", "/proc/self/fd/2" },
		{ "/dev/ptmx", "pts/ptmx" },
	};

	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		if (stage_symlink(r->root_fd, links[i][1], links[i][0], r->err, r->errlen) < 0)
			return -1;
	}
	return 0;
}

static int dev_log(struct rootfs *r, struct stage *late)
{
	struct stat sb;

	if (lstat("/dev/log", &sb) < 0) {
		if (errno == ENOENT)
			return rootfs_fail(r, 0, "/dev/log: no /dev/log on the host (-l)");
		return rootfs_fail(r, errno, "/dev/log: lstat on the host");
	}
	return stage_host_path(r, late, "/dev/log", true, true);
}

/*
 * /dev: a small tmpfs (nodev: the nodes are bind mounts of the host's,
 * with their own flags), a devpts instance of the jail's own, /dev/shm.
 */
static int mount_dev(struct rootfs *r, struct stage *late)
{
	static const char *const nodes[] = { "null", "zero", "full", "random", "urandom", "tty" };
	static const struct fs_opt dev_opts[] = {
		{ "mode", "0755" }, { "size", "64k" }, { NULL, NULL } };
	static const struct fs_opt pts_opts[] = {
		{ "newinstance", NULL }, { "ptmxmode", "0666" }, { "mode", "0620" },
		{ NULL, NULL } };
	static const struct fs_opt shm_opts[] = { { "mode", "1777" }, { NULL, NULL } };
	char host[32];

	if (mount_fs_at(r, "/dev", "tmpfs", dev_opts, UJ_MOUNT_ATTR_NOSUID | UJ_MOUNT_ATTR_NODEV |
			UJ_MOUNT_ATTR_NOEXEC) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		snprintf(host, sizeof(host), "/dev/%s", nodes[i]);
		if (stage_add(late, host, host, true) < 0)
			return -1;
	}
	if (mount_fs_at(r, "/dev/pts", "devpts", pts_opts,
			UJ_MOUNT_ATTR_NOSUID | UJ_MOUNT_ATTR_NOEXEC) < 0)
		return -1;
	if (mount_fs_at(r, "/dev/shm", "tmpfs", shm_opts,
			UJ_MOUNT_ATTR_NOSUID | UJ_MOUNT_ATTR_NODEV) < 0)
		return -1;
	if (dev_symlinks(r) < 0)
		return -1;
	return r->o->dev_log ? dev_log(r, late) : 0;
}

/* Opens jail @path if it exists: an fd, 0 if missing (not on this kernel), -1 on error. */
static int open_if_present(struct rootfs *r, const char *path, int flags, int *fd)
{
	*fd = stage_open_beneath(r->root_fd, path, flags);
	if (*fd >= 0)
		return 1;
	if (errno == ENOENT)
		return 0;
	return rootfs_fail(r, errno, "%s: look up in the jail", path);
}

/*
 * Jail @path, when present, covered by a clone of @src_fd (of @path itself
 * when @src_fd < 0; @tree_flags added) with mount attributes @attrs;
 * @what says what for a message.
 */
static int cover_present(struct rootfs *r, const char *path, int src_fd,
			 unsigned int tree_flags, uint64_t attrs, const char *what)
{
	int fd, tree_fd, ret;

	ret = open_if_present(r, path, O_PATH, &fd);
	if (ret <= 0)
		return ret;
	tree_fd = uj_open_tree(src_fd >= 0 ? src_fd : fd, "",
			       UJ_OPEN_TREE_CLONE | O_CLOEXEC | AT_EMPTY_PATH | tree_flags);
	if (tree_fd < 0 || stage_attach(tree_fd, fd, attrs) < 0)
		ret = rootfs_fail(r, errno, "%s: %s", path, what);
	else
		ret = 0;
	if (tree_fd >= 0)
		close(tree_fd);
	close(fd);
	return ret;
}

/* Jail @path mounted on itself, read-only with its submounts. */
static int remount_readonly(struct rootfs *r, const char *path)
{
	return cover_present(r, path, -1, UJ_AT_RECURSIVE,
			     UJ_MOUNT_ATTR_RDONLY | UJ_MOUNT_ATTR_NOSUID | UJ_MOUNT_ATTR_NODEV |
			     UJ_MOUNT_ATTR_NOEXEC, "make read-only (bind on itself)");
}

/* The host's /dev/null, read-only, over jail file @path: reads find nothing. */
static int mask_file(struct rootfs *r, int null_fd, const char *path)
{
	return cover_present(r, path, null_fd, 0,
			     UJ_MOUNT_ATTR_RDONLY | UJ_MOUNT_ATTR_NOSUID | UJ_MOUNT_ATTR_NOEXEC,
			     "mask with /dev/null");
}

/* An empty read-only tmpfs over jail directory @path. */
static int mask_dir(struct rootfs *r, const char *path)
{
	static const struct fs_opt opts[] = { { "mode", "0555" }, { NULL, NULL } };
	int fd, mnt_fd, ret;

	ret = open_if_present(r, path, O_PATH | O_DIRECTORY, &fd);
	if (ret <= 0)
		return ret;
	mnt_fd = fs_new(r, path, "tmpfs", opts, UJ_MOUNT_ATTR_RDONLY | UJ_MOUNT_ATTR_NOSUID |
			UJ_MOUNT_ATTR_NODEV | UJ_MOUNT_ATTR_NOEXEC);
	ret = mnt_fd < 0 ? -1 : stage_attach(mnt_fd, fd, 0);
	if (mnt_fd >= 0 && ret < 0)
		rootfs_fail(r, errno, "%s: mask with an empty tmpfs", path);
	if (mnt_fd >= 0)
		close(mnt_fd);
	close(fd);
	return ret;
}

/*
 * /proc of the jail's pid namespace. Kernel knobs are read-only; files
 * showing kernel memory, keys, the kernel log, timers and scheduler
 * internals are masked, and so are hardware directories (the choices
 * container runtimes make).
 */
static int mount_proc(struct rootfs *r)
{
	static const char *const readonly[] = {
		"/proc/sys", "/proc/sysrq-trigger", "/proc/bus", "/proc/fs", "/proc/irq",
	};
	static const char *const masked_files[] = {
		"/proc/kcore", "/proc/keys", "/proc/kmsg", "/proc/latency_stats",
		"/proc/timer_list", "/proc/timer_stats", "/proc/sched_debug",
	};
	static const char *const masked_dirs[] = { "/proc/acpi", "/proc/scsi", "/proc/asound" };
	int null_fd, ret = 0;

	if (mount_fs_at(r, "/proc", "proc", NULL, UJ_MOUNT_ATTR_NOSUID | UJ_MOUNT_ATTR_NODEV |
			UJ_MOUNT_ATTR_NOEXEC) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(readonly) / sizeof(readonly[0]); i++) {
		if (remount_readonly(r, readonly[i]) < 0)
			return -1;
	}
	null_fd = open("/dev/null", O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (null_fd < 0)
		return rootfs_fail(r, errno, "/dev/null: open on the host (to mask /proc files)");
	for (size_t i = 0; i < sizeof(masked_files) / sizeof(masked_files[0]) && !ret; i++)
		ret = mask_file(r, null_fd, masked_files[i]);
	close(null_fd);
	for (size_t i = 0; i < sizeof(masked_dirs) / sizeof(masked_dirs[0]) && !ret; i++)
		ret = mask_dir(r, masked_dirs[i]);
	return ret;
}

/* A new sysfs, read-only; firmware tables (ACPI, EFI variables) masked. */
static int mount_sys(struct rootfs *r)
{
	if (mount_fs_at(r, "/sys", "sysfs", NULL, UJ_MOUNT_ATTR_RDONLY | UJ_MOUNT_ATTR_NOSUID |
			UJ_MOUNT_ATTR_NODEV | UJ_MOUNT_ATTR_NOEXEC) < 0)
		return -1;
	return mask_dir(r, "/sys/firmware");
}

/* /dev, /proc, /sys and what goes below them: bind mounts whatever the backend. */
static int stage_special(struct rootfs *r)
{
	struct stage late;

	if (stage_begin(&late, &stage_bind_ops, r->root_fd, r->scratch, r->err, r->errlen) < 0)
		return -1;
	if (mount_dev(r, &late) < 0 ||
	    (r->o->proc && mount_proc(r) < 0) ||
	    (r->o->sys && mount_sys(r) < 0) ||
	    stage_user_paths(r, &late, true) < 0) {
		stage_abort(&late);
		return -1;
	}
	return stage_commit(&late);
}

/*
 * pivot_root(".", "."): the host's root ends up stacked on the new one,
 * and is detached from there. The scratch directory stops being a mount
 * point with the pivot and is removed through the fd kept on its directory.
 */
static int enter_root(struct rootfs *r)
{
	if (fchdir(r->root_fd) < 0)
		return rootfs_fail(r, errno, "%s: chdir into the jail's root", r->scratch);
	if (uj_pivot_root(".", ".") < 0)
		return rootfs_fail(r, errno, "%s: pivot_root", r->scratch);
	r->mounted = false;
	r->made_dir = false;
	if (umount2(".", MNT_DETACH) < 0)
		return rootfs_fail(r, errno, "/: detach the host's root after pivot_root");
	/*
	 * Detached, the scratch directory is no mount point here any more
	 * (jailfs leaves the tmpfs on it). A leftover empty directory on the
	 * host is no reason to fail.
	 */
	unlinkat(r->tmp_fd, r->scratch + r->scratch_dir_len, AT_REMOVEDIR);
	close(r->tmp_fd);
	r->tmp_fd = -1;
	if (chdir("/") < 0)
		return rootfs_fail(r, errno, "/: chdir");
	return 0;
}

/*
 * -o: the root tmpfs only; /dev, /proc and writable paths keep their flags.
 * A jailfs root is read-only already but for its -w entries.
 */
static int root_readonly(struct rootfs *r)
{
	struct uj_mount_attr attr = { .attr_set = UJ_MOUNT_ATTR_RDONLY };

	if (uj_mount_setattr(AT_FDCWD, "/", 0, &attr) < 0)
		return rootfs_fail(r, errno, "/: make the jail's root read-only (-o)");
	return 0;
}

/* Before staging: a jailfs root has no directory it was not given. */
static int make_mountpoints(struct rootfs *r)
{
	const char *dirs[] = { "/dev", r->o->proc ? "/proc" : NULL, r->o->sys ? "/sys" : NULL };
	int fd;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (!dirs[i])
			continue;
		fd = stage_mountpoint(r->root_fd, dirs[i], true, r->err, r->errlen);
		if (fd < 0)
			return -1;
		close(fd);
	}
	return 0;
}

static int rootfs_build(struct rootfs *r)
{
	if (make_mounts_private(r) < 0)
		return -1;
	if (root_create(r) < 0)
		return -1;
	if (jail_write_file(r, "/etc/passwd", r->accounts->passwd) < 0 ||
	    jail_write_file(r, "/etc/group", r->accounts->group) < 0 ||
	    make_mountpoints(r) < 0)
		return -1;
	if (stage_main(r) < 0 || stage_special(r) < 0)
		return -1;
	if (enter_root(r) < 0)
		return -1;
	return r->o->ro_root && !r->root_is_jailfs ? root_readonly(r) : 0;
}

int jail_rootfs_enter(const struct jail_opts *o, const struct stage_ops *backend,
		      const struct jail_host_files *files, const struct jail_accounts *accounts,
		      char *err, size_t errlen)
{
	struct rootfs *r = calloc(1, sizeof(*r));
	mode_t old_umask;
	int ret;

	if (!r)
		return stage_fail(err, errlen, ENOMEM, "jail root");
	r->o = o;
	r->backend = backend;
	r->accounts = accounts;
	r->files = files;
	r->err = err;
	r->errlen = errlen;
	r->tmp_fd = -1;
	r->root_fd = -1;
	/* Directories made in the jail must be traversable by the service. */
	old_umask = umask(022);
	ret = rootfs_build(r);
	umask(old_umask);
	if (ret < 0)
		root_discard(r);
	if (r->tmp_fd >= 0)
		close(r->tmp_fd);
	if (r->root_fd >= 0)
		close(r->root_fd);
	free(r);
	return ret;
}
