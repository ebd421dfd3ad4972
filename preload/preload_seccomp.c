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
 * $UJAIL_SECCOMP_FILE (ujail and ujail-seccomp run), or from $SECCOMP_FILE,
 * procd's variable: a JSON policy, which ujail-seccomp (UJS_SHIM_COMPILER,
 * a path fixed at build time) compiles into a pipe, or a compiled program.
 * $UJAIL_SECCOMP_NOTIFY_FD names the supervisor's socket and
 * $UJAIL_SECCOMP_MODE forces a mode. With none of them set (a child that
 * inherited LD_PRELOAD) the shim does nothing. Any failure ends the process
 * with status 127: main() never runs unfiltered.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "errmsg.h"
#include "install.h"

#define SHIM "libpreload-seccomp"
/* procd's variable: the policy of a service without a jail. */
#define ENV_PROCD_FILE "SECCOMP_FILE"

/* The policy compiler run for $SECCOMP_FILE: an absolute path, never PATH. */
#ifndef UJS_SHIM_COMPILER
#error "UJS_SHIM_COMPILER: define it to ujail-seccomp's installed path"
#endif

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

/* Does @fd hold a compiled program (the magic)? The offset goes back to 0. */
static int is_compiled(int fd)
{
	char magic[sizeof(UJS_PROG_MAGIC) - 1];
	ssize_t n = pread(fd, magic, sizeof(magic), 0);

	return n == (ssize_t)sizeof(magic) && !memcmp(magic, UJS_PROG_MAGIC, sizeof(magic));
}

/* UJS_SHIM_COMPILER compiles @policy to its standard output, @out; its pid. */
static pid_t spawn_compiler(const char *policy, int out)
{
	static char *const no_env[] = { NULL };
	char *const argv[] = {
		"ujail-seccomp", "compile", "-o", "-", "--", (char *)policy, NULL,
	};
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none;
	pid_t pid;
	int rc;

	sigemptyset(&none);
	if (posix_spawn_file_actions_init(&fa) || posix_spawnattr_init(&attr) ||
	    posix_spawn_file_actions_adddup2(&fa, out, STDOUT_FILENO) ||
	    posix_spawnattr_setsigmask(&attr, &none) ||
	    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK))
		die("%s=%s: posix_spawn set-up failed", ENV_PROCD_FILE, policy);
	/* No environment: nothing of the caller's (LD_*, POSIXLY_CORRECT) reaches it. */
	rc = posix_spawn(&pid, UJS_SHIM_COMPILER, &fa, &attr, argv, no_env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (rc)
		die("%s=%s: cannot run the policy compiler %s: %s", ENV_PROCD_FILE, policy,
		    UJS_SHIM_COMPILER, strerror(rc));
	return pid;
}

/* Waits for the compiler; dies unless it exited with status 0. */
static void reap_compiler(pid_t pid, const char *policy)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("%s=%s: waitpid: %s", ENV_PROCD_FILE, policy, strerror(errno));
	if (WIFSIGNALED(status))
		die("%s=%s: %s killed by signal %d", ENV_PROCD_FILE, policy,
		    UJS_SHIM_COMPILER, WTERMSIG(status));
	if (WEXITSTATUS(status))
		die("%s=%s: not compiled (%s exited with status %d)", ENV_PROCD_FILE, policy,
		    UJS_SHIM_COMPILER, WEXITSTATUS(status));
}

/*
 * @policy (JSON) compiled by ujail-seccomp into @prog. SIGCHLD is SIG_DFL
 * meanwhile: ignored (as a parent may leave it), the kernel would reap the
 * compiler before waitpid() saw its status.
 */
static void compile_policy(const char *policy, struct ujs_loaded_program *prog)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL }, old;
	char err[256];
	int pipefd[2], bad;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		die("%s=%s: pipe: %s", ENV_PROCD_FILE, policy, strerror(errno));
	if (sigaction(SIGCHLD, &dfl, &old))
		die("sigaction: %s", strerror(errno));
	pid = spawn_compiler(policy, pipefd[1]);
	close(pipefd[1]);
	bad = ujs_program_read(pipefd[0], prog, err, sizeof(err));
	close(pipefd[0]);
	reap_compiler(pid, policy);
	sigaction(SIGCHLD, &old, NULL);
	if (bad)
		die("%s=%s: compiled program: %s", ENV_PROCD_FILE, policy, err);
}

/* $SECCOMP_FILE: a compiled program is read, a policy compiled. */
static void read_procd_file(const char *file, struct ujs_loaded_program *prog)
{
	char err[256];
	int fd;

	if (!*file)
		die("%s is empty: no policy to install", ENV_PROCD_FILE);
	/* Root's compiler must not read what the caller names. */
	if (getauxval(AT_SECURE))
		die("%s=%s: not honoured in a set-user-ID or set-group-ID program",
		    ENV_PROCD_FILE, file);
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("%s=%s: %s", ENV_PROCD_FILE, file, strerror(errno));
	if (!is_compiled(fd)) {
		close(fd);
		compile_policy(file, prog);
		return;
	}
	if (ujs_program_read(fd, prog, err, sizeof(err)))
		die("%s=%s: %s", ENV_PROCD_FILE, file, err);
	close(fd);
}

static void read_program(struct ujs_loaded_program *prog)
{
	const char *fd_var = getenv(UJS_ENV_FD);
	const char *file = getenv(UJS_ENV_FILE);
	const char *procd_file = getenv(ENV_PROCD_FILE);
	char err[256];
	int fd;

	if (procd_file && (fd_var || file))
		die("%s and %s are both set: one policy at a time", ENV_PROCD_FILE,
		    fd_var ? UJS_ENV_FD : UJS_ENV_FILE);
	if (procd_file) {
		read_procd_file(procd_file, prog);
		return;
	}
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
	if (unsetenv(UJS_ENV_FD) || unsetenv(UJS_ENV_FILE) || unsetenv(ENV_PROCD_FILE) ||
	    unsetenv(UJS_ENV_NOTIFY_FD) || unsetenv(UJS_ENV_MODE))
		die("unsetenv: %s", strerror(errno));
}

static int filtered_main(int argc, char **argv, char **envp)
{
	struct ujs_loaded_program prog;
	enum ujs_mode mode;
	char err[256];
	int sock;

	if (!getenv(UJS_ENV_FD) && !getenv(UJS_ENV_FILE) && !getenv(ENV_PROCD_FILE)) {
		if (getenv(UJS_ENV_NOTIFY_FD) || getenv(UJS_ENV_MODE))
			die("%s, %s or %s must name the program", UJS_ENV_FD, UJS_ENV_FILE,
			    ENV_PROCD_FILE);
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
