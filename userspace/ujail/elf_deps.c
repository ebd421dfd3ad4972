/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The closure of a program over what execve() and ld.so open: #! lines,
 * PT_INTERP, then DT_NEEDED breadth first, searched in the order of glibc
 * (RPATH chain, LD_LIBRARY_PATH, RUNPATH, ld.so.cache, default dirs) or of
 * musl (LD_LIBRARY_PATH, RPATH/RUNPATH chain, ld-musl-ARCH.path).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_deps.h"
#include "elf_read.h"
#include "ld_cache.h"
#include "path_walk.h"

/* The kernel reads this much of a file to find a #! line (BINPRM_BUF_SIZE). */
#define SCRIPT_HEAD	256
#define MUSL_PATH_MAX	65536
#define MUSL_DEFAULT_PATH "/lib:/usr/local/lib:/usr/lib"
#define LD_SO_CACHE	"/etc/ld.so.cache"
#ifndef EF_ARM_ABI_FLOAT_HARD
#define EF_ARM_ABI_FLOAT_HARD 0x400
#endif

struct deps_ctx {
	const char *sysroot;
	const char *library_path;
	const char *exec_path;
	const char *dst_lib;
	struct path_set *out;
	char *err;
	size_t errlen;
	struct ld_cache cache;
	int cache_state;	/* 0: not read yet, 1: loaded, -1: absent or unusable */
};

/* A file found by name: where the walk led, the links on the way, open. */
struct found {
	char real[PATH_MAX];
	struct path_set links;
	struct stat st;
	int fd;
};

/* An ELF object in one program's link map. */
struct dep_obj {
	char *name;		/* the path the loader opened */
	char *origin;		/* $ORIGIN */
	dev_t dev;
	ino_t ino;
	struct elf_info info;
	struct dep_obj *loader;	/* whose DT_NEEDED brought it; NULL for the program */
	struct path_set names;	/* DT_NEEDED names, SONAME and path it answers to */
	bool is_interp;
};

enum libc_kind { LIBC_GLIBC, LIBC_MUSL };

/* One exec'd ELF program and its loader's view. */
struct program {
	struct deps_ctx *ctx;
	enum libc_kind libc;
	unsigned char class, data;
	uint16_t machine;
	uint32_t eflags;
	struct dep_obj **objs;
	size_t n, cap;
	char *musl_path;	/* musl's system search path, once read */
	char reason[PATH_MAX + 128]; /* why the last search skipped a candidate */
};

__attribute__((format(printf, 2, 3)))
static int deps_fail(struct deps_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->err, ctx->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Appends to the message a lower layer left in ctx->err. */
__attribute__((format(printf, 2, 3)))
static int deps_fail_more(struct deps_ctx *ctx, const char *fmt, ...)
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

static int oom(struct deps_ctx *ctx)
{
	return deps_fail(ctx, "out of memory");
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The directory of @path (at least "/"), newly allocated. */
static char *dir_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash || slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

static void found_init(struct found *f)
{
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

static void found_release(struct found *f)
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
static int found_open(struct deps_ctx *ctx, const char *path, struct found *f)
{
	char host[PATH_MAX];
	int ret;

	found_init(f);
	ret = path_walk(ctx->sysroot, path, f->real, &f->links);
	if (ret == 0)
		ret = sysroot_join(ctx->sysroot, f->real, host, sizeof(host));
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
	found_release(f);
	return ret;
}

static const char *found_strerror(int ret)
{
	return ret == -ENOEXEC ? "not a regular file" : strerror(-ret);
}

/* The symlink rule of elf_deps.h: N as named, the links met, the real file. */
static int commit_found(struct deps_ctx *ctx, const char *named, const struct found *f)
{
	char clean[PATH_MAX];

	if (path_clean(named, clean) == 0 && path_set_add(ctx->out, clean) < 0)
		return oom(ctx);
	for (size_t i = 0; i < f->links.n; i++)
		if (path_set_add(ctx->out, f->links.paths[i]) < 0)
			return oom(ctx);
	if (path_set_add(ctx->out, f->real) < 0)
		return oom(ctx);
	return 0;
}

/* A configuration file the loader reads, if it exists: staged the same way. */
static int commit_if_exists(struct deps_ctx *ctx, const char *path)
{
	struct found f;
	int ret = found_open(ctx, path, &f);

	if (ret < 0)
		return 0;
	ret = commit_found(ctx, path, &f);
	found_release(&f);
	return ret;
}

static void obj_free(struct dep_obj *o)
{
	if (!o)
		return;
	free(o->name);
	free(o->origin);
	elf_info_free(&o->info);
	path_set_free(&o->names);
	free(o);
}

static void program_free(struct program *p)
{
	for (size_t i = 0; i < p->n; i++)
		obj_free(p->objs[i]);
	free(p->objs);
	free(p->musl_path);
}

static int program_append(struct program *p, struct dep_obj *o)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		struct dep_obj **objs = realloc(p->objs, cap * sizeof(*objs));

		if (!objs)
			return oom(p->ctx);
		p->objs = objs;
		p->cap = cap;
	}
	p->objs[p->n++] = o;
	return 0;
}

static struct dep_obj *program_find_name(const struct program *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (path_set_has(&p->objs[i]->names, name))
			return p->objs[i];
	return NULL;
}

static struct dep_obj *program_find_file(const struct program *p, const struct stat *st)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->objs[i]->dev == st->st_dev && p->objs[i]->ino == st->st_ino)
			return p->objs[i];
	return NULL;
}

/* Reads header and dynamic section of @f; the caller checks the machine. */
static int obj_read(struct deps_ctx *ctx, const char *name, const struct found *f,
		    struct elf_info *info)
{
	if (elf_read_header(f->fd, name, info, ctx->err, ctx->errlen) < 0)
		return -1;
	if (elf_read_dynamic(f->fd, name, info, ctx->err, ctx->errlen) < 0) {
		elf_info_free(info);
		return -1;
	}
	/* Both loaders ignore DT_RPATH when DT_RUNPATH is there. */
	if (info->runpath) {
		free(info->rpath);
		info->rpath = NULL;
	}
	return 0;
}

static bool same_machine(const struct program *p, const struct elf_info *info)
{
	return info->class == p->class && info->data == p->data && info->machine == p->machine;
}

/* Builds the link map entry for file @f opened as @name. */
static struct dep_obj *obj_new(struct program *p, const char *name, const char *origin_of,
			       const struct found *f, struct elf_info *info)
{
	struct dep_obj *o = calloc(1, sizeof(*o));

	if (!o)
		goto nomem;
	o->info = *info;
	memset(info, 0, sizeof(*info));
	o->name = strdup(name);
	o->origin = dir_name(origin_of);
	o->dev = f->st.st_dev;
	o->ino = f->st.st_ino;
	if (!o->name || !o->origin)
		goto nomem;
	if (o->info.soname && path_set_add(&o->names, o->info.soname) < 0)
		goto nomem;
	return o;
nomem:
	obj_free(o);
	oom(p->ctx);
	return NULL;
}

/* ---- $ORIGIN, $LIB, $PLATFORM ---- */

static const char *multiarch_triplet(const struct program *p)
{
	bool is64 = p->class == ELFCLASS64;

	switch (p->machine) {
	case EM_X86_64:
		return is64 ? "x86_64-linux-gnu" : "x86_64-linux-gnux32";
	case EM_386:
		return "i386-linux-gnu";
	case EM_AARCH64:
		return is64 ? "aarch64-linux-gnu" : NULL;
	case EM_ARM:
		return p->eflags & EF_ARM_ABI_FLOAT_HARD ? "arm-linux-gnueabihf" : "arm-linux-gnueabi";
	case EM_PPC64:
		return p->data == ELFDATA2LSB ? "powerpc64le-linux-gnu" : "powerpc64-linux-gnu";
	case EM_S390:
		return is64 ? "s390x-linux-gnu" : NULL;
	case EM_RISCV:
		return is64 ? "riscv64-linux-gnu" : NULL;
	}
	return NULL;
}

/* AT_PLATFORM as the kernel gives it, for the machines we know. */
static const char *platform_name(const struct program *p)
{
	switch (p->machine) {
	case EM_X86_64:
		return "x86_64";
	case EM_386:
		return "i686";
	case EM_AARCH64:
		return "aarch64";
	}
	return NULL;
}

static void dst_lib_value(const struct program *p, char *buf, size_t len)
{
	const char *triplet = multiarch_triplet(p);

	if (p->ctx->dst_lib)
		snprintf(buf, len, "%s", p->ctx->dst_lib);
	else if (triplet)
		snprintf(buf, len, "lib/%s", triplet);
	else
		snprintf(buf, len, "%s", p->class == ELFCLASS64 ? "lib64" : "lib");
}

/* Length of the $NAME or ${NAME} reference at @s if it names @var, else 0. */
static size_t dst_match(const char *s, const char *var)
{
	size_t n = strlen(var);

	if (s[1] == '{')
		return !strncmp(s + 2, var, n) && s[2 + n] == '}' ? n + 3 : 0;
	if (strncmp(s + 1, var, n))
		return 0;
	if (s[1 + n] == '_' || (s[1 + n] >= 'A' && s[1 + n] <= 'Z') ||
	    (s[1 + n] >= 'a' && s[1 + n] <= 'z') || (s[1 + n] >= '0' && s[1 + n] <= '9'))
		return 0;
	return n + 1;
}

/*
 * Expands dynamic string tokens in @in (@len bytes) for object @o into
 * @out (PATH_MAX). Unknown tokens stay as they are (glibc). Returns 0 or
 * -1 with a message; @what names the tag for it.
 */
static int expand_dst(struct program *p, const struct dep_obj *o, const char *in, size_t len,
		      const char *what, char *out)
{
	size_t used = 0;

	for (size_t i = 0; i < len;) {
		char value[PATH_MAX];
		const char *add = NULL;
		size_t skip, n;

		if (in[i] != '$') {
			if (used + 1 >= PATH_MAX)
				goto too_long;
			out[used++] = in[i++];
			continue;
		}
		if ((skip = dst_match(in + i, "ORIGIN"))) {
			add = o->origin;
		} else if ((skip = dst_match(in + i, "PLATFORM"))) {
			add = platform_name(p);
			if (!add)
				return deps_fail(p->ctx, "%s: $PLATFORM in %s is unknown for ELF machine %u",
						 o->name, what, p->machine);
		} else if ((skip = dst_match(in + i, "LIB"))) {
			dst_lib_value(p, value, sizeof(value));
			add = value;
		} else {
			skip = 1;
			add = "$";
		}
		n = strlen(add);
		if (used + n >= PATH_MAX)
			goto too_long;
		memcpy(out + used, add, n);
		used += n;
		i += skip;
	}
	out[used] = '\0';
	return 0;
too_long:
	return deps_fail(p->ctx, "%s: %s expands beyond PATH_MAX", o->name, what);
}

/* musl expands $ORIGIN only; a path with any other '$' is ignored whole. */
static bool musl_rpath_usable(const char *rpath)
{
	for (const char *s = strchr(rpath, '$'); s; s = strchr(s + 1, '$'))
		if (!dst_match(s, "ORIGIN"))
			return false;
	return true;
}

/* ---- searching ---- */

enum { NOT_FOUND = 0, FOUND = 1 };

static void note_reason(struct program *p, const char *path, const char *why)
{
	if (!p->reason[0])
		snprintf(p->reason, sizeof(p->reason), "%s: %s", path, why);
}

/*
 * Loads the library at @path for @needer (which asked for @needed) if it
 * is there and is for this machine. Returns FOUND, NOT_FOUND (searching
 * goes on) or -1 for an error that stops the loader too.
 */
static int try_library(struct program *p, struct dep_obj *needer, const char *needed,
		       const char *path)
{
	struct deps_ctx *ctx = p->ctx;
	struct elf_info info;
	struct dep_obj *o;
	struct found f;
	int ret;

	ret = found_open(ctx, path, &f);
	if (ret < 0) {
		if (ret != -ENOENT && ret != -ENOTDIR)
			note_reason(p, path, found_strerror(ret));
		return NOT_FOUND;
	}
	/* The same file under another name: the loader maps it once. */
	o = program_find_file(p, &f.st);
	if (o) {
		ret = path_set_add(&o->names, needed) < 0 ? oom(ctx) : commit_found(ctx, path, &f);
		found_release(&f);
		return ret < 0 ? -1 : FOUND;
	}
	if (elf_read_header(f.fd, path, &info, ctx->err, ctx->errlen) < 0) {
		found_release(&f);
		return deps_fail_more(ctx, " (needed by %s)", needer->name);
	}
	if (!same_machine(p, &info)) {
		note_reason(p, path, "skipped, ELF class or machine differs");
		found_release(&f);
		return NOT_FOUND;
	}
	if (info.type != ET_DYN) {
		found_release(&f);
		return deps_fail(ctx, "%s: not a shared object (e_type %u), needed by %s", path,
				 info.type, needer->name);
	}
	if (obj_read(ctx, path, &f, &info) < 0) {
		found_release(&f);
		return deps_fail_more(ctx, " (needed by %s)", needer->name);
	}
	o = obj_new(p, path, path, &f, &info);
	ret = o ? 0 : -1;
	if (!ret && (path_set_add(&o->names, needed) < 0 || path_set_add(&o->names, path) < 0))
		ret = oom(ctx);
	if (!ret)
		ret = commit_found(ctx, path, &f);
	found_release(&f);
	if (!ret) {
		o->loader = needer;
		ret = program_append(p, o);
	}
	if (ret < 0) {
		obj_free(o);
		return -1;
	}
	return FOUND;
}

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

		if (expand_dst(p, dst_obj, s, len, what, dir) < 0)
			return -1;
		s += len;
		s += strspn(s, seps);
		/* Relative entries depend on the working directory: not for a jail. */
		if (dir[0] != '/')
			continue;
		n = snprintf(path, sizeof(path), "%s/%s", dir, needed);
		if (n < 0 || (size_t)n >= sizeof(path))
			continue;
		ret = try_library(p, needer, needed, path);
		if (ret != NOT_FOUND)
			return ret;
	}
	return NOT_FOUND;
}

static int glibc_cache_ready(struct deps_ctx *ctx)
{
	char host[PATH_MAX], real[PATH_MAX], ignored[256];

	if (ctx->cache_state)
		return ctx->cache_state > 0;
	ctx->cache_state = -1;
	if (path_walk(ctx->sysroot, LD_SO_CACHE, real, NULL) < 0 ||
	    sysroot_join(ctx->sysroot, real, host, sizeof(host)) < 0)
		return 0;
	/* ld.so ignores an unusable cache; so do we. */
	if (ld_cache_load(host, LD_SO_CACHE, &ctx->cache, ignored, sizeof(ignored)) != 0)
		return 0;
	ctx->cache_state = 1;
	if (commit_if_exists(ctx, LD_SO_CACHE) < 0)
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
	while ((path = ld_cache_next(&p->ctx->cache, needed, &abi, &pos))) {
		if (path[0] != '/')
			continue;
		ret = try_library(p, needer, needed, path);
		if (ret != NOT_FOUND || !abi.any)
			return ret;
	}
	return NOT_FOUND;
}

static int try_glibc_default_dirs(struct program *p, struct dep_obj *needer, const char *needed)
{
	const char *triplet = multiarch_triplet(p);
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
	if (ret == NOT_FOUND && p->ctx->library_path)
		ret = try_path_list(p, needer, needed, p->ctx->library_path, ":;", p->objs[0],
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
	const char *base = base_name(name) + strlen("ld-musl-");
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

	ret = path_walk(p->ctx->sysroot, etc, real, NULL);
	if (!ret)
		ret = sysroot_join(p->ctx->sysroot, real, host, sizeof(host));
	fd = ret ? -1 : open(host, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (!ret && fd < 0)
		ret = -errno;
	/* Only a missing file means the default; an unreadable one, no path. */
	p->musl_path = calloc(1, MUSL_PATH_MAX + sizeof(MUSL_DEFAULT_PATH));
	if (!p->musl_path) {
		if (fd >= 0)
			close(fd);
		return oom(p->ctx);
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
	return commit_if_exists(p->ctx, etc);
}

static const struct dep_obj *program_interp(const struct program *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->objs[i]->is_interp)
			return p->objs[i];
	return NULL;
}

static int search_musl(struct program *p, struct dep_obj *needer, const char *needed)
{
	int ret = NOT_FOUND;

	if (strlen(needed) > NAME_MAX)
		return NOT_FOUND;
	if (p->ctx->library_path)
		ret = try_path_list(p, needer, needed, p->ctx->library_path, ":\n", p->objs[0],
				    "the library path");
	for (struct dep_obj *l = needer; l && ret == NOT_FOUND; l = l->loader) {
		const char *rpath = l->info.runpath ? l->info.runpath : l->info.rpath;

		if (rpath && musl_rpath_usable(rpath))
			ret = try_path_list(p, needer, needed, rpath, ":\n", l, "DT_RUNPATH");
	}
	if (ret != NOT_FOUND)
		return ret;
	if (!p->musl_path && musl_sys_path(p, program_interp(p)) < 0)
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
		if (expand_dst(p, needer, needed, strlen(needed), "DT_NEEDED", path) < 0)
			return -1;
	} else {
		snprintf(path, sizeof(path), "%s", needed);
	}
	if (path[0] != '/')
		return deps_fail(p->ctx, "%s: relative DT_NEEDED path depends on the working directory, needed by %s",
				 needed, needer->name);
	if (program_find_name(p, path))
		return 0;
	ret = try_library(p, needer, needed, path);
	if (ret == NOT_FOUND)
		return search_failed(p, needer, needed);
	return ret < 0 ? -1 : 0;
}

static int load_needed(struct program *p, struct dep_obj *needer, const char *needed)
{
	int ret;

	p->reason[0] = '\0';
	if (program_find_name(p, needed))
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

/* ---- programs ---- */

static enum libc_kind libc_of_interp(const char *interp)
{
	return strncmp(base_name(interp), "ld-musl-", 8) ? LIBC_GLIBC : LIBC_MUSL;
}

/* PT_INTERP: must exist and suit the program; it answers to its SONAME. */
static int load_interp(struct program *p, const struct dep_obj *prog)
{
	struct deps_ctx *ctx = p->ctx;
	const char *interp = prog->info.interp;
	struct elf_info info;
	struct dep_obj *o;
	struct found f;
	int ret;

	ret = found_open(ctx, interp, &f);
	if (ret < 0)
		return deps_fail(ctx, "%s: ELF interpreter %s: %s", prog->name, interp,
				 found_strerror(ret));
	ret = obj_read(ctx, interp, &f, &info);
	if (ret < 0) {
		found_release(&f);
		return deps_fail_more(ctx, " (ELF interpreter of %s)", prog->name);
	}
	if (!same_machine(p, &info)) {
		elf_info_free(&info);
		found_release(&f);
		return deps_fail(ctx, "%s: ELF interpreter %s is for another ELF class or machine",
				 prog->name, interp);
	}
	o = obj_new(p, interp, interp, &f, &info);
	ret = o ? commit_found(ctx, interp, &f) : -1;
	found_release(&f);
	if (!ret && path_set_add(&o->names, interp) < 0)
		ret = oom(ctx);
	if (!ret) {
		o->is_interp = true;
		ret = program_append(p, o);
	}
	if (ret < 0)
		obj_free(o);
	return ret;
}

/* The main program: $ORIGIN is its real directory (/proc/self/exe). */
static int load_main(struct program *p, const char *path, const struct found *f)
{
	struct deps_ctx *ctx = p->ctx;
	struct elf_info info;
	struct dep_obj *o;

	if (obj_read(ctx, path, f, &info) < 0)
		return -1;
	if (info.type != ET_EXEC && info.type != ET_DYN) {
		elf_info_free(&info);
		return deps_fail(ctx, "%s: not an executable (ELF type %u)", path, info.type);
	}
	p->class = info.class;
	p->data = info.data;
	p->machine = info.machine;
	p->eflags = info.flags;
	p->libc = info.interp ? libc_of_interp(info.interp) : LIBC_GLIBC;
	o = obj_new(p, path, f->real, f, &info);
	if (!o)
		return -1;
	if (program_append(p, o) < 0) {
		obj_free(o);
		return -1;
	}
	if (!o->info.interp && o->info.n_needed)
		return deps_fail(ctx, "%s: needs shared libraries but has no PT_INTERP", path);
	return 0;
}

static int collect_elf(struct deps_ctx *ctx, const char *path, const struct found *f)
{
	struct program p = { .ctx = ctx };
	int ret;

	ret = load_main(&p, path, f);
	if (!ret && p.objs[0]->info.interp)
		ret = load_interp(&p, p.objs[0]);
	/* Breadth first, as ld.so maps them: that decides each one's loader. */
	for (size_t i = 0; !ret && i < p.n; i++) {
		struct dep_obj *o = p.objs[i];

		if (o->is_interp)
			continue;
		for (size_t j = 0; !ret && j < o->info.n_needed; j++)
			ret = load_needed(&p, o, o->info.needed[j]);
	}
	program_free(&p);
	return ret;
}

static int collect_exec(struct deps_ctx *ctx, const char *path, unsigned int depth,
			const char *script);

/* The command "env" runs: a path, or the first match on the jail's PATH. */
static int find_on_path(struct deps_ctx *ctx, const char *cmd, char *out)
{
	const char *s = ctx->exec_path;

	if (strchr(cmd, '/')) {
		snprintf(out, PATH_MAX, "%s", cmd);
		return out[0] == '/' ? 0 : -1;
	}
	while (*s) {
		size_t len = strcspn(s, ":");
		char real[PATH_MAX], host[PATH_MAX];
		struct stat st;
		int n;

		n = snprintf(out, PATH_MAX, "%.*s/%s", (int)len, s, cmd);
		s += len;
		s += strspn(s, ":");
		if (out[0] != '/' || n < 0 || n >= PATH_MAX)
			continue;
		if (path_walk(ctx->sysroot, out, real, NULL) < 0 ||
		    sysroot_join(ctx->sysroot, real, host, sizeof(host)) < 0 || stat(host, &st) < 0)
			continue;
		if (S_ISREG(st.st_mode) && (st.st_mode & 0111))
			return 0;
	}
	return -1;
}

/*
 * "#!/usr/bin/env CMD": the kernel passes everything after the interpreter
 * as one argument, so CMD is that whole string unless it starts with -S
 * (split it, skip NAME=VALUE). Other env options are not followed.
 */
static int env_command(struct deps_ctx *ctx, const char *script, const char *arg, char *cmd)
{
	size_t len;

	if (!strncmp(arg, "-S", 2)) {
		arg += 2;
		for (;;) {
			arg += strspn(arg, " \t");
			len = strcspn(arg, " \t");
			if (!memchr(arg, '=', len))
				break;
			arg += len;
		}
	} else {
		len = strlen(arg);
	}
	if (!len)
		return deps_fail(ctx, "%s: #! runs env without a command", script);
	if (arg[0] == '-')
		return deps_fail(ctx, "%s: #! env option \"%.*s\" is not supported", script, (int)len,
				 arg);
	snprintf(cmd, PATH_MAX, "%.*s", (int)len, arg);
	return 0;
}

static int collect_env_command(struct deps_ctx *ctx, const char *script, const char *arg,
			       unsigned int depth)
{
	char cmd[PATH_MAX], path[PATH_MAX];

	if (env_command(ctx, script, arg, cmd) < 0)
		return -1;
	if (find_on_path(ctx, cmd, path) < 0)
		return deps_fail(ctx, "%s: \"%s\" (run by #! env) not found in PATH=%s", script, cmd,
				 ctx->exec_path);
	return collect_exec(ctx, path, depth + 1, script);
}

/*
 * The kernel's #! parsing: the interpreter ends at a blank or the end of
 * the line; the rest, trimmed, is one optional argument (ignored but for
 * env). The line must end within SCRIPT_HEAD bytes unless the
 * interpreter's name does.
 */
static int collect_script(struct deps_ctx *ctx, const char *path, char *head, size_t len,
			  unsigned int depth)
{
	char *end = memchr(head, '\n', len);
	char *interp, *arg, *s;

	if (!end)
		end = head + len;
	*end = '\0';
	interp = head + 2 + strspn(head + 2, " \t");
	s = interp + strcspn(interp, " \t");
	if (s == interp)
		return deps_fail(ctx, "%s: empty #! line", path);
	if (s == head + len && len == SCRIPT_HEAD)
		return deps_fail(ctx, "%s: #! interpreter name longer than %d bytes", path,
				 SCRIPT_HEAD);
	arg = s + strspn(s, " \t");
	*s = '\0';
	for (s = arg + strlen(arg); s > arg && (s[-1] == ' ' || s[-1] == '\t'); )
		*--s = '\0';
	if (interp[0] != '/')
		return deps_fail(ctx, "%s: #! interpreter \"%s\" is not an absolute path", path, interp);
	if (depth >= ELF_DEPS_MAX_INTERP)
		return deps_fail(ctx, "%s: more than %d levels of #! interpreters (a loop?)", path,
				 ELF_DEPS_MAX_INTERP);
	if (collect_exec(ctx, interp, depth + 1, path) < 0)
		return -1;
	if (!strcmp(base_name(interp), "env"))
		return collect_env_command(ctx, path, arg, depth + 1);
	return 0;
}

/* What execve(@path) needs; @script is the #! file that named it, or NULL. */
static int collect_exec(struct deps_ctx *ctx, const char *path, unsigned int depth,
			const char *script)
{
	char head[SCRIPT_HEAD + 1];
	struct found f;
	ssize_t n;
	int ret;

	ret = found_open(ctx, path, &f);
	if (ret < 0) {
		if (script)
			return deps_fail(ctx, "%s: %s (interpreter of %s)", path, found_strerror(ret),
					 script);
		return deps_fail(ctx, "%s: %s", path, found_strerror(ret));
	}
	ret = commit_found(ctx, path, &f);
	n = ret ? 0 : pread(f.fd, head, SCRIPT_HEAD, 0);
	if (n < 0)
		ret = deps_fail(ctx, "%s: %s", path, strerror(errno));
	else if (!ret && n >= 2 && head[0] == '#' && head[1] == '!')
		ret = collect_script(ctx, path, head, (size_t)n, depth);
	else if (!ret && elf_has_magic(head, (size_t)n))
		ret = collect_elf(ctx, path, &f);
	else if (!ret)
		ret = deps_fail(ctx, "%s: neither an ELF file nor a #! script", path);
	found_release(&f);
	return ret;
}

int elf_deps_collect(const char *path, const struct elf_deps_opts *opts, struct path_set *out,
		     char *err, size_t errlen)
{
	struct deps_ctx ctx = {
		.sysroot = "",
		.exec_path = ELF_DEPS_DEFAULT_PATH,
		.out = out,
		.err = err,
		.errlen = errlen,
	};
	int ret;

	if (opts) {
		if (opts->sysroot)
			ctx.sysroot = opts->sysroot;
		if (opts->exec_path)
			ctx.exec_path = opts->exec_path;
		ctx.library_path = opts->library_path;
		ctx.dst_lib = opts->dst_lib;
	}
	if (errlen)
		err[0] = '\0';
	if (path[0] != '/')
		return deps_fail(&ctx, "%s: not an absolute path", path);
	ret = collect_exec(&ctx, path, 0, NULL);
	if (ctx.cache_state > 0)
		ld_cache_free(&ctx.cache);
	return ret;
}
