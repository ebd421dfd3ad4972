/* SPDX-License-Identifier: GPL-2.0 */
/* elf_deps' errors and path helpers; files found by name, and what they add to the set. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deps/elf_deps_int.h"
#include "deps/path_walk.h"

__attribute__((format(printf, 2, 3)))
int deps_fail(struct deps_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->err, ctx->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Appends to the message a lower layer left in ctx->err. */
__attribute__((format(printf, 2, 3)))
int deps_fail_more(struct deps_ctx *ctx, const char *fmt, ...)
{
	size_t len = strnlen(ctx->err, ctx->errlen);
	va_list ap;

	if (len + 1 >= ctx->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(ctx->err + len, ctx->errlen - len, fmt, ap);
	va_end(ap);
	return -1;
}

int deps_oom(struct deps_ctx *ctx)
{
	return deps_fail(ctx, "out of memory");
}

const char *deps_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The directory of @path (at least "/"), newly allocated. */
char *deps_dir_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash || slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

int deps_resolve(struct deps_ctx *ctx, const char *path, char *real, struct path_set *links,
		 char *host)
{
	int ret = path_walk_memo(&ctx->s->walks, ctx->opts.sysroot, path, real, links);

	return ret < 0 ? ret : sysroot_join(ctx->opts.sysroot, real, host, PATH_MAX);
}

static void found_init(struct found *f)
{
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

void deps_found_release(struct found *f)
{
	if (f->fd >= 0)
		close(f->fd);
	path_set_free(&f->links);
	found_init(f);
}

/*
 * Walks to @path and opens the regular file there. Returns 0, -errno, or
 * -ENOEXEC when it is not a regular file (see found_strerror).
 */
int deps_found_open(struct deps_ctx *ctx, const char *path, struct found *f)
{
	char host[PATH_MAX];
	int ret;

	found_init(f);
	ret = deps_resolve(ctx, path, f->real, &f->links, host);
	if (ret < 0)
		goto fail;
	/* O_NONBLOCK: a FIFO planted in a search dir must not hang us. */
	f->fd = open(host, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (f->fd < 0 || fstat(f->fd, &f->st) < 0) {
		ret = -errno;
		goto fail;
	}
	if (!S_ISREG(f->st.st_mode)) {
		ret = -ENOEXEC;
		goto fail;
	}
	return 0;
fail:
	deps_found_release(f);
	return ret;
}

const char *deps_found_strerror(int ret)
{
	return ret == -ENOEXEC ? "not a regular file" : strerror(-ret);
}

/* The symlink rule of elf_deps.h: N as named, the links met, the real file. */
int deps_commit_found(struct deps_ctx *ctx, const char *named, const struct found *f)
{
	char clean[PATH_MAX];

	if (path_clean(named, clean) == 0 && path_set_add(ctx->out, clean) < 0)
		return deps_oom(ctx);
	for (size_t i = 0; i < f->links.n; i++)
		if (path_set_add(ctx->out, f->links.paths[i]) < 0)
			return deps_oom(ctx);
	if (path_set_add(ctx->out, f->real) < 0)
		return deps_oom(ctx);
	return 0;
}

/* A configuration file the loader reads, if it exists: staged the same way. */
int deps_commit_if_exists(struct deps_ctx *ctx, const char *path)
{
	struct found f;
	int ret = deps_found_open(ctx, path, &f);

	if (ret < 0)
		return 0;
	ret = deps_commit_found(ctx, path, &f);
	deps_found_release(&f);
	return ret;
}
