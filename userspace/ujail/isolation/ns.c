/* SPDX-License-Identifier: GPL-2.0 */
/* The jail's namespaces; see ns.h. */
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "isolation/ns.h"
#include "isolation/userns.h"
#include "seccomp/errmsg.h"

static unsigned int joined_flags(const struct jail_opts *o)
{
	unsigned int flags = 0;

	for (size_t i = 0; i < o->n_joins; i++)
		flags |= o->joins[i].ns_flags;
	return flags;
}

/* Options that shape the jail's filesystem: they need a root of its own. */
static bool root_asked(const struct jail_opts *o)
{
	return o->n_paths || o->proc || o->sys || o->ubus || o->udebug || o->dev_log ||
	       o->ro_root || o->fs;
}

/* Any option that asks for isolation at all (--trace, -t, -P, -e, -d do not). */
static bool isolation_asked(const struct jail_opts *o)
{
	return root_asked(o) || o->hostname || o->netns || o->cgroupns ||
	       jail_userns_wanted(o) || o->n_joins || o->user || o->group || o->capabilities ||
	       o->no_new_privs || o->seccomp || o->cgroup_parent || o->memory_max ||
	       o->memory_high || o->cpu_max || o->pids_max || o->io_weight;
}

/*
 * As procd's ujail: only the options that need a namespace make one (a
 * service with just -U -G -C -c -S keeps the host's filesystem), and any
 * new namespace brings new pid, ipc and uts ones. With no option at all,
 * the default jail: an empty root, every namespace but net and cgroup.
 */
static int planned_flags(const struct jail_opts *o)
{
	bool bare = !isolation_asked(o);
	int flags = 0;

	if (bare || root_asked(o))
		flags |= CLONE_NEWNS;
	if (o->hostname)
		flags |= CLONE_NEWUTS;
	if (o->netns)
		flags |= CLONE_NEWNET;
	if (o->cgroupns)
		flags |= CLONE_NEWCGROUP;
	if (flags || jail_userns_wanted(o))
		flags |= CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWPID;
	return flags;
}

bool jail_ns_wants_root(const struct jail_opts *o)
{
	return planned_flags(o) & CLONE_NEWNS;
}

int jail_ns_plan(const struct jail_opts *o, struct jail_ns *ns, char *err,
		 size_t errlen)
{
	unsigned int joined = joined_flags(o);
	int flags = planned_flags(o);

	memset(ns, 0, sizeof(*ns));
	ns->new_root = flags & CLONE_NEWNS;
	/* A joined namespace replaces the new one (a pid one: joined before clone). */
	ns->clone_flags = flags & ~(int)(joined & (CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWPID));
	if (o->n_joins > JAIL_MAX_JOINS)
		return ujs_fail(err, errlen, "-j: at most %d processes", JAIL_MAX_JOINS);
	for (size_t i = 0; i < o->n_joins; i++) {
		int fd = (int)syscall(SYS_pidfd_open, o->joins[i].pid, 0);

		if (fd < 0) {
			jail_ns_close(ns);
			return ujs_fail(err, errlen, "-j %d: pidfd_open: %s",
				       (int)o->joins[i].pid, strerror(errno));
		}
		ns->join_pidfd[ns->n_joins] = fd;
		ns->join_flags[ns->n_joins++] = o->joins[i].ns_flags;
	}
	return 0;
}

void jail_ns_close(struct jail_ns *ns)
{
	for (size_t i = 0; i < ns->n_joins; i++)
		close(ns->join_pidfd[i]);
	ns->n_joins = 0;
}

int jail_ns_join_pid(const struct jail_ns *ns, char *err, size_t errlen)
{
	for (size_t i = 0; i < ns->n_joins; i++)
		if ((ns->join_flags[i] & CLONE_NEWPID) &&
		    setns(ns->join_pidfd[i], CLONE_NEWPID) < 0)
			return ujs_fail(err, errlen, "-j: join the pid namespace: %s",
				       strerror(errno));
	return 0;
}

static int join_others(const struct jail_ns *ns, char *err, size_t errlen)
{
	for (size_t i = 0; i < ns->n_joins; i++) {
		int flags = (int)(ns->join_flags[i] & ~(unsigned int)CLONE_NEWPID);

		if (!flags)
			continue;
		if (setns(ns->join_pidfd[i], flags) < 0)
			return ujs_fail(err, errlen, "-j: join namespaces %#x: %s", flags,
				       strerror(errno));
		/* The jail builds its root in a copy, never in the joined one. */
		if ((flags & CLONE_NEWNS) && unshare(CLONE_NEWNS) < 0)
			return ujs_fail(err, errlen, "-j: copy the joined mount namespace: %s",
				       strerror(errno));
	}
	return 0;
}

/* -N: the new network namespace has lo, down. No netlink needed for it. */
static int loopback_up(char *err, size_t errlen)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int ret = 0;

	if (fd < 0)
		return ujs_fail(err, errlen, "-N: socket: %s", strerror(errno));
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		ret = ujs_fail(err, errlen, "-N: lo: SIOCGIFFLAGS: %s", strerror(errno));
	ifr.ifr_flags |= IFF_UP;
	if (!ret && ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		ret = ujs_fail(err, errlen, "-N: lo up: SIOCSIFFLAGS: %s", strerror(errno));
	close(fd);
	return ret;
}

int jail_ns_enter(const struct jail_opts *o, const struct jail_ns *ns,
		  char *err, size_t errlen)
{
	if (join_others(ns, err, errlen))
		return -1;
	if (o->hostname && sethostname(o->hostname, strlen(o->hostname)) < 0)
		return ujs_fail(err, errlen, "-h %s: sethostname: %s", o->hostname,
			       strerror(errno));
	return o->netns ? loopback_up(err, errlen) : 0;
}
