// SPDX-License-Identifier: GPL-2.0
/* Landlock scoping of the service; see landlock.h. */
#include <errno.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "confine/landlock.h"
#include "seccomp/errmsg.h"

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_restrict_self 446
#endif
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)

/* struct landlock_ruleset_attr as of ABI 6. */
struct jail_landlock_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

int jail_landlock_abi(void)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);

	return abi < 0 ? -errno : (int)abi;
}

const char *jail_landlock_why_not(int abi)
{
	if (abi == -ENOSYS)
		return "the kernel has no Landlock (CONFIG_SECURITY_LANDLOCK)";
	if (abi == -EOPNOTSUPP)
		return "Landlock is not enabled (not in the kernel's lsm= list)";
	if (abi <= 0)
		return "the kernel's Landlock cannot be probed";
	return "the kernel's Landlock predates scoping (ABI 6, Linux 6.12)";
}

int jail_landlock_scope(uint64_t scopes, char *err, size_t errlen)
{
	struct jail_landlock_attr attr = { .scoped = scopes };
	int fd = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);
	int ret;

	if (fd < 0)
		return ujs_fail(err, errlen, "Landlock: create a ruleset scoping %#llx: %s",
				(unsigned long long)scopes, strerror(errno));
	ret = (int)syscall(SYS_landlock_restrict_self, fd, 0);
	close(fd);
	if (ret < 0)
		return ujs_fail(err, errlen, "Landlock: restrict the service: %s", strerror(errno));
	return 0;
}
