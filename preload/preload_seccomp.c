/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libpreload-seccomp.so: installs a compiled seccomp program right before
 * main(), after ld.so, the libc's start-up and the constructors have run,
 * so the policy need not allow what they do.
 *
 * It interposes __libc_start_main() and hands the real one a main() of its
 * own. glibc's takes (main, argc, argv, init, fini, rtld_fini, stack_end),
 * musl's (main, argc, argv, init, fini, ldso_dummy): forwarding seven
 * arguments serves both, musl ignores the seventh.
 *
 * The program comes from descriptor $UJAIL_SECCOMP_FD or file
 * $UJAIL_SECCOMP_FILE; $UJAIL_SECCOMP_NOTIFY_FD names the supervisor's
 * socket and $UJAIL_SECCOMP_MODE forces a mode. With none of them set (a
 * child that inherited LD_PRELOAD) the shim does nothing. Any failure ends
 * the process with status 127: main() never runs unfiltered.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errmsg.h"
#include "install.h"

#define SHIM "libpreload-seccomp"

typedef int (*main_fn)(int, char **, char **);
typedef int (*start_main_fn)(main_fn, int, char **, void *, void *, void *,
			     void *);

extern char **environ;

static main_fn real_main;

__attribute__((format(printf, 1, 2), noreturn))
static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ujs_vprint_error(SHIM, fmt, ap);
	va_end(ap);
	_exit(127);
}

/* A descriptor number from the environment; dies on anything else. */
static int env_fd(const char *name, const char *value)
{
	char *end;
	long fd;

	errno = 0;
	fd = strtol(value, &end, 10);
	if (errno || end == value || *end || fd < 0 || fd > INT_MAX)
		die("%s=%s: not a descriptor number", name, value);
	if (fcntl((int)fd, F_GETFD) < 0)
		die("%s=%s: %s", name, value, strerror(errno));
	return (int)fd;
}

static void read_program(struct ujs_loaded_program *prog)
{
	const char *fd_var = getenv(UJS_ENV_FD);
	const char *file = getenv(UJS_ENV_FILE);
	char err[256];
	int fd;

	if (fd_var)
		fd = env_fd(UJS_ENV_FD, fd_var);
	else if (!file)
		die("neither %s nor %s is set", UJS_ENV_FD, UJS_ENV_FILE);
	else if ((fd = open(file, O_RDONLY | O_CLOEXEC)) < 0)
		die("%s: %s", file, strerror(errno));
	if (ujs_program_read(fd, prog, err, sizeof(err)))
		die("%s: %s", fd_var ? UJS_ENV_FD : file, err);
	close(fd);
}

static int same_file(const char *a, const struct stat *b)
{
	struct stat st;

	return stat(a, &st) == 0 && st.st_dev == b->st_dev && st.st_ino == b->st_ino;
}

/* Is this LD_PRELOAD entry (of @len bytes) this library? */
static int is_self(const char *entry, size_t len, const char *self,
		   const struct stat *self_st)
{
	char path[PATH_MAX];

	if (len == 0 || len >= sizeof(path))
		return 0;
	memcpy(path, entry, len);
	path[len] = '\0';
	return strcmp(path, self) == 0 || (self_st && same_file(path, self_st));
}

/* LD_PRELOAD without this library: entries split at ' ' or ':'. */
static void remove_self_from_preload(void)
{
	const char *list = getenv("LD_PRELOAD");
	struct stat self_st;
	Dl_info info;
	int have_st;
	char *kept;
	size_t n = 0;

	if (!list || !dladdr((void *)remove_self_from_preload, &info) || !info.dli_fname)
		return;
	kept = malloc(strlen(list) + 1);
	if (!kept)
		die("out of memory");
	have_st = stat(info.dli_fname, &self_st) == 0;

	for (const char *p = list; *p;) {
		size_t len = strcspn(p, " :");

		if (len && !is_self(p, len, info.dli_fname, have_st ? &self_st : NULL)) {
			if (n)
				kept[n++] = ':';
			memcpy(kept + n, p, len);
			n += len;
		}
		p += len;
		p += strspn(p, " :");
	}
	kept[n] = '\0';
	if (n ? setenv("LD_PRELOAD", kept, 1) : unsetenv("LD_PRELOAD"))
		die("LD_PRELOAD: %s", strerror(errno));
	free(kept);
}

static int notify_socket(void)
{
	const char *value = getenv(UJS_ENV_NOTIFY_FD);
	int fd;

	if (!value)
		return -1;
	fd = env_fd(UJS_ENV_NOTIFY_FD, value);
	/* Not for the program's children, whatever happens. */
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)
		die("%s=%s: %s", UJS_ENV_NOTIFY_FD, value, strerror(errno));
	return fd;
}

/* $UJAIL_SECCOMP_MODE, else the kernel's best with or without @sock. */
static enum ujs_mode requested_mode(int sock)
{
	const char *forced = getenv(UJS_ENV_MODE);
	enum ujs_mode mode;

	if (!forced)
		return ujs_mode_detect(sock >= 0);
	if (ujs_mode_parse(forced, &mode))
		die("%s=%s: not log-errno, notify or errno-log", UJS_ENV_MODE, forced);
	return mode;
}

static void clear_environment(void)
{
	remove_self_from_preload();
	if (unsetenv(UJS_ENV_FD) || unsetenv(UJS_ENV_FILE) ||
	    unsetenv(UJS_ENV_NOTIFY_FD) || unsetenv(UJS_ENV_MODE))
		die("unsetenv: %s", strerror(errno));
}

static int filtered_main(int argc, char **argv, char **envp)
{
	struct ujs_loaded_program prog;
	enum ujs_mode mode;
	char err[256];
	int sock;

	if (!getenv(UJS_ENV_FD) && !getenv(UJS_ENV_FILE)) {
		if (getenv(UJS_ENV_NOTIFY_FD) || getenv(UJS_ENV_MODE))
			die("%s or %s must name the program", UJS_ENV_FD, UJS_ENV_FILE);
		return real_main(argc, argv, envp);
	}
	read_program(&prog);
	sock = notify_socket();
	mode = requested_mode(sock);
	clear_environment();
	if (ujs_install_mode(&prog, mode, sock, err, sizeof(err)) < 0)
		die("%s", err);
	/* prog is not freed: free() could make a call the policy denies. */
	return real_main(argc, argv, environ);
}

int __libc_start_main(main_fn main, int argc, char **argv, void *init,
		      void *fini, void *rtld_fini, void *stack_end)
{
	start_main_fn real = (start_main_fn)dlsym(RTLD_NEXT, "__libc_start_main");

	if (!real)
		die("no __libc_start_main after this library: %s", dlerror());
	real_main = main;
	return real(filtered_main, argc, argv, init, fini, rtld_fini, stack_end);
}
