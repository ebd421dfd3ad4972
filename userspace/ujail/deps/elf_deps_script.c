/* SPDX-License-Identifier: GPL-2.0 */
/* #! scripts: the interpreter line as the kernel parses it, and "#!/usr/bin/env CMD". */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "deps/elf_deps_int.h"

/* The command "env" runs: a path, or the first match on the jail's PATH. */
static int find_on_path(struct deps_ctx *ctx, const char *cmd, char *out)
{
	const char *s = ctx->opts.exec_path;

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
		if (deps_resolve(ctx, out, real, NULL, host) < 0 || stat(host, &st) < 0)
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
				 ctx->opts.exec_path);
	return deps_collect_exec(ctx, path, depth + 1, script);
}

/*
 * The kernel's #! parsing: the interpreter ends at a blank or the end of
 * the line; the rest, trimmed, is one optional argument (ignored but for
 * env). The line must end within SCRIPT_HEAD bytes unless the
 * interpreter's name does.
 */
int deps_collect_script(struct deps_ctx *ctx, const char *path, char *head, size_t len,
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
	if (deps_collect_exec(ctx, interp, depth + 1, path) < 0)
		return -1;
	if (!strcmp(deps_base_name(interp), "env"))
		return collect_env_command(ctx, path, arg, depth + 1);
	return 0;
}
