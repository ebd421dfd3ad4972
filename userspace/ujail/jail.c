/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The outer ujail process; see jail.h. Everything that can fail on the
 * host is checked before the jail is created, so a bad option, file or
 * policy starts nothing. Afterwards this process only waits: it forwards
 * signals to the stub, escalates a SIGTERM to SIGKILL after -t seconds,
 * writes the pid file when the service starts, and returns its status.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "elf_deps.h"
#include "init.h"
#include "jail.h"
#include "load.h"

#define STUB_STACK_SIZE (1024 * 1024)

static const int forwarded_signals[] = {
	SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2,
};

void jail_msg(const struct jail_plan *p, const char *fmt, ...)
{
	char line[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "ujail: %s: %s\n", p->name, line);
}

/* ---- the plan, on the host ---- */

/* A relative name is staged where the host has it: below our directory. */
static int make_absolute(struct jail_plan *p)
{
	char cwd[PATH_MAX], rel[PATH_MAX];

	if (p->exe[0] == '/')
		return 0;
	snprintf(rel, sizeof(rel), "%s", p->exe);
	if (!getcwd(cwd, sizeof(cwd)) ||
	    (size_t)snprintf(p->exe, sizeof(p->exe), "%s/%s", cwd, rel) >= sizeof(p->exe)) {
		jail_msg(p, "%s: cannot make the path absolute", rel);
		return -1;
	}
	return 0;
}

static int resolve_command(struct jail_plan *p)
{
	char err[1024];

	if (ujs_resolve_command(p->o->argv[0], p->exe, sizeof(p->exe), err, sizeof(err))) {
		jail_msg(p, "%s", err);
		return JAIL_EXIT_NOT_STARTED;
	}
	if (make_absolute(p))
		return JAIL_EXIT_NOT_STARTED;
	if (elf_deps_collect(p->exe, NULL, &p->deps, err, sizeof(err)) < 0) {
		jail_msg(p, "%s", err);
		return JAIL_EXIT_NOT_STARTED;
	}
	return 0;
}

/* Only the -e variables, with room for the seccomp shim's four. */
static int build_environment(struct jail_plan *p)
{
	size_t n = 0;

	p->envp = calloc(p->o->n_keep_env + 5, sizeof(*p->envp));
	if (!p->envp)
		return -1;
	for (size_t i = 0; i < p->o->n_keep_env; i++) {
		const char *value = getenv(p->o->keep_env[i]);

		if (value && asprintf(&p->envp[n++], "%s=%s", p->o->keep_env[i], value) < 0)
			return -1;
	}
	return 0;
}

/* The pid file is written later: check now that it can be. */
static int check_pidfile_dir(struct jail_plan *p)
{
	const char *path = p->o->pidfile;
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1,
		 slash ? (slash == path ? "/" : path) : ".");
	if (access(dir, W_OK) < 0) {
		jail_msg(p, "-P %s: directory %s: %s", path, dir, strerror(errno));
		return -1;
	}
	return 0;
}

static void self_exe(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);

	buf[n > 0 ? n : 0] = '\0';
}

static int plan_jail(struct jail_plan *p)
{
	char err[1024], exe[PATH_MAX];
	const struct jail_opts *o = p->o;
	int status = resolve_command(p);

	if (status)
		return status;
	self_exe(exe, sizeof(exe));
	if (jail_creds_resolve(o->user, o->group, &p->creds, err, sizeof(err)) ||
	    (o->capabilities && jail_caps_load(o->capabilities, &p->caps, err, sizeof(err))) ||
	    jail_seccomp_prepare(&p->seccomp, o->seccomp, p->exe, exe, &p->deps, err,
				 sizeof(err)) ||
	    jail_ns_plan(o, &p->ns, err, sizeof(err))) {
		jail_msg(p, "%s", err);
		return JAIL_EXIT_SETUP;
	}
	if (o->pidfile && check_pidfile_dir(p))
		return JAIL_EXIT_SETUP;
	if (build_environment(p)) {
		jail_msg(p, "environment: out of memory");
		return JAIL_EXIT_SETUP;
	}
	return 0;
}

static int open_channels(struct jail_plan *p)
{
	const int on = 1;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, p->status_sock) < 0 ||
	    setsockopt(p->status_sock[0], SOL_SOCKET, SO_PASSCRED, &on, sizeof(on)) < 0 ||
	    pipe2(p->parent_alive, O_CLOEXEC) < 0) {
		jail_msg(p, "channels to the jail: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static void plan_free(struct jail_plan *p)
{
	for (size_t i = 0; p->envp && p->envp[i]; i++)
		free(p->envp[i]);
	free(p->envp);
	path_set_free(&p->deps);
	jail_seccomp_free(&p->seccomp);
	jail_ns_close(&p->ns);
	for (int i = 0; i < 2; i++) {
		if (p->status_sock[i] >= 0)
			close(p->status_sock[i]);
		if (p->parent_alive[i] >= 0)
			close(p->parent_alive[i]);
	}
}

/* ---- the jail's life ---- */

struct watch {
	struct jail_plan *p;
	pid_t stub;
	int sigfd, timerfd;
	bool escalating;	/* SIGTERM seen: SIGKILL when the timer fires */
	bool killed;		/* the timer fired: SIGKILL sent */
	bool pidfile_written;
	int status;		/* wait status of the stub */
};

static void forwarded_sigset(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(forwarded_signals) / sizeof(forwarded_signals[0]); i++)
		sigaddset(set, forwarded_signals[i]);
	sigaddset(set, SIGCHLD);
}

static pid_t start_stub(struct jail_plan *p)
{
	char *stack = malloc(STUB_STACK_SIZE);
	char err[256];
	pid_t pid;

	if (!stack) {
		jail_msg(p, "clone: out of memory");
		return -1;
	}
	if (jail_ns_join_pid(&p->ns, err, sizeof(err))) {
		jail_msg(p, "%s", err);
		free(stack);
		return -1;
	}
	fflush(NULL);
	pid = clone(jail_stub_main, stack + STUB_STACK_SIZE, p->ns.clone_flags | SIGCHLD, p);
	if (pid < 0)
		jail_msg(p, "clone (new namespaces %#x): %s", p->ns.clone_flags, strerror(errno));
	free(stack);
	return pid;
}

static void write_pidfile(struct watch *w, pid_t pid)
{
	const char *path = w->p->o->pidfile;
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "we");
	if (!f || fprintf(f, "%d\n", (int)pid) < 0 || fclose(f) != 0) {
		jail_msg(w->p, "-P %s: %s; stopping the jail", path, strerror(errno));
		kill(w->stub, SIGKILL);
		return;
	}
	w->pidfile_written = true;
}

/* The service's first message: its pid, as this namespace sees it. */
static void read_service_pid(struct watch *w, int *sock)
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(struct ucred))];
	} control;
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control.buf, .msg_controllen = sizeof(control.buf),
	};
	struct cmsghdr *c;
	ssize_t n = recvmsg(*sock, &msg, MSG_CMSG_CLOEXEC);

	if (n < 0 && errno == EINTR)
		return;
	for (c = n > 0 ? CMSG_FIRSTHDR(&msg) : NULL; c; c = CMSG_NXTHDR(&msg, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS) {
			struct ucred cred;

			memcpy(&cred, CMSG_DATA(c), sizeof(cred));
			write_pidfile(w, cred.pid);
		}
	}
	/* One message, or the end: either way the socket is done with. */
	close(*sock);
	*sock = -1;
}

static void start_escalation(struct watch *w)
{
	struct itimerspec when = { .it_value = { .tv_sec = w->p->o->term_timeout } };

	if (w->escalating)
		return;
	w->escalating = true;
	if (w->p->o->term_timeout == 0 || timerfd_settime(w->timerfd, 0, &when, NULL) < 0)
		kill(w->stub, SIGKILL);
}

/* Returns true once the stub has ended. */
static bool handle_signal(struct watch *w)
{
	struct signalfd_siginfo si;

	if (read(w->sigfd, &si, sizeof(si)) != (ssize_t)sizeof(si))
		return false;
	if (si.ssi_signo == SIGCHLD)
		return waitpid(w->stub, &w->status, WNOHANG) == w->stub;
	kill(w->stub, (int)si.ssi_signo);
	if (si.ssi_signo == SIGTERM)
		start_escalation(w);
	return false;
}

static int watch_jail(struct watch *w)
{
	int *sock = &w->p->status_sock[0];

	for (;;) {
		struct pollfd fds[3] = {
			{ .fd = w->sigfd, .events = POLLIN },
			{ .fd = *sock, .events = POLLIN },
			{ .fd = w->killed ? -1 : w->timerfd, .events = POLLIN },
		};

		if (poll(fds, 3, -1) < 0 && errno != EINTR) {
			jail_msg(w->p, "poll: %s; stopping the jail", strerror(errno));
			kill(w->stub, SIGKILL);
			waitpid(w->stub, &w->status, 0);
			break;
		}
		if (fds[1].revents)
			read_service_pid(w, sock);
		if (fds[2].revents & POLLIN) {
			/* The service outlived -t seconds after SIGTERM. */
			kill(w->stub, SIGKILL);
			w->killed = true;
		}
		if ((fds[0].revents & POLLIN) && handle_signal(w))
			break;
	}
	return WIFSIGNALED(w->status) ? 128 + WTERMSIG(w->status) : WEXITSTATUS(w->status);
}

static int run_jail(struct jail_plan *p)
{
	struct watch w = { .p = p, .sigfd = -1, .timerfd = -1 };
	sigset_t set, old;
	int status = JAIL_EXIT_SETUP;

	/* Blocked before clone(): the stub inherits the mask, nothing is lost. */
	forwarded_sigset(&set);
	sigprocmask(SIG_BLOCK, &set, &old);
	w.sigfd = signalfd(-1, &set, SFD_CLOEXEC);
	w.timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (w.sigfd < 0 || w.timerfd < 0) {
		jail_msg(p, "signalfd/timerfd: %s", strerror(errno));
	} else if ((w.stub = start_stub(p)) > 0) {
		close(p->status_sock[1]);
		close(p->parent_alive[0]);
		p->status_sock[1] = p->parent_alive[0] = -1;
		jail_ns_close(&p->ns);
		status = watch_jail(&w);
	}
	if (w.pidfile_written)
		unlink(p->o->pidfile);
	if (w.sigfd >= 0)
		close(w.sigfd);
	if (w.timerfd >= 0)
		close(w.timerfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return status;
}

int jail_run(const struct jail_opts *o)
{
	struct jail_plan p = {
		.o = o, .status_sock = { -1, -1 }, .parent_alive = { -1, -1 },
	};
	int status;

	p.name = o->name ? o->name : strrchr(o->argv[0], '/') ?
		 strrchr(o->argv[0], '/') + 1 : o->argv[0];
	p.seccomp.memfd = p.seccomp.notify_sock[0] = p.seccomp.notify_sock[1] = -1;
	/* Not dumpable: nothing in the jail may ptrace us or the stub. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	if (geteuid() != 0) {
		jail_msg(&p, "must run as root");
		return JAIL_EXIT_SETUP;
	}
	status = plan_jail(&p);
	if (status == 0)
		status = open_channels(&p) ? JAIL_EXIT_SETUP : run_jail(&p);
	plan_free(&p);
	return status;
}
