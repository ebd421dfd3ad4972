/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The jail's own cgroup (cgroup v2), when a limit (--memory-max,
 * --memory-high, --cpu-max, --pids-max, --io-weight) or --cgroup-parent
 * is given: PARENT/NAME-PID, PARENT created if missing (and kept), the
 * controllers the limits need enabled from the cgroup2 mount down to it.
 *
 *   outer, plan:   jail_cgroup_plan() checks the host, changes nothing;
 *   outer, start:  jail_cgroup_create() makes the cgroup, writes the limits;
 *   start:         jail_cgroup_spawn() starts the stub in it, or
 *   stub:          jail_cgroup_enter() moves it in (-F: and unshares the
 *                  cgroup namespace there, so the jail sees "0::/");
 *   end:           ujail-keeper watch kills what is left and removes it
 *                  (keeper_cgroup_end()); jail_cgroup_remove() undoes a
 *                  create when the jail could not start.
 */
#ifndef UJAIL_CGROUP_H
#define UJAIL_CGROUP_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "options/options.h"

#define CGROUP_DEFAULT_PARENT "/sys/fs/cgroup/ujail"

struct jail_cgroup {
	bool active;			/* the jail gets a cgroup */
	const char *why;		/* the option asking for it, for messages */
	char parent[PATH_MAX];
	char mount[PATH_MAX];		/* the cgroup2 mount holding parent */
	char path[PATH_MAX];		/* the jail's cgroup, once created */
	size_t existing;		/* parent[0..existing) existed; the rest
					 * was made by this run */
	int dir_fd;			/* path, for the stub; -1: none */
	bool born_inside;		/* the stub was cloned into it */
};

/* Check @o's cgroup options against the host; 0, or -1 with @err. */
int jail_cgroup_plan(const struct jail_opts *o, struct jail_cgroup *cg, char *err,
		     size_t errlen);

/* Make the jail's cgroup PARENT/@name-PID with @o's limits; 0, or -1 with
 * @err and nothing left. */
int jail_cgroup_create(const struct jail_opts *o, struct jail_cgroup *cg, const char *name,
		       char *err, size_t errlen);

/* Remove the (still empty) cgroup and the parents this run made. */
void jail_cgroup_remove(struct jail_cgroup *cg);

#include <sys/types.h>

/*
 * Outer: start @fn(@arg) with @flags (namespaces) as CLONE_VFORK does,
 * returning once it has exec'ed or died. Into the cgroup, if @cg is
 * active, by a fork()-like clone3() with CLONE_INTO_CGROUP (moving in
 * through cgroup.procs would wait for an RCU grace period); else, or on
 * a kernel before 5.7, by clone() on @stack_top sharing our memory. The
 * pid, or -1 and errno.
 */
pid_t jail_cgroup_spawn(struct jail_cgroup *cg, unsigned long flags, int (*fn)(void *),
			void *arg, void *stack_top);

/* In the stub: join the cgroup (unless born in it); with @newns unshare the cgroup namespace. */
int jail_cgroup_enter(struct jail_cgroup *cg, bool newns, char *err, size_t errlen);

void jail_cgroup_close(struct jail_cgroup *cg);

#endif
