/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The outer ujail process; see jail.h. It makes the plan (plan/), then
 * starts the jail and only waits: it forwards signals to the stub,
 * escalates a SIGTERM to SIGKILL after -t seconds, writes the pid file
 * when the service starts, and returns its status.
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec/init.h"
#include "exec/jail_keeper.h"
#include "jail.h"
#include "keeper/keeper.h"
#include "plan/plan.h"
#include "seccomp/errmsg.h"

#define STUB_STACK_SIZE (1024 * 1024)

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

/* ---- the jail's start ---- */

static pid_t start_stub(struct jail_plan *p)
{
	char *stack = malloc(STUB_STACK_SIZE);
	char err[ERR_MAX];
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
	/* Returns once the stub has become the keeper, or died. */
	pid = jail_cgroup_spawn(&p->cgroup, p->ns.clone_flags, jail_stub_main, p,
				stack + STUB_STACK_SIZE);
	if (pid < 0)
		jail_msg(p, "clone (new namespaces %#x): %s", p->ns.clone_flags, strerror(errno));
	free(stack);
	return pid;
}

/* Start the jail and become its watcher; returns only on failure. */
static int run_jail(struct jail_plan *p)
{
	const char *cgroup = p->cgroup.active ? p->cgroup.path : NULL;
	struct jail_watch watch = {
		.name = p->name, .status_fd = p->status_sock[0], .term_timeout = p->o->term_timeout,
		.pidfile = p->o->pidfile, .cgroup = cgroup, .record_fd = p->record.fd,
		.record = p->record.path,
	};
	char err[ERR_MAX];
	sigset_t set;
	pid_t stub;
	int status;

	if (jail_cgroup_create(p->o, &p->cgroup, p->name, err, sizeof(err))) {
		jail_msg(p, "%s", err);
		return JAIL_EXIT_SETUP;
	}
	/* Blocked before clone(): what comes before the keepers read it stays pending. */
	keeper_signals(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
	stub = start_stub(p);
	if (stub < 0) {
		jail_cgroup_remove(&p->cgroup);
		return JAIL_EXIT_SETUP;
	}
	close(p->status_sock[1]);
	p->status_sock[1] = -1;
	watch.stub = stub;
	/* A stub cloned into the cgroup had its own memory: ask the kernel. */
	if (p->veth.on && !p->veth.host_ifindex)
		p->veth.host_ifindex = (int)if_nametoindex(p->veth.host);
	watch.host_ifindex = p->veth.host_ifindex;
	if (p->record.fd >= 0 && jail_record_write(&p->record, stub, cgroup, err, sizeof(err))) {
		jail_msg(p, "%s; stopping the jail", err);
	} else {
		/* The watcher holds the pool id's lock for as long as the jail runs. */
		if (p->idrange_fd >= 0)
			fcntl(p->idrange_fd, F_SETFD, 0);
		jail_keeper_exec_watch(p->keeper_fd, &watch);
		jail_msg(p, "exec ujail-keeper: %s; stopping the jail", strerror(errno));
	}
	kill(stub, SIGKILL);
	waitpid(stub, &status, 0);
	if (cgroup && keeper_cgroup_end(cgroup, err, sizeof(err)) < 0)
		jail_msg(p, "%s", err);
	jail_veth_delete_host(&p->veth);
	return JAIL_EXIT_SETUP;
}

int jail_run(const struct jail_opts *o, const struct jail_trace_hook *trace)
{
	struct jail_plan p;
	int status;

	jail_plan_init(&p, o);
	p.trace = trace;
	/* Not dumpable: nothing in the jail may ptrace us or the stub. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	if (geteuid() != 0) {
		jail_msg(&p, "must run as root");
		return JAIL_EXIT_SETUP;
	}
	status = jail_plan_make(&p);
	if (status == 0)
		status = open_channels(&p) ? JAIL_EXIT_SETUP : run_jail(&p);
	jail_plan_free(&p);
	return status;
}
