/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The jailfs stage backend: every path staged through one jailfs mount
 * (kernel/jailfs/README.md), which becomes the jail's root at commit,
 * stacked on the tmpfs root whose files (the jail's /etc/passwd, the
 * mount points of /dev, /proc and /sys) it shows as entries too.
 *
 * jailfs resolves every source without following a symbolic link; the
 * directories of a source are resolved here first, as the host sees them
 * (what the bind backend's open() does), so a link swapped in between
 * fails the mount instead of redirecting it. Read-only is the entry's,
 * enforced by jailfs for every path below it, and nothing in the root
 * but -w entries is writable.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "root/mount_api.h"
#include "root/stage.h"
#include "root/stage_jailfs.h"

#define FSCONFIG_STRING_MAX 255	/* longer values go as FSCONFIG_SET_BINARY */

struct jf_stage {
	struct jf_list list;
	unsigned int seq;
};

static int jf_begin(struct stage *st)
{
	st->priv = calloc(1, sizeof(struct jf_stage));
	if (!st->priv)
		return stage_fail(st->err, st->errlen, ENOMEM, "jailfs stage");
	return 0;
}

/* @src with its directories resolved by the host; the last name kept. */
static int resolve_dirs(const char *src, char *out)
{
	const char *base = strrchr(src, '/') + 1;
	char dir[PATH_MAX], real[PATH_MAX];

	snprintf(dir, sizeof(dir), "%.*s", (int)(base - src), src);
	if (!realpath(dir, real))
		return -1;
	if (snprintf(out, PATH_MAX, "%s/%s", strcmp(real, "/") ? real : "", base) >= PATH_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

static int jf_add(struct stage *st, const char *src, const char *dst, bool writable)
{
	struct jf_stage *js = st->priv;
	char real[PATH_MAX];
	struct stat sb;

	if (stage_check_path(src) < 0 || !strcmp(src, "/"))
		return stage_fail(st->err, st->errlen, 0,
				  "%s: not a clean absolute host path (no . or .., not /)", src);
	if (stage_check_path(dst) < 0 || !strcmp(dst, "/"))
		return stage_fail(st->err, st->errlen, 0,
				  "%s: not a path the jail can have (absolute, no . or .., not /)",
				  dst);
	if (resolve_dirs(src, real) < 0 || lstat(real, &sb) < 0)
		return stage_fail(st->err, st->errlen, errno, "%s: open on the host (for %s)",
				  src, dst);
	if (jf_push(&js->list, real, dst, ++js->seq, sb.st_mode, writable, false) < 0)
		return stage_fail(st->err, st->errlen, ENOMEM, "%s", dst);
	return 0;
}

/* ---- the mount ---- */

/* @path with jailfs's escapes: "\:" for ':', "\\" for '\'. */
static char *escape_into(char *out, const char *path)
{
	for (; *path; path++) {
		if (*path == ':' || *path == '\\')
			*out++ = '\\';
		*out++ = *path;
	}
	*out = '\0';
	return out;
}

/* The fs_context log's last error line, or "" (the kernel said nothing). */
static const char *kernel_says(int fs_fd, char *buf, size_t len)
{
	char line[512];
	ssize_t n;

	buf[0] = '\0';
	while ((n = read(fs_fd, line, sizeof(line) - 1)) > 0) {
		line[n] = '\0';
		if (line[0] == 'e' && line[1] == ' ')
			snprintf(buf, len, " (%.400s)", line + 2);
	}
	return buf;
}

static int set_value(int fs_fd, const char *key, const char *value)
{
	size_t len = strlen(value);

	if (len <= FSCONFIG_STRING_MAX)
		return uj_fsconfig(fs_fd, UJ_FSCONFIG_SET_STRING, key, value, 0);
	return uj_fsconfig(fs_fd, UJ_FSCONFIG_SET_BINARY, key, value, (int)len);
}

/* One entry's key and value; @src NULL for a "dir". */
static int config_entry(struct stage *st, int fs_fd, const char *src, const char *dst,
			bool writable)
{
	char value[4 * PATH_MAX + 2], said[512], *end = value;
	const char *key = !src ? "dir" : writable ? "rw_path" : "ro_path";
	int errnum;

	if (src) {
		end = escape_into(value, src);
		if (strcmp(src, dst))
			*end++ = ':';
	}
	if (!src || strcmp(src, dst))
		escape_into(end, dst);
	if (set_value(fs_fd, key, value) == 0)
		return 0;
	errnum = errno;
	kernel_says(fs_fd, said, sizeof(said));
	return stage_fail(st->err, st->errlen, errnum, "%s: jailfs refused %s=%s%s",
			  dst, key, value, said);
}

static int config_list(struct stage *st, int fs_fd, bool *devices)
{
	const struct jf_list *l = &((struct jf_stage *)st->priv)->list;
	char holder[PATH_MAX];
	int fd;

	for (size_t i = 0; i < l->n; i++) {
		const struct jf_entry *e = &l->v[i];
		int ret = 0;

		if (e->fate == JF_ENTRY && e->dir_only) {
			ret = config_entry(st, fs_fd, NULL, e->dst, false);
		} else if (e->fate == JF_ENTRY) {
			*devices |= S_ISCHR(e->mode) || S_ISBLK(e->mode);
			ret = config_entry(st, fs_fd, e->src, e->dst, e->writable);
		} else if (e->fate == JF_PLACEHOLDER) {
			/* An empty file on the tmpfs, for the object's bind mount. */
			fd = stage_mountpoint(st->root_fd, e->dst, false, st->err, st->errlen);
			if (fd < 0)
				return -1;
			close(fd);
			snprintf(holder, sizeof(holder), "%s%s", st->root_path, e->dst);
			ret = config_entry(st, fs_fd, holder, e->dst, false);
		}
		if (ret < 0)
			return -1;
	}
	return 0;
}

/* The jailfs mount of the plan, detached: an fd, or -1. */
static int make_mount(struct stage *st)
{
	bool devices = false;
	char said[512];
	int fs_fd, mnt_fd, errnum;

	fs_fd = uj_fsopen("jailfs", UJ_FSOPEN_CLOEXEC);
	if (fs_fd < 0)
		return stage_fail(st->err, st->errlen, errno, "/: new jailfs (fsopen)");
	if (config_list(st, fs_fd, &devices) < 0) {
		close(fs_fd);
		return -1;
	}
	if (uj_fsconfig(fs_fd, UJ_FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
		errnum = errno;
		kernel_says(fs_fd, said, sizeof(said));
		close(fs_fd);
		return stage_fail(st->err, st->errlen, errnum, "/: create the jailfs root%s", said);
	}
	/* nodev unless a device node is staged: the bind backend's rule. */
	mnt_fd = uj_fsmount(fs_fd, UJ_FSMOUNT_CLOEXEC,
			    UJ_MOUNT_ATTR_NOSUID | (devices ? 0 : UJ_MOUNT_ATTR_NODEV));
	errnum = errno;
	close(fs_fd);
	if (mnt_fd < 0)
		return stage_fail(st->err, st->errlen, errnum, "/: mount the jailfs root (fsmount)");
	return mnt_fd;
}

static int seq_cmp(const void *a, const void *b)
{
	const struct jf_entry *const *x = a, *const *y = b;

	return (*x)->seq < (*y)->seq ? -1 : (*x)->seq > (*y)->seq;
}

/* Bind mounts on the jailfs root, in the order they were added. */
static int bind_late(struct stage *st, int new_root_fd)
{
	const struct jf_list *l = &((struct jf_stage *)st->priv)->list;
	const struct jf_entry **late = calloc(l->n + 1, sizeof(*late));
	struct stage bind;
	size_t n = 0;
	int ret;

	if (!late)
		return stage_fail(st->err, st->errlen, ENOMEM, "jailfs stage");
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].fate == JF_LATE || l->v[i].fate == JF_PLACEHOLDER)
			late[n++] = &l->v[i];
	qsort(late, n, sizeof(*late), seq_cmp);
	ret = stage_begin(&bind, &stage_bind_ops, new_root_fd, NULL, st->err, st->errlen);
	for (size_t i = 0; i < n && ret == 0; i++)
		ret = stage_add(&bind, late[i]->src, late[i]->dst, late[i]->writable);
	ret = ret ? ret : stage_commit(&bind);
	free(late);
	return ret;
}

static void jf_free(struct stage *st)
{
	struct jf_stage *js = st->priv;

	if (js)
		jf_list_free(&js->list);
	free(js);
	st->priv = NULL;
}

static int jf_commit(struct stage *st)
{
	struct jf_stage *js = st->priv;
	int mnt_fd = -1, ret = -1;

	if (jf_collect_tmpfs(&js->list, st->root_fd, st->root_path, st->err, st->errlen) < 0 ||
	    jf_plan(&js->list, st->err, st->errlen) < 0)
		goto out;
	mnt_fd = make_mount(st);
	if (mnt_fd < 0)
		goto out;
	if (uj_move_mount(mnt_fd, "", st->root_fd, "",
			  UJ_MOVE_MOUNT_F_EMPTY_PATH | UJ_MOVE_MOUNT_T_EMPTY_PATH) < 0) {
		stage_fail(st->err, st->errlen, errno, "%s: mount the jailfs root on the tmpfs",
			   st->root_path);
		goto out;
	}
	if (bind_late(st, mnt_fd) < 0)
		goto out;
	st->new_root_fd = mnt_fd;
	mnt_fd = -1;
	ret = 0;
out:
	if (mnt_fd >= 0)
		close(mnt_fd);
	jf_free(st);
	return ret;
}

const struct stage_ops stage_jailfs_ops = {
	.name = "jailfs",
	.begin = jf_begin,
	.add = jf_add,
	.commit = jf_commit,
	.abort = jf_free,
};
