/* SPDX-License-Identifier: GPL-2.0 */
/* -j PID:NS[,NS...]: namespaces joined, and what they exclude. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "isolation/ns_names.h"
#include "options/options_int.h"

#define KNOWN_NAMESPACES "pid, net, mnt, ipc, uts, cgroup, time"

/* Adds namespace @ns to *@flags, the set one -j joins. */
int opt_join_ns(const struct jail_opts *o, unsigned int *flags,
		const char *ns, const char *where)
{
	unsigned int flag = jail_ns_flag(ns);

	if (!*ns)
		return opt_fail(where, "empty namespace name");
	if (!flag)
		return opt_fail(where, "unknown namespace '%s' (" KNOWN_NAMESPACES ")", ns);
	if (flag == CLONE_NEWUSER)
		return opt_fail(where, "joining a user namespace is not implemented yet");
	if (*flags & flag)
		return opt_fail(where, "namespace '%s' given twice", ns);
	for (size_t i = 0; i < o->n_joins; i++)
		if (o->joins[i].ns_flags & flag)
			return opt_fail(where, "the %s namespace is already joined from pid %d",
					jail_ns_name(flag), (int)o->joins[i].pid);
	*flags |= flag;
	return 0;
}

int opt_add_join(struct jail_opts *o, pid_t pid, unsigned int flags)
{
	struct jail_join *grown = realloc(o->joins, (o->n_joins + 1) * sizeof(*grown));

	if (!grown)
		return opt_oom();
	o->joins = grown;
	grown[o->n_joins++] = (struct jail_join){ pid, flags };
	return 0;
}

/* "PID:NS[,NS...]", what procd builds from a service's "setns" entries. */
int opt_join_arg(struct jail_opts *o, const char *arg, const char *where)
{
	const char *colon = strchr(arg, ':');
	unsigned int flags = 0;
	unsigned long pid;
	char *list, *ns, *next;
	int ret = 0;

	if (!colon)
		return opt_fail(where, "expected PID:NS[,NS...]");
	if (!opt_parse_number(arg, (size_t)(colon - arg), INT_MAX, &pid) || !pid)
		return opt_fail(where, "'%.*s' is not a process id", (int)(colon - arg), arg);
	list = strdup(colon + 1);
	if (!list)
		return opt_oom();
	for (ns = list; ns && !ret; ns = next) {
		next = strchr(ns, ',');
		if (next)
			*next++ = '\0';
		ret = opt_join_ns(o, &flags, ns, where);
	}
	free(list);
	return ret ? ret : opt_add_join(o, (pid_t)pid, flags);
}

/* A namespace cannot be both joined and new. */
int opt_check_joins(const struct jail_opts *o)
{
	unsigned int joined = 0;

	for (size_t i = 0; i < o->n_joins; i++)
		joined |= o->joins[i].ns_flags;
	if ((joined & CLONE_NEWNET) && o->netns)
		return opt_fail(NULL, "-j joins a net namespace and -N asks for a new "
				"one; use one or the other");
	if ((joined & CLONE_NEWUTS) && o->hostname)
		return opt_fail(NULL, "-j joins a uts namespace and -h sets a hostname, "
				"which needs a new one; use one or the other");
	if ((joined & CLONE_NEWCGROUP) && o->cgroupns)
		return opt_fail(NULL, "-j joins a cgroup namespace and -F asks for a new "
				"one; use one or the other");
	return 0;
}
