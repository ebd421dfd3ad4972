// SPDX-License-Identifier: GPL-2.0
/*
 * The stub: PID 1 of the jail until the service runs (see init.h). It
 * shares the outer ujail's memory (CLONE_VM | CLONE_VFORK) and holds no
 * capability the service could use: it is not dumpable (inherited from
 * the outer ujail), and neither is the keeper it becomes.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "exec/init.h"
#include "exec/service.h"
#include "keeper/keeper.h"
#include "plan/plan.h"
#include "root/rootfs.h"
#include "seccomp/errmsg.h"

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

int jail_stub_main(void *arg)
{
	struct jail_plan *p = arg;

	if (!stub_prepare(p))
		return JAIL_EXIT_SETUP;
	/* The stub is in the jail's cgroup already: so is its child. */
	return jail_service_run(p, NULL, NULL, NULL);
}
