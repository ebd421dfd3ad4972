/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The jail's namespaces: created by clone() (new mount, pid, ipc, uts;
 * net with -N, cgroup with -F), or joined with -j through a pidfd.
 */
#ifndef UJAIL_NS_H
#define UJAIL_NS_H

#include <stddef.h>

#include "options.h"

#define JAIL_MAX_JOINS 8

struct jail_ns {
	int clone_flags;		/* CLONE_NEW* for clone() */
	size_t n_joins;
	int join_pidfd[JAIL_MAX_JOINS];	/* one per -j, opened by the outer */
	unsigned int join_flags[JAIL_MAX_JOINS];
};

/* Plan the namespaces of @o and open the -j processes. 0, or -1 with @err. */
int jail_ns_plan(const struct jail_opts *o, struct jail_ns *ns, char *err,
		 size_t errlen);
void jail_ns_close(struct jail_ns *ns);

/* Outer, before clone(): join a -j pid namespace (for the jail's processes). */
int jail_ns_join_pid(const struct jail_ns *ns, char *err, size_t errlen);

/*
 * In the stub, before the root is built: join the other -j namespaces
 * (a joined mount namespace is then copied: the jail never changes it),
 * set the hostname (-h), bring lo up (-N).
 */
int jail_ns_enter(const struct jail_opts *o, const struct jail_ns *ns,
		  char *err, size_t errlen);

#endif
