// SPDX-License-Identifier: GPL-2.0
/*
 * "ujail-keeper init": the jail's PID 1 once the service runs (keeper.h).
 * As PID 1 of the pid namespace it reaps every orphan; when the service
 * itself ends, its process group is killed, and once the members that
 * joined the jail (members.c) have ended too, whatever is left is killed
 * and the jail ends.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "keeper/keeper.h"
#include "keeper/msg.h"
#include "seccomp/errmsg.h"
#include "seccomp/install.h"
#include "seccomp/supervise.h"

/* Kill what is left (every process of the namespace when we are its init). */
static void kill_the_rest(pid_t service)
{
	kill(-service, SIGKILL);
	if (getpid() == 1)
		kill(-1, SIGKILL);
	while (waitpid(-1, NULL, __WALL) > 0)
		;
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

/* The service ended: the jail ends with its last member. */
static void end_jail(const char *name, pid_t service, int sigfd)
{
	kill(-service, SIGKILL);
	keeper_wait_members(name, sigfd);
	kill_the_rest(service);
}

static int forward_and_reap(const char *name, pid_t service, int sigfd)
{
	struct signalfd_siginfo si;
	int status = 0;

	/* The service may have ended before the exec that started us. */
	while (!reap(service, &status)) {
		ssize_t n = read(sigfd, &si, sizeof(si));

		if (n < 0 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof(si)) {
			kill_the_rest(service);
			return KEEPER_EXIT_SETUP;
		}
		if (si.ssi_signo != SIGCHLD)
			kill(service, (int)si.ssi_signo);
	}
	end_jail(name, service, sigfd);
	return keeper_exit_code(status);
}

/* Notify mode: log and answer denials, reaping as PID 1. */
static int supervise_seccomp(const struct keeper_init *in, int sigfd)
{
	struct ujs_loaded_program prog;
	struct ujs_supervisor sv = { .name = in->name, .log = stderr, .as_init = true };
	char err[ERR_MAX];
	int status;

	if (ujs_program_read(in->program_fd, &prog, err, sizeof(err)) < 0) {
		keeper_msg(in->name, "seccomp program: %s", err);
		close(in->notify_fd);
		kill_the_rest(in->service);
		return KEEPER_EXIT_SETUP;
	}
	close(in->program_fd);
	sv.insns = prog.insns;
	sv.len = prog.count;
	/* ujs_supervise() closes the socket. */
	status = ujs_supervise(&sv, in->service, sigfd, in->notify_fd, err, sizeof(err));
	if (status < 0) {
		keeper_msg(in->name, "seccomp supervisor: %s", err);
		status = KEEPER_EXIT_SETUP;
	}
	ujs_loaded_program_free(&prog);
	end_jail(in->name, in->service, sigfd);
	return status;
}

int keeper_init_run(const struct keeper_init *in)
{
	int sigfd = keeper_signalfd(in->name);

	if (sigfd < 0) {
		kill_the_rest(in->service);
		return KEEPER_EXIT_SETUP;
	}
	if (in->notify_fd >= 0)
		return supervise_seccomp(in, sigfd);
	return forward_and_reap(in->name, in->service, sigfd);
}
