/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One program's link map: the main program, its PT_INTERP and each library
 * a search (elf_deps_search.c) found, checked against the program's class
 * and machine. It calls no search: the search calls it.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deps/elf_deps_int.h"

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

void deps_program_free(struct program *p)
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
			return deps_oom(p->ctx);
		p->objs = objs;
		p->cap = cap;
	}
	p->objs[p->n++] = o;
	return 0;
}

struct dep_obj *deps_find_name(const struct program *p, const char *name)
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

/* The dynamic section of @f, whose header @info holds. */
static int obj_read_dynamic(struct deps_ctx *ctx, const char *name, const struct found *f,
			    struct elf_info *info)
{
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

/* Reads header and dynamic section of @f; the caller checks the machine. */
static int obj_read(struct deps_ctx *ctx, const char *name, const struct found *f,
		    struct elf_info *info)
{
	if (elf_read_header_sized(f->fd, (uint64_t)f->st.st_size, name, info, ctx->err,
				  ctx->errlen) < 0)
		return -1;
	return obj_read_dynamic(ctx, name, f, info);
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
	o->origin = deps_dir_name(origin_of);
	o->dev = f->st.st_dev;
	o->ino = f->st.st_ino;
	if (!o->name || !o->origin)
		goto nomem;
	if (o->info.soname && path_set_add(&o->names, o->info.soname) < 0)
		goto nomem;
	return o;
nomem:
	obj_free(o);
	deps_oom(p->ctx);
	return NULL;
}

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
int deps_try_library(struct program *p, struct dep_obj *needer, const char *needed,
		     const char *path)
{
	struct deps_ctx *ctx = p->ctx;
	struct elf_info info;
	struct dep_obj *o;
	struct found f;
	int ret;

	ret = deps_found_open(ctx, path, &f);
	if (ret < 0) {
		if (ret != -ENOENT && ret != -ENOTDIR)
			note_reason(p, path, deps_found_strerror(ret));
		return NOT_FOUND;
	}
	/* The same file under another name: the loader maps it once. */
	o = program_find_file(p, &f.st);
	if (o) {
		ret = path_set_add(&o->names, needed) < 0 ? deps_oom(ctx)
							  : deps_commit_found(ctx, path, &f);
		deps_found_release(&f);
		return ret < 0 ? -1 : FOUND;
	}
	if (elf_read_header_sized(f.fd, (uint64_t)f.st.st_size, path, &info, ctx->err,
				  ctx->errlen) < 0) {
		deps_found_release(&f);
		return deps_fail_more(ctx, " (needed by %s)", needer->name);
	}
	if (!same_machine(p, &info)) {
		note_reason(p, path, "skipped, ELF class or machine differs");
		deps_found_release(&f);
		return NOT_FOUND;
	}
	if (info.type != ET_DYN) {
		deps_found_release(&f);
		return deps_fail(ctx, "%s: not a shared object (e_type %u), needed by %s", path,
				 info.type, needer->name);
	}
	if (obj_read_dynamic(ctx, path, &f, &info) < 0) {
		deps_found_release(&f);
		return deps_fail_more(ctx, " (needed by %s)", needer->name);
	}
	o = obj_new(p, path, path, &f, &info);
	ret = o ? 0 : -1;
	if (!ret && (path_set_add(&o->names, needed) < 0 || path_set_add(&o->names, path) < 0))
		ret = deps_oom(ctx);
	if (!ret)
		ret = deps_commit_found(ctx, path, &f);
	deps_found_release(&f);
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

const struct dep_obj *deps_program_interp(const struct program *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->objs[i]->is_interp)
			return p->objs[i];
	return NULL;
}

static enum libc_kind libc_of_interp(const char *interp)
{
	return strncmp(deps_base_name(interp), "ld-musl-", 8) ? LIBC_GLIBC : LIBC_MUSL;
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

	ret = deps_found_open(ctx, interp, &f);
	if (ret < 0)
		return deps_fail(ctx, "%s: ELF interpreter %s: %s", prog->name, interp,
				 deps_found_strerror(ret));
	ret = obj_read(ctx, interp, &f, &info);
	if (ret < 0) {
		deps_found_release(&f);
		return deps_fail_more(ctx, " (ELF interpreter of %s)", prog->name);
	}
	if (!same_machine(p, &info)) {
		elf_info_free(&info);
		deps_found_release(&f);
		return deps_fail(ctx, "%s: ELF interpreter %s is for another ELF class or machine",
				 prog->name, interp);
	}
	o = obj_new(p, interp, interp, &f, &info);
	ret = o ? deps_commit_found(ctx, interp, &f) : -1;
	deps_found_release(&f);
	if (!ret && path_set_add(&o->names, interp) < 0)
		ret = deps_oom(ctx);
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

int deps_program_load(struct program *p, struct deps_ctx *ctx, const char *path,
		      const struct found *f)
{
	*p = (struct program){ .ctx = ctx };
	if (load_main(p, path, f))
		return -1;
	return p->objs[0]->info.interp ? load_interp(p, p->objs[0]) : 0;
}
