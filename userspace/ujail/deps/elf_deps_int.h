/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside elf_deps_collect() (elf_deps*.c), not for other modules:
 *
 *   elf_deps.c         execve's view: a #! script or an ELF program
 *   elf_deps_script.c  #! lines and "#!/usr/bin/env CMD"
 *   elf_deps_objs.c    one program's link map (calls no search)
 *   elf_deps_search.c  glibc's and musl's library search, DT_NEEDED
 *                      breadth first
 *   elf_deps_dst.c     $ORIGIN, $LIB, $PLATFORM
 *   elf_deps_found.c   files found by name (the symlink rule), messages
 */
#ifndef UJAIL_ELF_DEPS_INT_H
#define UJAIL_ELF_DEPS_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "deps/elf_deps.h"
#include "deps/elf_read.h"
#include "deps/ld_cache.h"
#include "deps/pathset.h"

/* The kernel reads this much of a file to find a #! line (BINPRM_BUF_SIZE). */
#define SCRIPT_HEAD	256

struct deps_ctx {
	struct elf_deps_opts opts;	/* the caller's, defaults filled in */
	struct path_set *out;
	char *err;
	size_t errlen;
	struct elf_deps_session *s;	/* the caller's, or own */
	struct elf_deps_session own;
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

/* What a search step gives: FOUND, NOT_FOUND (go on) or -1 (an error). */
enum { NOT_FOUND = 0, FOUND = 1 };

/* ---- messages and names (elf_deps_found.c) ---- */

/* The message in ctx->err; returns -1. */
__attribute__((format(printf, 2, 3)))
int deps_fail(struct deps_ctx *ctx, const char *fmt, ...);
/* Appends to the message a lower layer left in ctx->err. */
__attribute__((format(printf, 2, 3)))
int deps_fail_more(struct deps_ctx *ctx, const char *fmt, ...);
int deps_oom(struct deps_ctx *ctx);
const char *deps_base_name(const char *path);
/* The directory of @path (at least "/"), newly allocated. */
char *deps_dir_name(const char *path);

/* ---- files found by name (elf_deps_found.c) ---- */

/*
 * Walks to @path and opens the regular file there. Returns 0, -errno, or
 * -ENOEXEC when it is not a regular file (see deps_found_strerror).
 */
/*
 * Resolves @path under the sysroot: *@real as seen in the jail (the links
 * met added to @links unless NULL), @host (PATH_MAX) as the host opens it.
 * Returns 0 or -errno.
 */
int deps_resolve(struct deps_ctx *ctx, const char *path, char *real, struct path_set *links,
		 char *host);
int deps_found_open(struct deps_ctx *ctx, const char *path, struct found *f);
void deps_found_release(struct found *f);
const char *deps_found_strerror(int ret);
/* The symlink rule of elf_deps.h: N as named, the links met, the real file. */
int deps_commit_found(struct deps_ctx *ctx, const char *named, const struct found *f);
/* A configuration file the loader reads, if it exists: staged the same way. */
int deps_commit_if_exists(struct deps_ctx *ctx, const char *path);

/* ---- dynamic string tokens (elf_deps_dst.c) ---- */

const char *deps_multiarch_triplet(const struct program *p);
/*
 * Expands dynamic string tokens in @in (@len bytes) for object @o into
 * @out (PATH_MAX). Returns 0 or -1 with a message; @what names the tag.
 */
int deps_expand_dst(struct program *p, const struct dep_obj *o, const char *in, size_t len,
		    const char *what, char *out);
/* musl expands $ORIGIN only; a path with any other '$' is ignored whole. */
bool deps_musl_rpath_usable(const char *rpath);

/* ---- the link map (elf_deps_objs.c) ---- */

struct dep_obj *deps_find_name(const struct program *p, const char *name);
const struct dep_obj *deps_program_interp(const struct program *p);
/* Loads the library at @path for @needer if it suits: FOUND, NOT_FOUND, -1. */
int deps_try_library(struct program *p, struct dep_obj *needer, const char *needed,
		     const char *path);
/*
 * The ELF program @f opened as @path into @p, with its interpreter: 0, or
 * -1 with a message. deps_program_free() @p in either case.
 */
int deps_program_load(struct program *p, struct deps_ctx *ctx, const char *path,
		      const struct found *f);
void deps_program_free(struct program *p);

/* ---- the search (elf_deps_search.c) ---- */

/* The ELF program @f opened as @path, its interpreter and libraries. */
int deps_collect_elf(struct deps_ctx *ctx, const char *path, const struct found *f);

/* ---- execve's view (elf_deps.c, elf_deps_script.c) ---- */

/* What execve(@path) needs; @script is the #! file that named it, or NULL. */
int deps_collect_exec(struct deps_ctx *ctx, const char *path, unsigned int depth,
		      const char *script);
/* The #! line in @head (@len bytes read) of @path. */
int deps_collect_script(struct deps_ctx *ctx, const char *path, char *head, size_t len,
			unsigned int depth);

#endif
