/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The jail's PID 1 (the stub): see init.h. It holds no capability the
 * service could use: it is not dumpable (inherited from the outer ujail),
 * so the service, without CAP_SYS_PTRACE, cannot ptrace it.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "init.h"
#include "jail.h"
#include "rootfs.h"
#include "supervise.h"

static const int stub_signals[] = {
	SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGCHLD,
};

static void stub_sigset(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(stub_signals) / sizeof(stub_signals[0]); i++)
		sigaddset(set, stub_signals[i]);
}

/*
 * Die with the outer ujail. The parent is in another pid namespace, so
 * getppid() cannot tell whether it already died: its end of a pipe can.
 */
static int follow_parent(struct jail_plan *p)
{
	struct pollfd pfd = { .fd = p->parent_alive[0], .events = POLLIN };

	close(p->parent_alive[1]);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0) {
		jail_msg(p, "prctl(PR_SET_PDEATHSIG): %s", strerror(errno));
		return -1;
	}
	if (poll(&pfd, 1, 0) != 0)
		return -1;	/* EOF: the outer ujail is gone */
	close(p->parent_alive[0]);
	return 0;
}

/* Kill what is left (every process of the namespace when we are its init). */
static void kill_the_rest(pid_t service)
{
	kill(-service, SIGKILL);
	if (getpid() == 1)
		kill(-1, SIGKILL);
	while (waitpid(-1, NULL, __WALL) > 0)
		;
}

static int status_code(int status)
{
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

/* Reap every zombie; true once the service itself ended. */
static bool reap(pid_t service, int *status)
{
	bool ended = false;
	pid_t pid;
	int st;

	while ((pid = waitpid(-1, &st, WNOHANG | __WALL)) > 0) {
		if (pid == service) {
			*status = st;
			ended = true;
		}
	}
	return ended;
}

/* Notify mode: the loop of "ujail-seccomp run", reaping as PID 1. */
static int supervise_seccomp(struct jail_plan *p, pid_t service, int sigfd)
{
	struct ujs_supervisor sv = {
		.name = p->name, .insns = p->seccomp.loaded.insns,
		.len = p->seccomp.loaded.count, .log = stderr, .as_init = true,
	};
	char err[512];
	int status = ujs_supervise(&sv, service, sigfd, p->seccomp.notify_sock[0],
				   err, sizeof(err));

	p->seccomp.notify_sock[0] = -1;	/* closed by ujs_supervise() */
	if (status < 0) {
		jail_msg(p, "seccomp supervisor: %s", err);
		status = JAIL_EXIT_SETUP;
	}
	kill_the_rest(service);
	return status;
}

static int supervise(pid_t service, int sigfd)
{
	struct signalfd_siginfo si;
	int status = 0;

	for (;;) {
		ssize_t n = read(sigfd, &si, sizeof(si));

		if (n < 0 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof(si)) {
			kill_the_rest(service);
			return JAIL_EXIT_SETUP;
		}
		if (si.ssi_signo != SIGCHLD)
			kill(service, (int)si.ssi_signo);
		else if (reap(service, &status))
			break;
	}
	kill_the_rest(service);
	return status_code(status);
}

/* Whatever the outer ujail inherited from its caller stays outside. */
static void close_inherited_fds(struct jail_plan *p)
{
	int keep[2 + JAIL_MAX_JOINS] = {
		p->status_sock[1], jail_seccomp_keep_fd(&p->seccomp),
	};

	for (size_t i = 0; i < p->ns.n_joins; i++)
		keep[2 + i] = p->ns.join_pidfd[i];
	jail_close_fds_except(keep, 2 + p->ns.n_joins);
}

/* Everything before the service starts; false after a message. */
static bool stub_prepare(struct jail_plan *p, const sigset_t *set, int *sigfd)
{
	char err[1024];

	if (follow_parent(p) < 0)
		return false;
	close(p->status_sock[0]);
	close_inherited_fds(p);
	*sigfd = signalfd(-1, set, SFD_CLOEXEC);
	if (*sigfd < 0) {
		jail_msg(p, "signalfd: %s", strerror(errno));
		return false;
	}
	if (jail_ns_enter(p->o, &p->ns, err, sizeof(err)) < 0)
		goto fail;
	jail_ns_close(&p->ns);
	if (jail_rootfs_enter(p->o, &p->deps, err, sizeof(err)) < 0 ||
	    jail_seccomp_notify_open(&p->seccomp, err, sizeof(err)) < 0)
		goto fail;
	return true;
fail:
	jail_msg(p, "%s", err);
	return false;
}

int jail_stub_main(void *arg)
{
	struct jail_plan *p = arg;
	sigset_t set;
	pid_t service;
	int sigfd = -1;

	/* Signals wait in the signalfd: as PID 1 they would be dropped otherwise. */
	stub_sigset(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (!stub_prepare(p, &set, &sigfd))
		return JAIL_EXIT_SETUP;
	service = fork();
	if (service < 0) {
		jail_msg(p, "fork the service: %s", strerror(errno));
		return JAIL_EXIT_SETUP;
	}
	if (service == 0) {
		close(sigfd);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		jail_service_exec(p);
	}
	close(p->status_sock[1]);
	if (jail_seccomp_notifies(&p->seccomp)) {
		close(p->seccomp.notify_sock[1]);
		return supervise_seccomp(p, service, sigfd);
	}
	return supervise(service, sigfd);
}
