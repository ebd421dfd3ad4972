// SPDX-License-Identifier: GPL-2.0
/*
 * The stub: PID 1 of the jail until the service runs (see init.h). It
 * shares the outer ujail's memory (CLONE_VM | CLONE_VFORK) and holds no
 * capability the service could use: it is not dumpable (inherited from
 * the outer ujail), and neither is the keeper it becomes.
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec/init.h"
#include "exec/service.h"
#include "keeper/keeper.h"
#include "plan/plan.h"
#include "root/rootfs.h"
#include "seccomp/errmsg.h"

#define SERVICE_STACK_SIZE (256 * 1024)

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

/* Whatever the outer ujail inherited from its caller stays outside. */
static void close_inherited_fds(struct jail_plan *p)
{
	int keep[6 + JAIL_MAX_JOINS + 2] = {
		p->status_sock[1], jail_seccomp_keep_fd(&p->seccomp),
		p->seccomp.keeper_fd, p->keeper_fd, p->userns_fd,
		p->trace ? p->trace->keep_fd(p->trace->ctx) : -1,
	};
	size_t n = 6;

	for (size_t i = 0; i < p->ns.n_joins; i++)
		keep[n++] = p->ns.join_pidfd[i];
	n += jail_veth_fds(&p->veth, keep + n);
	jail_close_fds_except(keep, n);
}

/* Everything before the service starts; false after a message. */
static bool stub_prepare(struct jail_plan *p)
{
	struct jail_host_files files = { &p->deps, p->paths, p->n_paths };
	char err[ERR_MAX];

	if (follow_parent(p) < 0)
		return false;
	/* Into the jail's cgroup (and -F namespace) before anything runs in it. */
	if (jail_cgroup_enter(&p->cgroup, p->o->cgroupns, err, sizeof(err)) < 0)
		goto fail;
	close(p->status_sock[0]);
	close_inherited_fds(p);
	if (jail_ns_enter(p->o, &p->ns, err, sizeof(err)) < 0 ||
	    jail_veth_setup(&p->veth, err, sizeof(err)) < 0)
		goto fail;
	jail_ns_close(&p->ns);
	if ((p->ns.new_root &&
	     jail_rootfs_enter(p->o, p->fs_ops, &files, &p->accounts, err, sizeof(err)) < 0) ||
	    jail_seccomp_notify_open(&p->seccomp, err, sizeof(err)) < 0)
		goto fail;
	return true;
fail:
	jail_msg(p, "%s", err);
	return false;
}

static int service_main(void *arg)
{
	struct jail_plan *p = arg;
	sigset_t set;

	keeper_signals(&set);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	jail_service_exec(p);
}

/* Returns once the service has exec'd its program, or died. */
static pid_t start_service(struct jail_plan *p)
{
	char *stack = malloc(SERVICE_STACK_SIZE);
	pid_t pid;

	if (!stack) {
		jail_msg(p, "start the service: out of memory");
		return -1;
	}
	pid = clone(service_main, stack + SERVICE_STACK_SIZE,
		    CLONE_VM | CLONE_VFORK | SIGCHLD, p);
	if (pid < 0)
		jail_msg(p, "start the service (clone): %s", strerror(errno));
	free(stack);
	return pid;
}

/* The keeper could not take over: end the jail here. */
static int abandon(pid_t service)
{
	kill(service, SIGKILL);
	if (getpid() == 1)
		kill(-1, SIGKILL);
	while (waitpid(-1, NULL, __WALL) > 0)
		;
	return JAIL_EXIT_SETUP;
}

int jail_stub_main(void *arg)
{
	struct jail_plan *p = arg;
	pid_t service;

	if (!stub_prepare(p))
		return JAIL_EXIT_SETUP;
	service = start_service(p);
	if (service < 0)
		return JAIL_EXIT_SETUP;
	jail_service_hand_over(p, service);
	jail_msg(p, "exec ujail-keeper: %s", strerror(errno));
	return abandon(service);
}
