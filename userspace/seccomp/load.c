/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running a command under a compiled program; see load.h. How the command
 * is linked is found in link_kind.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compile.h"
#include "errmsg.h"
#include "load.h"
#include "supervise.h"

#define SHIM_NAME "libpreload-seccomp.so"

static int write_full(int fd, const void *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf = (const char *)buf + n;
		len -= (size_t)n;
	}
	return 0;
}

int ujs_program_write(int fd, const struct sock_filter *insns, size_t len,
		      uint32_t audit_arch, uint32_t flags, char *err,
		      size_t errlen)
{
	struct ujs_prog_header h = {
		.version = UJS_PROG_VERSION,
		.audit_arch = audit_arch,
		.count = (uint32_t)len,
		.flags = flags,
	};

	if (len == 0 || len > UJS_PROG_MAX_INSNS)
		return ujs_fail(err, errlen, "%zu instructions: a program has 1..%d",
				len, UJS_PROG_MAX_INSNS);
	memcpy(h.magic, UJS_PROG_MAGIC, sizeof(h.magic));
	if (write_full(fd, &h, sizeof(h)) ||
	    write_full(fd, insns, len * sizeof(*insns)))
		return ujs_fail(err, errlen, "write: %s", strerror(errno));
	return 0;
}

/* ---- The command and the mode ---- */

static bool is_executable_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int ujs_resolve_command(const char *cmd, char *out, size_t outlen, char *err,
			size_t errlen)
{
	const char *path = getenv("PATH");

	if (!*cmd)
		return ujs_fail(err, errlen, "empty command name");
	if (strchr(cmd, '/')) {
		if (!is_executable_file(cmd))
			return ujs_fail(err, errlen, "%s: %s", cmd,
					access(cmd, F_OK) ? strerror(errno) : "not an executable file");
		snprintf(out, outlen, "%s", cmd);
		return 0;
	}
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *dir = path;; dir += strcspn(dir, ":") + 1) {
		int dirlen = (int)strcspn(dir, ":");

		/* An empty entry is the current directory. */
		if ((size_t)snprintf(out, outlen, "%.*s%s%s", dirlen, dir,
				     dirlen ? "/" : "", cmd) < outlen &&
		    is_executable_file(out))
			return 0;
		if (!dir[dirlen])
			break;
	}
	return ujs_fail(err, errlen, "%s: command not found in PATH", cmd);
}

int ujs_choose_mode(const char *requested, enum ujs_mode *mode,
		    const char **why, char *err, size_t errlen)
{
	bool has = ujs_kernel_has_log_errno();

	if (!requested || strcmp(requested, "auto") == 0)
		*mode = has ? UJS_MODE_LOG_ERRNO : UJS_MODE_NOTIFY;
	else if (ujs_mode_parse(requested, mode))
		return ujs_fail(err, errlen, "--mode %s: not auto, log-errno, notify or errno-log",
				requested);
	else if (*mode == UJS_MODE_LOG_ERRNO && !has)
		return ujs_fail(err, errlen,
				"--mode log-errno: this kernel has no log_errno action (SECCOMP_RET_LOG_ERRNO)");
	switch (*mode) {
	case UJS_MODE_LOG_ERRNO:
		*why = "kernel has the log_errno action; denials are logged by the kernel";
		break;
	case UJS_MODE_NOTIFY:
		*why = has ? "requested; denials are logged by ujail-seccomp" :
		       "kernel has no log_errno action; denials are logged by ujail-seccomp";
		break;
	case UJS_MODE_ERRNO_LOG:
		*why = has ? "requested; denials are logged by audit" :
		       "kernel has no log_errno action; denials are logged by audit";
		break;
	}
	return 0;
}

/* ---- Starting the command ---- */

struct launch {
	const struct ujs_run_opts *opts;
	const struct ujs_loaded_program *prog;
	char *const *argv;
	char path[PATH_MAX];
	enum ujs_link link;
	char shim[PATH_MAX];
	int prog_fd;		/* dynamic: the sealed program */
	int sock[2];		/* notify: [0] the runner's, [1] the child's */
	int sigfd;
	bool masked;		/* oldmask to be restored */
	sigset_t oldmask;
};

int ujs_shim_find(const char *preload, const char *self_exe, enum ujs_link link,
		  char *out, char *err, size_t errlen)
{
	const char *given = preload ? preload : getenv("UJAIL_PRELOAD");
	const char *from = preload ? "--preload" : "UJAIL_PRELOAD";
	char path[PATH_MAX];

	if (!given || !*given) {
		const char *slash = strrchr(self_exe, '/');
		int dirlen = slash ? (int)(slash - self_exe) : 1;

		snprintf(path, sizeof(path), "%.*s/../lib/%s%s", dirlen,
			 slash ? self_exe : ".",
			 link == UJS_LINK_MUSL ? "musl/" : "", SHIM_NAME);
		given = path;
		from = "default; set it with --preload or UJAIL_PRELOAD";
	}
	if (!realpath(given, out))
		return ujs_fail(err, errlen, "preload shim %s (%s): %s", given, from,
				strerror(errno));
	if (strpbrk(out, " :"))
		return ujs_fail(err, errlen, "preload shim %s: LD_PRELOAD cannot name a path with ' ' or ':'",
				out);
	return 0;
}

int ujs_program_memfd(const struct ujs_loaded_program *prog, char *err,
		      size_t errlen)
{
	const int seals = F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE;
	int fd = memfd_create("ujail-seccomp-program", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	char why[256];

	if (fd < 0)
		return ujs_fail(err, errlen, "memfd_create: %s", strerror(errno));
	if (ujs_program_write(fd, prog->insns, prog->count, prog->audit_arch,
			      prog->flags, why, sizeof(why))) {
		close(fd);
		return ujs_fail(err, errlen, "program memfd: %s", why);
	}
	if (fcntl(fd, F_ADD_SEALS, seals) < 0 || lseek(fd, 0, SEEK_SET) < 0) {
		ujs_fail(err, errlen, "program memfd: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

void ujs_loaded_from_compiled(struct ujs_loaded_program *out,
			      const struct ujs_program *compiled,
			      const struct ujs_policy *policy)
{
	out->insns = compiled->insns;
	out->count = (uint32_t)compiled->len;
	out->audit_arch = compiled->audit_arch;
	out->flags = (policy->flag_log ? UJS_PROG_F_LOG : 0) |
		     (policy->flag_spec_allow ? UJS_PROG_F_SPEC_ALLOW : 0);
}

__attribute__((noreturn, format(printf, 1, 2)))
static void child_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ujs_vprint_error("ujail-seccomp", fmt, ap);
	va_end(ap);
	_exit(127);
}

static void inherit_fd(int fd)
{
	if (fd >= 0 && fcntl(fd, F_SETFD, 0) < 0)
		child_die("fcntl: %s", strerror(errno));
}

static void setenv_or_die(const char *name, const char *value)
{
	if (setenv(name, value, 1))
		child_die("setenv %s: %s", name, strerror(errno));
}

static void setenv_fd(const char *name, int fd)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", fd);
	setenv_or_die(name, buf);
}

/* The shim's environment (load.h). */
static void dynamic_environment(const struct launch *l)
{
	const char *old = getenv("LD_PRELOAD");
	char *preload;

	setenv_fd(UJS_ENV_FD, l->prog_fd);
	setenv_or_die(UJS_ENV_MODE, ujs_mode_name(l->opts->mode));
	unsetenv(UJS_ENV_FILE);
	unsetenv(UJS_ENV_NOTIFY_FD);
	if (l->sock[1] >= 0)
		setenv_fd(UJS_ENV_NOTIFY_FD, l->sock[1]);
	if (old && *old) {
		if (asprintf(&preload, "%s:%s", l->shim, old) < 0)
			child_die("out of memory");
		setenv_or_die("LD_PRELOAD", preload);
		free(preload);
	} else {
		setenv_or_die("LD_PRELOAD", l->shim);
	}
}

__attribute__((noreturn))
static void run_child(const struct launch *l)
{
	struct ujs_loaded_program prog = *l->prog;
	char err[256];

	sigprocmask(SIG_SETMASK, &l->oldmask, NULL);
	inherit_fd(l->sock[1]);
	if (l->link != UJS_LINK_STATIC) {
		inherit_fd(l->prog_fd);
		dynamic_environment(l);
		/* A set-uid program would drop LD_PRELOAD and run unfiltered. */
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
			child_die("prctl(PR_SET_NO_NEW_PRIVS): %s", strerror(errno));
	} else if (ujs_install_mode(&prog, l->opts->mode, l->sock[1], err, sizeof(err)) < 0) {
		child_die("%s: %s", l->path, err);
	}
	execv(l->path, l->argv);
	child_die("%s: %s", l->path, strerror(errno));
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int prepare(struct launch *l, char *err, size_t errlen)
{
	sigset_t set;

	if (ujs_resolve_command(l->argv[0], l->path, sizeof(l->path), err, errlen) ||
	    ujs_link_kind(l->path, &l->link, err, errlen))
		return -1;
	if (l->link != UJS_LINK_STATIC &&
	    (ujs_shim_find(l->opts->preload, l->opts->self_exe, l->link, l->shim,
			   err, errlen) ||
	     (l->prog_fd = ujs_program_memfd(l->prog, err, errlen)) < 0))
		return -1;
	if (l->opts->mode == UJS_MODE_NOTIFY &&
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, l->sock))
		return ujs_fail(err, errlen, "socketpair: %s", strerror(errno));
	ujs_supervise_sigset(&set);
	if (sigprocmask(SIG_BLOCK, &set, &l->oldmask))
		return ujs_fail(err, errlen, "sigprocmask: %s", strerror(errno));
	l->masked = true;
	l->sigfd = signalfd(-1, &set, SFD_CLOEXEC);
	if (l->sigfd < 0)
		return ujs_fail(err, errlen, "signalfd: %s", strerror(errno));
	return 0;
}

int ujs_run(const struct ujs_run_opts *opts,
	    const struct ujs_loaded_program *prog, char *const argv[],
	    char *err, size_t errlen)
{
	struct launch l = {
		.opts = opts, .prog = prog, .argv = argv,
		.prog_fd = -1, .sock = { -1, -1 }, .sigfd = -1,
	};
	struct ujs_supervisor sv = {
		.name = opts->name, .insns = prog->insns, .len = prog->count,
		.log = opts->log,
	};
	int ret = -1;
	pid_t pid;

	err[0] = '\0';
	sigemptyset(&l.oldmask);
	if (prepare(&l, err, errlen) == 0) {
		fflush(NULL);
		pid = fork();
		if (pid == 0)
			run_child(&l);
		if (pid < 0) {
			ujs_fail(err, errlen, "fork: %s", strerror(errno));
		} else {
			close_fd(&l.sock[1]);
			close_fd(&l.prog_fd);
			ret = ujs_supervise(&sv, pid, l.sigfd, l.sock[0], err, errlen);
			l.sock[0] = -1;	/* closed by the supervisor */
		}
	}
	if (l.masked)
		sigprocmask(SIG_SETMASK, &l.oldmask, NULL);
	close_fd(&l.sigfd);
	close_fd(&l.prog_fd);
	close_fd(&l.sock[0]);
	close_fd(&l.sock[1]);
	return ret;
}
