/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a DT_NEEDED name is looked for: glibc's order (RPATH chain,
 * LD_LIBRARY_PATH, RUNPATH, ld.so.cache, default dirs) or musl's
 * (LD_LIBRARY_PATH, RPATH/RUNPATH chain, ld-musl-ARCH.path); and the
 * walk over a program's DT_NEEDED, which grows its link map (elf_deps_objs.c).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deps/elf_deps_int.h"

#define MUSL_PATH_MAX	65536
#define MUSL_DEFAULT_PATH "/lib:/usr/local/lib:/usr/lib"
#define LD_SO_CACHE	"/etc/ld.so.cache"

/*
 * Tries @needed in each directory of the list @list (separators @seps),
 * expanding tokens for @dst_obj (musl: no expansion but $ORIGIN).
 */
static int try_path_list(struct program *p, struct dep_obj *needer, const char *needed,
			 const char *list, const char *seps, const struct dep_obj *dst_obj,
			 const char *what)
{
	const char *s = list;

	while (*s) {
		size_t len = strcspn(s, seps);
		char dir[PATH_MAX], path[PATH_MAX];
		int ret, n;

		if (deps_expand_dst(p, dst_obj, s, len, what, dir) < 0)
			return -1;
		s += len;
		s += strspn(s, seps);
		/* Relative entries depend on the working directory: not for a jail. */
		if (dir[0] != '/')
			continue;
		n = snprintf(path, sizeof(path), "%s/%s", dir, needed);
		if (n < 0 || (size_t)n >= sizeof(path))
			continue;
		ret = deps_try_library(p, needer, needed, path);
		if (ret != NOT_FOUND)
			return ret;
	}
	return NOT_FOUND;
}

static int glibc_cache_ready(struct deps_ctx *ctx)
{
	char host[PATH_MAX], real[PATH_MAX], ignored[256];
	struct elf_deps_session *s = ctx->s;

	if (s->cache_state)
		return s->cache_state > 0;
	s->cache_state = -1;
	if (deps_resolve(ctx, LD_SO_CACHE, real, NULL, host) < 0)
		return 0;
	/* ld.so ignores an unusable cache; so do we. */
	if (ld_cache_load(host, LD_SO_CACHE, &s->cache, ignored, sizeof(ignored)) != 0)
		return 0;
	s->cache_state = 1;
	if (deps_commit_if_exists(ctx, LD_SO_CACHE) < 0)
		return -1;
	return 1;
}

static int try_glibc_cache(struct program *p, struct dep_obj *needer, const char *needed)
{
	struct ld_cache_abi abi;
	const char *path;
	size_t pos = 0;
	int ret;

	ret = glibc_cache_ready(p->ctx);
	if (ret <= 0)
		return ret;
	ld_cache_abi(p->class, p->machine, p->eflags, &abi);
	/* ld.so takes the first match only; with an unknown ABI, the ELF check picks. */
	while ((path = ld_cache_next(&p->ctx->s->cache, needed, &abi, &pos))) {
		if (path[0] != '/')
			continue;
		ret = deps_try_library(p, needer, needed, path);
		if (ret != NOT_FOUND || !abi.any)
			return ret;
	}
	return NOT_FOUND;
}

static int try_glibc_default_dirs(struct program *p, struct dep_obj *needer, const char *needed)
{
	const char *triplet = deps_multiarch_triplet(p);
	char dirs[512];
	int n = 0;

	if (triplet)
		n = snprintf(dirs, sizeof(dirs), "/lib/%s:/usr/lib/%s:", triplet, triplet);
	if (p->machine == EM_X86_64 && p->class == ELFCLASS32)
		n += snprintf(dirs + n, sizeof(dirs) - (size_t)n, "/libx32:/usr/libx32:");
	else if (p->class == ELFCLASS64)
		n += snprintf(dirs + n, sizeof(dirs) - (size_t)n, "/lib64:/usr/lib64:");
	snprintf(dirs + n, sizeof(dirs) - (size_t)n, "/lib:/usr/lib");
	return try_path_list(p, needer, needed, dirs, ":", needer, "default directories");
}

static int search_glibc(struct program *p, struct dep_obj *needer, const char *needed)
{
	int ret = NOT_FOUND;

	/* DT_RPATH of the needer, then of whatever loaded it, up to the program. */
	if (!needer->info.runpath)
		for (struct dep_obj *l = needer; l && ret == NOT_FOUND; l = l->loader)
			if (l->info.rpath)
				ret = try_path_list(p, needer, needed, l->info.rpath, ":", l,
						    "DT_RPATH");
	if (ret == NOT_FOUND && p->ctx->opts.library_path)
		ret = try_path_list(p, needer, needed, p->ctx->opts.library_path, ":;", p->objs[0],
				    "the library path");
	if (ret == NOT_FOUND && needer->info.runpath)
		ret = try_path_list(p, needer, needed, needer->info.runpath, ":", needer,
				    "DT_RUNPATH");
	if (ret == NOT_FOUND && !needer->info.nodeflib)
		ret = try_glibc_cache(p, needer, needed);
	if (ret == NOT_FOUND && !needer->info.nodeflib)
		ret = try_glibc_default_dirs(p, needer, needed);
	return ret;
}

/* musl reads <prefix>/etc/ld-musl-ARCH.path, prefix = PT_INTERP minus its last two components. */
static int musl_sys_path(struct program *p, const struct dep_obj *ldso)
{
	const char *name = ldso->name, *t = name, *z = name;
	char arch[64], etc[PATH_MAX], host[PATH_MAX], real[PATH_MAX];
	const char *base = deps_base_name(name) + strlen("ld-musl-");
	size_t alen = strcspn(base, ".");
	ssize_t n;
	int fd, ret;

	for (const char *s = name; *s; s++)
		if (*s == '/') {
			z = t;
			t = s;
		}
	if (alen >= sizeof(arch))
		alen = sizeof(arch) - 1;
	memcpy(arch, base, alen);
	arch[alen] = '\0';
	snprintf(etc, sizeof(etc), "%.*s/etc/ld-musl-%s.path", (int)(z - name), name, arch);

	ret = deps_resolve(p->ctx, etc, real, NULL, host);
	fd = ret ? -1 : open(host, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (!ret && fd < 0)
		ret = -errno;
	/* Only a missing file means the default; an unreadable one, no path. */
	p->musl_path = calloc(1, MUSL_PATH_MAX + sizeof(MUSL_DEFAULT_PATH));
	if (!p->musl_path) {
		if (fd >= 0)
			close(fd);
		return deps_oom(p->ctx);
	}
	if (ret == -ENOENT || ret == -ENOTDIR)
		strcpy(p->musl_path, MUSL_DEFAULT_PATH);
	if (fd < 0)
		return 0;
	/* Read up to a NUL, as musl does; an empty file: no system path at all. */
	n = read(fd, p->musl_path, MUSL_PATH_MAX);
	close(fd);
	if (n < 0)
		p->musl_path[0] = '\0';
	return deps_commit_if_exists(p->ctx, etc);
}


static int search_musl(struct program *p, struct dep_obj *needer, const char *needed)
{
	int ret = NOT_FOUND;

	if (strlen(needed) > NAME_MAX)
		return NOT_FOUND;
	if (p->ctx->opts.library_path)
		ret = try_path_list(p, needer, needed, p->ctx->opts.library_path, ":\n", p->objs[0],
				    "the library path");
	for (struct dep_obj *l = needer; l && ret == NOT_FOUND; l = l->loader) {
		const char *rpath = l->info.runpath ? l->info.runpath : l->info.rpath;

		if (rpath && deps_musl_rpath_usable(rpath))
			ret = try_path_list(p, needer, needed, rpath, ":\n", l, "DT_RUNPATH");
	}
	if (ret != NOT_FOUND)
		return ret;
	if (!p->musl_path && musl_sys_path(p, deps_program_interp(p)) < 0)
		return -1;
	return try_path_list(p, needer, needed, p->musl_path, ":\n", needer, "musl's path");
}

/* musl's dynamic linker is libc itself: these names are all "already loaded". */
static bool musl_builtin(const char *name)
{
	static const char *const builtin[] = { "c", "pthread", "rt", "m", "dl", "util", "xnet" };

	if (strncmp(name, "lib", 3))
		return false;
	for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++) {
		size_t n = strlen(builtin[i]);

		if (!strncmp(name + 3, builtin[i], n) && name[3 + n] == '.')
			return true;
	}
	return false;
}

static int search_failed(struct program *p, struct dep_obj *needer, const char *needed)
{
	if (p->reason[0])
		return deps_fail(p->ctx, "%s: library not found, needed by %s (%s)", needed,
				 needer->name, p->reason);
	return deps_fail(p->ctx, "%s: library not found, needed by %s", needed, needer->name);
}

/* A DT_NEEDED with a slash is a path: tokens expanded (glibc), no search. */
static int load_by_path(struct program *p, struct dep_obj *needer, const char *needed)
{
	char path[PATH_MAX];
	int ret;

	if (p->libc == LIBC_GLIBC) {
		if (deps_expand_dst(p, needer, needed, strlen(needed), "DT_NEEDED", path) < 0)
			return -1;
	} else {
		snprintf(path, sizeof(path), "%s", needed);
	}
	if (path[0] != '/')
		return deps_fail(p->ctx, "%s: relative DT_NEEDED path depends on the working directory, needed by %s",
				 needed, needer->name);
	if (deps_find_name(p, path))
		return 0;
	ret = deps_try_library(p, needer, needed, path);
	if (ret == NOT_FOUND)
		return search_failed(p, needer, needed);
	return ret < 0 ? -1 : 0;
}

/* Finds and loads DT_NEEDED @needed of @needer, unless already there: 0 or -1. */
static int load_needed(struct program *p, struct dep_obj *needer, const char *needed)
{
	int ret;

	p->reason[0] = '\0';
	if (deps_find_name(p, needed))
		return 0;
	if (p->libc == LIBC_MUSL && musl_builtin(needed))
		return 0;
	if (strchr(needed, '/'))
		return load_by_path(p, needer, needed);
	if (p->libc == LIBC_GLIBC)
		ret = search_glibc(p, needer, needed);
	else
		ret = search_musl(p, needer, needed);
	if (ret == NOT_FOUND)
		return search_failed(p, needer, needed);
	return ret < 0 ? -1 : 0;
}

int deps_collect_elf(struct deps_ctx *ctx, const char *path, const struct found *f)
{
	struct program p;
	int ret = deps_program_load(&p, ctx, path, f);

	/* Breadth first, as ld.so maps them: that decides each one's loader. */
	for (size_t i = 0; !ret && i < p.n; i++) {
		struct dep_obj *o = p.objs[i];

		if (o->is_interp)
			continue;
		for (size_t j = 0; !ret && j < o->info.n_needed; j++)
			ret = load_needed(&p, o, o->info.needed[j]);
	}
	deps_program_free(&p);
	return ret;
}
