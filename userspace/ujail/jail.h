/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running a service in a jail. Three processes:
 *  - the outer ujail (jail.c): checks and prepares everything on the host,
 *    creates the jail, then becomes "ujail-keeper watch" (keeper/), which
 *    forwards signals, writes the pid file and returns the service's
 *    status;
 *  - the stub (init.c): PID 1 of the jail's pid namespace, builds the
 *    root, starts the service, then becomes "ujail-keeper init", which
 *    reaps and forwards signals;
 *  - the service (service.c): PID 2, drops everything, then execve().
 * The stub and the service are started with CLONE_VM | CLONE_VFORK: no
 * copy of ujail's memory is made, and each parent waits until its child
 * has exec'd (or died), so only one of the three runs on the shared
 * memory at a time.
 * All decisions that need the host (the command, its libraries, users,
 * capabilities, the seccomp program) are taken by the outer process before
 * anything is created, into a struct jail_plan the others only read.
 */
#ifndef UJAIL_JAIL_H
#define UJAIL_JAIL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "root/accounts.h"
#include "confine/baseline.h"
#include "isolation/cgroup.h"
#include "creds/creds.h"
#include "confine/jail_seccomp.h"
#include "isolation/ns.h"
#include "options/options.h"
#include "deps/pathset.h"
#include "plan/registry.h"
#include "root/stage.h"
#include "isolation/veth.h"

/* Exit statuses (ujail.8). */
#define JAIL_EXIT_SETUP		1
#define JAIL_EXIT_USAGE		2
#define JAIL_EXIT_NOT_STARTED	127

struct jail_plan {
	const struct jail_opts *o;
	const char *name;		/* for messages: -n, else the command */
	char exe[PATH_MAX];		/* the command, resolved on the host */
	struct path_set deps;		/* staged read-only */
	struct jail_path *paths;	/* the -r/-w the host has (plan_paths.h) */
	size_t n_paths;
	char **envp;			/* the service's environment */
	struct jail_creds creds;
	struct jail_accounts accounts;	/* the jail's /etc/passwd and group */
	struct jail_caps caps;
	struct jail_seccomp seccomp;
	struct jail_baseline baseline;	/* before -S, in every jail */
	struct jail_ns ns;
	struct jail_veth veth;		/* --veth; host_ifindex set by the stub */
	int status_sock[2];		/* [1]: the service says it starts;
					 * [0]: the outer learns its host pid */
	int parent_alive[2];		/* [1] held by the outer only: EOF = it died */
	int keeper_fd;			/* ujail-keeper, O_PATH */
	int userns_fd;			/* -f: the service's user namespace, or -1 */
	int idrange_fd;			/* -f: the pool id's lock (idrange.h), or -1 */
	const struct stage_ops *fs_ops;	/* --fs: the root's stage backend */
	struct jail_cgroup cgroup;	/* the limits: the jail's own cgroup */
	struct jail_record record;	/* -n NAME: the record --join finds */
};

/* Shared by the jail and its members (join.c): */
/* @p->envp from -e: only those variables, with room for the shim's. */
int jail_plan_env(struct jail_plan *p);
/* -f: the user namespace, and ids the service takes inside its maps. */
int jail_plan_userns(struct jail_plan *p, char *err, size_t errlen);
/* Our own executable's path (the keeper and the shims are found beside it). */
void jail_self_exe(char *buf, size_t len);

/* Run the jail described by @o; returns ujail's exit status. */
int jail_run(const struct jail_opts *o);

/* "ujail: NAME: " + message on stderr. */
__attribute__((format(printf, 2, 3)))
void jail_msg(const struct jail_plan *p, const char *fmt, ...);

#endif
