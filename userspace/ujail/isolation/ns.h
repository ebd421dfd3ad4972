/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The jail's namespaces: created by clone() as the options ask (see
 * jail_ns_plan), or joined with -j through a pidfd.
 */
#ifndef UJAIL_NS_H
#define UJAIL_NS_H

#include <stdbool.h>
#include <stddef.h>

#include "options/options.h"

#define JAIL_MAX_JOINS 8

struct jail_ns {
	int clone_flags;		/* CLONE_NEW* for clone() */
	bool new_root;			/* a root of its own (rootfs.h), in CLONE_NEWNS */
	size_t n_joins;
	int join_pidfd[JAIL_MAX_JOINS];	/* one per -j, opened by the outer */
	unsigned int join_flags[JAIL_MAX_JOINS];
};

/*
 * Plan the namespaces of @o and open the -j processes. 0, or -1 with @err.
 * As procd's ujail, a namespace is made only when an option needs it:
 *  - a mount namespace and a root of its own for -r -w -p -s -u -D -l -o
 *    --fs; uts for -h, net for -N/--veth, cgroup for -F, user for -f;
 *  - with any of them, new pid, ipc and uts namespaces too;
 *  - -U -G -C -c -S and the cgroup limits alone make none: the service
 *    runs on the host's filesystem with its credentials changed;
 *  - no option at all (procd refuses that): the default jail, a root of
 *    its own and new mount, pid, ipc and uts namespaces.
 */
int jail_ns_plan(const struct jail_opts *o, struct jail_ns *ns, char *err,
		 size_t errlen);
void jail_ns_close(struct jail_ns *ns);

/* True when @o gets a root of its own (the jail's files are then staged). */
bool jail_ns_wants_root(const struct jail_opts *o);

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
