// SPDX-License-Identifier: GPL-2.0
/*
 * The -r/-w paths, taken as procd's ujail takes them: a path the host
 * does not have is skipped (init scripts list optional files such as
 * dnsmasq's /etc/ethers), and a program or script among them brings what
 * it needs to run, as the command does (a -r /bin/id run by a shell).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deps/elf_deps.h"
#include "deps/elf_read.h"
#include "plan/plan.h"
#include "plan/plan_paths.h"
#include "seccomp/errmsg.h"

/* Absent: the host has nothing there (a dangling link counts as nothing). */
static bool path_absent(const char *path)
{
	struct stat st;

	return stat(path, &st) < 0 && (errno == ENOENT || errno == ENOTDIR);
}

/* An ELF file the kernel runs: an executable, or a shared object with an interpreter (PIE). */
static bool elf_is_program(int fd, const struct stat *st, const char *path)
{
	struct elf_info info = { 0 };
	char err[ERR_MAX];
	bool program = false;

	if (elf_read_header_sized(fd, (uint64_t)st->st_size, path, &info, err, sizeof(err)) == 0 &&
	    elf_read_dynamic(fd, path, &info, err, sizeof(err)) == 0)
		program = info.type == ET_EXEC || (info.type == ET_DYN && info.interp);
	elf_info_free(&info);
	return program;
}

/* A regular file the kernel would exec: a program (not a library) or a #! script. */
static bool path_is_program(const char *path)
{
	char magic[4];
	struct stat st;
	bool program = false;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    pread(fd, magic, sizeof(magic), 0) == (ssize_t)sizeof(magic)) {
		if (elf_has_magic(magic, sizeof(magic)))
			program = elf_is_program(fd, &st, path);
		else
			program = !memcmp(magic, "#!", 2);
	}
	close(fd);
	return program;
}

/*
 * Its interpreter and libraries join the command's. A file they cannot be
 * found for (a library of another machine, a broken link) is still staged
 * as asked, with a warning: the service may only read it.
 */
static void add_program_deps(struct jail_plan *p, const struct jail_path *jp)
{
	const struct elf_deps_opts opts = { .session = &p->deps_session };
	char err[ERR_MAX];

	if (!path_is_program(jp->src))
		return;
	if (elf_deps_collect(jp->src, &opts, &p->deps, err, sizeof(err)) < 0)
		jail_msg(p, "warning: %s %s: what it needs to run is not staged: %s",
			 jp->writable ? "-w" : "-r", jp->src, err);
}

int jail_plan_paths(struct jail_plan *p)
{
	const struct jail_opts *o = p->o;

	p->paths = calloc(o->n_paths ? o->n_paths : 1, sizeof(*p->paths));
	if (!p->paths)
		return -1;
	for (size_t i = 0; i < o->n_paths; i++) {
		const struct jail_path *jp = &o->paths[i];

		if (path_absent(jp->src)) {
			if (o->debug)
				jail_msg(p, "%s %s: not on the host: skipped",
					 jp->writable ? "-w" : "-r", jp->src);
			continue;
		}
		add_program_deps(p, jp);
		p->paths[p->n_paths++] = *jp;
	}
	return 0;
}
