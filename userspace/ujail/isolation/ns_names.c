// SPDX-License-Identifier: GPL-2.0
/* Namespace names; see ns_names.h. */
#include <string.h>

#include "isolation/ns_names.h"

/* The /proc name of a flag comes first: jail_ns_name() takes the first. */
static const struct {
	const char *name;
	unsigned int flag;
} namespaces[] = {
	{ "pid", CLONE_NEWPID },
	{ "net", CLONE_NEWNET },
	{ "network", CLONE_NEWNET },
	{ "mnt", CLONE_NEWNS },
	{ "mount", CLONE_NEWNS },
	{ "ipc", CLONE_NEWIPC },
	{ "uts", CLONE_NEWUTS },
	{ "cgroup", CLONE_NEWCGROUP },
	{ "time", CLONE_NEWTIME },
	{ "user", CLONE_NEWUSER },
};

#define N_NAMESPACES (sizeof(namespaces) / sizeof(namespaces[0]))

unsigned int jail_ns_flag(const char *name)
{
	for (size_t i = 0; i < N_NAMESPACES; i++)
		if (!strcmp(namespaces[i].name, name))
			return namespaces[i].flag;
	return 0;
}

const char *jail_ns_name(unsigned int flag)
{
	for (size_t i = 0; i < N_NAMESPACES; i++)
		if (namespaces[i].flag == flag)
			return namespaces[i].name;
	return "?";
}
