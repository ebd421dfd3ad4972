// SPDX-License-Identifier: GPL-2.0
/*
 * --join NAME: the service becomes a member of a running jail, in its
 * namespaces, root and cgroup as they are. A member brings its own
 * credentials, capabilities, seccomp policy, environment and user
 * namespace; what would shape the jail itself is refused, not ignored.
 */
#include <stdbool.h>
#include <stddef.h>

#include "options/options_int.h"

struct shaping {
	bool given;
	const char *option;
	const char *why;
};

int opt_check_member(const struct jail_opts *o)
{
	const char *made = "the jail's namespaces were made when it started";
	const char *root = "the jail's root was staged when it started";
	const char *limits = "a member shares the jail's cgroup and its limits";
	const struct shaping shapes[] = {
		{ o->name != NULL, "-n", "--join NAME names the jail" },
		{ o->hostname != NULL, "-h", made },
		{ o->veth != NULL, "--veth", made },	/* before -N, which it implies */
		{ o->netns, "-N", made },
		{ o->cgroupns, "-F", made },
		{ o->n_joins > 0, "-j", made },
		{ o->n_paths > 0, "-r/-w", root },
		{ o->proc, "-p", root },
		{ o->sys, "-s", root },
		{ o->ubus, "-u", root },
		{ o->udebug, "-D", root },
		{ o->dev_log, "-l", root },
		{ o->ro_root, "-o", root },
		{ o->fs != NULL, "--fs", root },
		{ o->cgroup_parent != NULL, "--cgroup-parent", limits },
		{ o->memory_max != NULL, "--memory-max", limits },
		{ o->memory_high != NULL, "--memory-high", limits },
		{ o->cpu_max != NULL, "--cpu-max", limits },
		{ o->pids_max != NULL, "--pids-max", limits },
		{ o->io_weight != NULL, "--io-weight", limits },
		{ o->timeout_given, "-t", "a member gets the signals its ujail gets, with no "
		  "SIGKILL escalation of its own" },
		{ o->pidfile != NULL, "-P", "a member has no pid file" },
		{ o->trace != NULL, "--trace", "trace the jail's own service instead" },
	};

	if (!o->join)
		return 0;
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		if (shapes[i].given)
			return opt_fail(NULL, "--join %s: %s cannot be used with --join (%s)",
					o->join, shapes[i].option, shapes[i].why);
	return 0;
}
