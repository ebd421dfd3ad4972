/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running a command under a compiled program (ujail-seccomp run).
 *
 * Dynamic programs get the program through the preload shim: a sealed
 * memfd named in UJAIL_SECCOMP_FD, the shim in LD_PRELOAD (the musl or the
 * glibc one, after the program's PT_INTERP). The shim installs the filter
 * right before main(). Static programs cannot preload: the runner's child
 * installs the filter right before execve(), so the policy must allow
 * execve and the libc's start-up calls (UJS_STATIC_STARTUP_CALLS).
 */
#ifndef UJS_LOAD_H
#define UJS_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "install.h"

/*
 * What a static program's policy must allow before its main() runs, as
 * measured (strace) on x86_64 with glibc 2.36 and musl 1.2.3; stdio adds
 * newfstatat/ioctl and write/writev on the first output.
 */
#define UJS_STATIC_STARTUP_GLIBC \
	"execve brk arch_prctl set_tid_address set_robust_list rseq prlimit64 " \
	"readlink (readlinkat off x86) getrandom mprotect exit_group"
#define UJS_STATIC_STARTUP_MUSL "execve arch_prctl set_tid_address exit_group"

/* Write a program file (program.h format) to @fd. */
int ujs_program_write(int fd, const struct sock_filter *insns, size_t len,
		      uint32_t audit_arch, uint32_t flags, char *err,
		      size_t errlen);

/* How a command is linked, from its ELF program headers. */
enum ujs_link {
	UJS_LINK_STATIC,	/* no PT_INTERP */
	UJS_LINK_GLIBC,		/* PT_INTERP other than ld-musl-* */
	UJS_LINK_MUSL,		/* PT_INTERP ld-musl-* */
};

/*
 * Inspect @path (a "#!" script: its interpreter). A dynamic program must be
 * of the native ELF class and machine: the shim could not load otherwise.
 */
int ujs_link_kind(const char *path, enum ujs_link *kind, char *err,
		  size_t errlen);

/*
 * The preload shim for a program of @link: @preload, else $UJAIL_PRELOAD,
 * else ../lib/[musl/]libpreload-seccomp.so beside @self_exe. Its real path
 * goes in @out (PATH_MAX bytes); LD_PRELOAD must be able to name it.
 */
int ujs_shim_find(const char *preload, const char *self_exe, enum ujs_link link,
		  char *out, char *err, size_t errlen);

/* A sealed memfd holding @prog as a program file, or -1 and a message. */
int ujs_program_memfd(const struct ujs_loaded_program *prog, char *err,
		      size_t errlen);

struct ujs_policy;
struct ujs_program;

/* @out describes @compiled (not copied) with the flags @policy asks for. */
void ujs_loaded_from_compiled(struct ujs_loaded_program *out,
			      const struct ujs_program *compiled,
			      const struct ujs_policy *policy);

/* @cmd through $PATH (as execvp() would), into @out. */
int ujs_resolve_command(const char *cmd, char *out, size_t outlen, char *err,
			size_t errlen);

/* "auto" or a mode name, into the mode in force and why (for messages). */
int ujs_choose_mode(const char *requested, enum ujs_mode *mode,
		    const char **why, char *err, size_t errlen);

struct ujs_run_opts {
	const char *name;		/* jail name in the denial lines */
	enum ujs_mode mode;
	/* The shim: NULL = $UJAIL_PRELOAD, else next to @self_exe. */
	const char *preload;
	const char *self_exe;		/* this command, to find the shim */
	FILE *log;			/* denial lines and messages */
};

/*
 * Run @argv[0] (through $PATH) under @prog. Returns the command's exit
 * status (128 + signal when killed), or -1 and a message when it could not
 * be started (nothing ran unfiltered).
 */
int ujs_run(const struct ujs_run_opts *opts,
	    const struct ujs_loaded_program *prog, char *const argv[],
	    char *err, size_t errlen);

#endif
