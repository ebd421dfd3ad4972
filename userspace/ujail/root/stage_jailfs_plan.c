/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The jailfs backend's plan: the collected paths, and what the tmpfs root
 * holds, sorted by jail path and each given its fate (stage_jailfs.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "root/stage.h"
#include "root/stage_jailfs.h"

int jf_push(struct jf_list *l, const char *src, const char *dst, unsigned int seq,
	    mode_t mode, bool writable, bool dir_only)
{
	struct jf_entry *e;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct jf_entry *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	e = &l->v[l->n];
	*e = (struct jf_entry){ .seq = seq, .mode = mode & S_IFMT, .writable = writable,
				.dir_only = dir_only, .fate = JF_ENTRY };
	e->src = strdup(src);
	e->dst = strdup(dst);
	if (!e->src || !e->dst) {
		free(e->src);
		free(e->dst);
		return -1;
	}
	l->n++;
	return 0;
}

void jf_list_free(struct jf_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].src);
		free(l->v[i].dst);
	}
	free(l->v);
	*l = (struct jf_list){ 0 };
}

/* ---- what is on the tmpfs root ---- */

struct tmpfs_walk {
	struct jf_list *l;
	const char *root_path;
	char *err;
	size_t errlen;
};

static int walk_dir(struct tmpfs_walk *w, int dir_fd, const char *path);

/* The object at jail path @path, in directory @dir_fd. */
static int walk_one(struct tmpfs_walk *w, int dir_fd, const char *path)
{
	const char *name = strrchr(path, '/') + 1;
	char src[PATH_MAX];
	struct stat sb;
	int fd;

	if (fstatat(dir_fd, name, &sb, AT_SYMLINK_NOFOLLOW) < 0)
		return stage_fail(w->err, w->errlen, errno, "%s: stat on the jail's tmpfs", path);
	if (!S_ISDIR(sb.st_mode)) {
		if (snprintf(src, sizeof(src), "%s%s", w->root_path, path) >= (int)sizeof(src))
			return stage_fail(w->err, w->errlen, ENAMETOOLONG, "%s", path);
		if (jf_push(w->l, src, path, 0, sb.st_mode, false, false) < 0)
			return stage_fail(w->err, w->errlen, ENOMEM, "%s", path);
		return 0;
	}
	fd = openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return stage_fail(w->err, w->errlen, errno, "%s: open on the jail's tmpfs", path);
	return walk_dir(w, fd, path);
}

/* Takes @dir_fd. An empty directory is a mount point: a "dir" entry. */
static int walk_dir(struct tmpfs_walk *w, int dir_fd, const char *path)
{
	char child[PATH_MAX];
	size_t before = w->l->n;
	struct dirent *d;
	DIR *dir = fdopendir(dir_fd);
	int ret = 0;

	if (!dir) {
		close(dir_fd);
		return stage_fail(w->err, w->errlen, errno, "%s: read on the jail's tmpfs", path);
	}
	while (ret == 0 && (d = readdir(dir))) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (snprintf(child, sizeof(child), "%s/%s", path, d->d_name) >= (int)sizeof(child))
			ret = stage_fail(w->err, w->errlen, ENAMETOOLONG, "%s/%s", path, d->d_name);
		else
			ret = walk_one(w, dirfd(dir), child);
	}
	closedir(dir);
	if (ret == 0 && w->l->n == before && *path &&
	    jf_push(w->l, "", path, 0, S_IFDIR, false, true) < 0)
		ret = stage_fail(w->err, w->errlen, ENOMEM, "%s", path);
	return ret;
}

int jf_collect_tmpfs(struct jf_list *l, int root_fd, const char *root_path,
		     char *err, size_t errlen)
{
	struct tmpfs_walk w = { .l = l, .root_path = root_path, .err = err, .errlen = errlen };
	int fd = openat(root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return stage_fail(err, errlen, errno, "%s: open the jail's tmpfs", root_path);
	return walk_dir(&w, fd, "");
}

/* ---- fates ---- */

/* Path order with '/' first, so that a directory's subtree follows it. */
static int path_rank(char c)
{
	return c == '\0' ? 0 : c == '/' ? 1 : (unsigned char)c + 2;
}

static int path_cmp(const char *a, const char *b)
{
	for (; *a && *a == *b; a++, b++)
		;
	return path_rank(*a) - path_rank(*b);
}

static int entry_cmp(const void *pa, const void *pb)
{
	const struct jf_entry *a = pa, *b = pb;
	int c = path_cmp(a->dst, b->dst);

	if (c)
		return c;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* @e shows at its place what staged directory @dir shows there anyway. */
static bool shown_by(const struct jf_entry *e, const struct jf_entry *dir)
{
	size_t len = strlen(dir->dst);

	return stage_path_beneath(e->src, dir->src) &&
	       !strcmp(e->src + strlen(dir->src), e->dst + len);
}

static bool socket_like(mode_t mode)
{
	return S_ISSOCK(mode) || S_ISFIFO(mode);
}

/* The fate of @e below the nearest kept directory @dir (NULL: none). */
static int fate_of(struct jf_entry *e, const struct jf_entry *dir, char *err, size_t errlen)
{
	if (!dir) {
		e->fate = socket_like(e->mode) ? JF_PLACEHOLDER : JF_ENTRY;
		return 0;
	}
	if (e->seq < dir->seq) {
		e->fate = JF_DROP;	/* a bind mount of @dir would hide it */
		return 0;
	}
	if (dir->fate == JF_ENTRY && shown_by(e, dir) &&
	    (e->writable == dir->writable || S_ISLNK(e->mode))) {
		e->fate = JF_DROP;
		return 0;
	}
	if (S_ISLNK(e->mode))
		return stage_fail(err, errlen, 0,
				  "%s: a link inside staged directory %s (from %s): jailfs "
				  "cannot put it there (use --fs=bind)", e->dst, dir->dst, e->src);
	e->fate = JF_LATE;
	return 0;
}

int jf_plan(struct jf_list *l, char *err, size_t errlen)
{
	size_t *stack, depth = 0;
	int ret = 0;

	qsort(l->v, l->n, sizeof(*l->v), entry_cmp);
	/* The same path again: the later one is on top, the earlier one gone. */
	for (size_t i = 0; i + 1 < l->n; i++)
		if (!strcmp(l->v[i].dst, l->v[i + 1].dst))
			l->v[i].fate = JF_DROP;
	stack = calloc(l->n + 1, sizeof(*stack));
	if (!stack)
		return stage_fail(err, errlen, ENOMEM, "jailfs plan");
	for (size_t i = 0; i < l->n && ret == 0; i++) {
		struct jf_entry *e = &l->v[i];

		if (e->fate == JF_DROP)
			continue;
		while (depth && !stage_path_beneath(e->dst, l->v[stack[depth - 1]].dst))
			depth--;
		/* An empty tmpfs directory with entries below is made by them. */
		if (depth && l->v[stack[depth - 1]].dir_only) {
			l->v[stack[--depth]].fate = JF_DROP;
			while (depth && !stage_path_beneath(e->dst, l->v[stack[depth - 1]].dst))
				depth--;
		}
		ret = fate_of(e, depth ? &l->v[stack[depth - 1]] : NULL, err, errlen);
		if (ret == 0 && S_ISDIR(e->mode) && e->fate != JF_DROP)
			stack[depth++] = i;
	}
	free(stack);
	return ret;
}
