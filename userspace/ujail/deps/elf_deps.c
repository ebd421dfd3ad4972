/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The closure of a program over what execve() and ld.so open: #! lines,
 * PT_INTERP, then DT_NEEDED breadth first, searched in the order of glibc
 * (RPATH chain, LD_LIBRARY_PATH, RUNPATH, ld.so.cache, default dirs) or of
 * musl (LD_LIBRARY_PATH, RPATH/RUNPATH chain, ld-musl-ARCH.path).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "deps/elf_deps_int.h"

void elf_deps_session_free(struct elf_deps_session *s)
{
	if (s->cache_state > 0)
		ld_cache_free(&s->cache);
	path_set_free(&s->programs);
	path_walk_memo_free(&s->walks);
	memset(s, 0, sizeof(*s));
}

/* What execve(@path) needs; @script is the #! file that named it, or NULL. */
int deps_collect_exec(struct deps_ctx *ctx, const char *path, unsigned int depth,
		      const char *script)
{
	char head[SCRIPT_HEAD + 1];
	struct found f;
	ssize_t n;
	int ret;

	ret = deps_found_open(ctx, path, &f);
	if (ret < 0) {
		if (script)
			return deps_fail(ctx, "%s: %s (interpreter of %s)", path,
					 deps_found_strerror(ret), script);
		return deps_fail(ctx, "%s: %s", path, deps_found_strerror(ret));
	}
	ret = deps_commit_found(ctx, path, &f);
	n = ret ? 0 : pread(f.fd, head, SCRIPT_HEAD, 0);
	if (n < 0)
		ret = deps_fail(ctx, "%s: %s", path, strerror(errno));
	else if (!ret && n >= 2 && head[0] == '#' && head[1] == '!')
		ret = deps_collect_script(ctx, path, head, (size_t)n, depth);
	else if (!ret && elf_has_magic(head, (size_t)n))
		ret = deps_collect_elf(ctx, path, &f);
	else if (!ret)
		ret = deps_fail(ctx, "%s: neither an ELF file nor a #! script", path);
	deps_found_release(&f);
	return ret;
}

int elf_deps_collect(const char *path, const struct elf_deps_opts *opts, struct path_set *out,
		     char *err, size_t errlen)
{
	struct deps_ctx ctx = {
		.opts = { .sysroot = "", .exec_path = ELF_DEPS_DEFAULT_PATH },
		.out = out,
		.err = err,
		.errlen = errlen,
	};
	int ret;

	if (opts) {
		if (opts->sysroot)
			ctx.opts.sysroot = opts->sysroot;
		if (opts->exec_path)
			ctx.opts.exec_path = opts->exec_path;
		ctx.opts.library_path = opts->library_path;
		ctx.opts.dst_lib = opts->dst_lib;
	}
	ctx.s = opts && opts->session ? opts->session : &ctx.own;
	if (errlen)
		err[0] = '\0';
	if (path[0] != '/')
		return deps_fail(&ctx, "%s: not an absolute path", path);
	/* The session's set has this program's closure already. */
	if (path_set_has(&ctx.s->programs, path))
		return 0;
	ret = deps_collect_exec(&ctx, path, 0, NULL);
	if (!ret && ctx.s != &ctx.own && path_set_add(&ctx.s->programs, path) < 0)
		ret = deps_oom(&ctx);
	elf_deps_session_free(&ctx.own);
	return ret;
}
