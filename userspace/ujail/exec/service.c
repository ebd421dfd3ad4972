/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The service, PID 2 of the jail, from fork() to execve(): see init.h.
 * Order matters: the steps that need privileges (new session, descriptors,
 * credentials) come before those that take them away, and seccomp comes
 * last so that the policy need not allow our own set-up. The baseline
 * (baseline.h) is the exception: installed while we still hold
 * CAP_SYS_ADMIN, so that it needs no no_new_privs; it denies nothing
 * the set-up does.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/close_range.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec/jail_keeper.h"
#include "exec/service.h"
#include "isolation/cgroup.h"
#include "isolation/userns.h"
#include "keeper/keeper.h"
#include "plan/plan.h"
#include "seccomp/errmsg.h"

static void close_range_fds(unsigned int first, unsigned int last)
{
	if (first <= last)
		syscall(SYS_close_range, first, last, 0);
}

void jail_close_fds_except(const int *keep, size_t n)
{
	unsigned int next = 3;

	/* Ascending walk over the kept numbers: close the gaps between them. */
	for (;;) {
		unsigned int lowest = ~0U;

		for (size_t i = 0; i < n; i++)
			if (keep[i] >= (int)next && (unsigned int)keep[i] < lowest)
				lowest = (unsigned int)keep[i];
		if (lowest == ~0U) {
			close_range_fds(next, ~0U);
			return;
		}
		close_range_fds(next, lowest - 1);
		next = lowest + 1;
	}
}

/* Dispositions ignored by whoever started ujail (a shell's "&") do not pass on. */
static void default_signal_actions(void)
{
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
}

__attribute__((noreturn))
static void service_fail(struct jail_plan *p, int status, const char *step,
			 const char *what)
{
	jail_msg(p, "service: %s: %s", step, what);
	_exit(status);
}

/* The outer ujail learns our host pid from the credentials of this message. */
static void announce_start(struct jail_plan *p)
{
	char byte = 'S';

	if (send(p->status_sock[1], &byte, 1, MSG_NOSIGNAL) != 1)
		service_fail(p, JAIL_EXIT_SETUP, "report the start", strerror(errno));
	close(p->status_sock[1]);
}

/* ---- in the service's parent: the stub, or ujail --join ---- */

#define SERVICE_STACK_SIZE (256 * 1024)

struct service_start {
	struct jail_plan *p;
	void (*enter)(struct jail_plan *p, void *arg);
	void *arg;
};

static int service_main(void *arg)
{
	const struct service_start *s = arg;
	sigset_t set;

	keeper_signals(&set);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	if (s->enter)
		s->enter(s->p, s->arg);
	jail_service_exec(s->p);
}

/* Returns once the service has exec'd its program, or died; -1 after a message. */
static pid_t start_service(struct service_start *s, struct jail_cgroup *into)
{
	struct jail_cgroup none = { .active = false };
	char *stack = malloc(SERVICE_STACK_SIZE);
	pid_t pid;

	if (!stack) {
		jail_msg(s->p, "start the service: out of memory");
		return -1;
	}
	pid = jail_cgroup_spawn(into ? into : &none, 0, service_main, s,
				stack + SERVICE_STACK_SIZE);
	if (pid < 0)
		/* ENOMEM for a member: the namespace's init is gone, the jail is ending. */
		jail_msg(s->p, "start the service: %s", errno == ENOMEM && s->p->o->join ?
			 "the jail has ended" : strerror(errno));
	free(stack);
	return pid;
}

static void hand_over(const struct jail_plan *p, pid_t service)
{
	const struct jail_seccomp *sc = &p->seccomp;
	bool notify = jail_seccomp_notifies(sc);

	close(p->status_sock[1]);
	if (notify)
		close(sc->notify_sock[1]);
	jail_keeper_exec_init(p->keeper_fd, p->name, service, notify ? sc->notify_sock[0] : -1,
			      notify ? sc->keeper_fd : -1);
}

/* The keeper could not take over: end the service (the jail, as its PID 1). */
static int abandon(pid_t service)
{
	kill(service, SIGKILL);
	if (getpid() == 1)
		kill(-1, SIGKILL);
	waitpid(service, NULL, __WALL);
	while (getpid() == 1 && waitpid(-1, NULL, __WALL) > 0)
		;
	return JAIL_EXIT_SETUP;
}

int jail_service_run(struct jail_plan *p, struct jail_cgroup *into,
		     void (*enter)(struct jail_plan *p, void *arg), void *arg)
{
	struct service_start s = { .p = p, .enter = enter, .arg = arg };
	pid_t service = start_service(&s, into);

	if (service < 0)
		return JAIL_EXIT_SETUP;
	/*
	 * A member's keeper holds its pool id's lock (idrange.h) while it
	 * runs; the stub closed the jail's, which the watcher holds.
	 */
	if (p->idrange_fd >= 0)
		fcntl(p->idrange_fd, F_SETFD, 0);
	hand_over(p, service);
	jail_msg(p, "exec ujail-keeper: %s; stopping the service", strerror(errno));
	return abandon(service);
}

void jail_service_exec(struct jail_plan *p)
{
	const int keep[] = {
		p->status_sock[1], jail_seccomp_keep_fd(&p->seccomp), p->seccomp.notify_sock[1],
		p->userns_fd, p->trace ? p->trace->keep_fd(p->trace->ctx) : -1,
	};
	size_t n_env = 0;
	char err[ERR_MAX];

	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	default_signal_actions();
	/* A new session without a terminal: no TIOCSTI into the caller's. */
	if (setsid() < 0)
		service_fail(p, JAIL_EXIT_SETUP, "setsid", strerror(errno));
	jail_close_fds_except(keep, sizeof(keep) / sizeof(keep[0]));
	while (p->envp[n_env])
		n_env++;
	/* Last of the host's privileges: after it, capabilities are the namespace's. */
	if (p->userns_fd >= 0 && jail_userns_enter(p->userns_fd, err, sizeof(err)))
		service_fail(p, JAIL_EXIT_SETUP, "user namespace", err);
	if (p->trace && p->trace->arm(p->trace->ctx, err, sizeof(err)))
		service_fail(p, JAIL_EXIT_SETUP, "--trace", err);
	/* While we hold CAP_SYS_ADMIN (no no_new_privs needed), before -S's filter. */
	if (jail_baseline_apply(&p->baseline, err, sizeof(err)))
		service_fail(p, JAIL_EXIT_SETUP, "baseline", err);
	if (jail_seccomp_env(&p->seccomp, p->envp, &n_env, err, sizeof(err)) ||
	    jail_privileges_apply(&p->creds, &p->caps, err, sizeof(err)))
		service_fail(p, JAIL_EXIT_SETUP, "privileges", err);
	if ((p->o->no_new_privs || p->seccomp.enabled) &&
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		service_fail(p, JAIL_EXIT_SETUP, "prctl(PR_SET_NO_NEW_PRIVS)", strerror(errno));
	announce_start(p);
	/* Before -S's filter, which need not allow seccomp(). */
	if (p->trace && p->trace->begin(p->trace->ctx, err, sizeof(err)))
		service_fail(p, JAIL_EXIT_SETUP, "--trace", err);
	if (jail_seccomp_install_static(&p->seccomp, err, sizeof(err)))
		service_fail(p, JAIL_EXIT_SETUP, "seccomp", err);
	execve(p->exe, p->o->argv, p->envp);
	service_fail(p, JAIL_EXIT_NOT_STARTED, p->exe, strerror(errno));
}
