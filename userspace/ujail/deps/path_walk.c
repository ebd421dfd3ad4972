/* SPDX-License-Identifier: GPL-2.0 */
/* Component by component lookup with lstat/readlink, as the kernel walks. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deps/path_walk.h"

int sysroot_join(const char *sysroot, const char *path, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s%s", sysroot, path);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* Drops the last component of the resolved prefix ("" is the root). */
static void walk_up(char *done, size_t *dlen)
{
	while (*dlen > 0 && done[*dlen - 1] != '/')
		(*dlen)--;
	if (*dlen > 0)
		(*dlen)--;
	done[*dlen] = '\0';
}

static bool only_slashes(const char *s)
{
	return s[strspn(s, "/")] == '\0';
}

/*
 * Replaces @rest with the target of the link at @host followed by @tail,
 * what was left after the link (@tail may point into @rest).
 */
static int walk_follow(const char *host, const char *tail, char *rest)
{
	char target[PATH_MAX], next[PATH_MAX];
	ssize_t n;
	int len;

	n = readlink(host, target, sizeof(target));
	if (n < 0)
		return -errno;
	if ((size_t)n >= sizeof(target))
		return -ENAMETOOLONG;
	if (n == 0)
		return -ENOENT;
	target[n] = '\0';
	len = snprintf(next, sizeof(next), "%s/%s", target, tail);
	if (len < 0 || (size_t)len >= sizeof(next))
		return -ENAMETOOLONG;
	memcpy(rest, next, (size_t)len + 1);
	return 0;
}

int path_walk(const char *sysroot, const char *path, char *real, struct path_set *links)
{
	char rest[PATH_MAX], done[PATH_MAX], host[PATH_MAX];
	size_t dlen = 0, plen = strlen(path);
	unsigned int followed = 0;
	const char *p = rest;

	if (path[0] != '/')
		return -EINVAL;
	if (plen >= sizeof(rest))
		return -ENAMETOOLONG;
	memcpy(rest, path, plen + 1);
	done[0] = '\0';

	for (;;) {
		const char *comp;
		size_t clen;
		struct stat st;
		int ret;

		p += strspn(p, "/");
		if (!*p)
			break;
		comp = p;
		clen = strcspn(p, "/");
		p += clen;
		if (clen == 1 && comp[0] == '.')
			continue;
		if (clen == 2 && comp[0] == '.' && comp[1] == '.') {
			walk_up(done, &dlen);
			continue;
		}
		if (clen > NAME_MAX || dlen + 1 + clen >= sizeof(done))
			return -ENAMETOOLONG;
		done[dlen] = '/';
		memcpy(done + dlen + 1, comp, clen);
		done[dlen + 1 + clen] = '\0';

		ret = sysroot_join(sysroot, done, host, sizeof(host));
		if (ret < 0)
			return ret;
		if (lstat(host, &st) < 0)
			return -errno;
		if (S_ISLNK(st.st_mode)) {
			if (++followed > PATH_WALK_MAX_LINKS)
				return -ELOOP;
			if (links && path_set_add(links, done) < 0)
				return -ENOMEM;
			ret = walk_follow(host, p, rest);
			if (ret < 0)
				return ret;
			/* An absolute target restarts at the (sys)root. */
			if (rest[0] == '/')
				dlen = 0;
			done[dlen] = '\0';
			p = rest;
			continue;
		}
		dlen += 1 + clen;
		if (!S_ISDIR(st.st_mode) && !only_slashes(p))
			return -ENOTDIR;
	}
	if (dlen == 0)
		strcpy(real, "/");
	else
		memcpy(real, done, dlen + 1);
	return 0;
}

int path_clean(const char *path, char *buf)
{
	size_t len = 0;
	const char *p = path;

	if (path[0] != '/')
		return -EINVAL;
	for (;;) {
		size_t clen;

		p += strspn(p, "/");
		if (!*p)
			break;
		clen = strcspn(p, "/");
		if (clen == 2 && p[0] == '.' && p[1] == '.')
			return -EINVAL;
		if (!(clen == 1 && p[0] == '.')) {
			if (len + 1 + clen >= PATH_MAX)
				return -ENAMETOOLONG;
			buf[len++] = '/';
			memcpy(buf + len, p, clen);
			len += clen;
		}
		p += clen;
	}
	if (len == 0)
		buf[len++] = '/';
	buf[len] = '\0';
	return 0;
}
