// SPDX-License-Identifier: GPL-2.0
/*
 * The test kernels have Landlock built in and active, at ABI 6 or later:
 * the ABI whose scopes (LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET,
 * LANDLOCK_SCOPE_SIGNAL) ujail's jails are confined with. Both scopes are
 * checked at work: a domain cannot signal or connect out of itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/landlock.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#define SCOPES_ABI 6

static long create_ruleset(const struct landlock_ruleset_attr *attr,
			   size_t size, __u32 flags)
{
	return syscall(__NR_landlock_create_ruleset, attr, size, flags);
}

/* Confine the calling task to a new domain with @scoped; 0 or -1. */
static int restrict_self(__u64 scoped)
{
	const struct landlock_ruleset_attr attr = { .scoped = scoped };
	long fd = create_ruleset(&attr, sizeof(attr), 0);
	int ret;

	if (fd < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	ret = syscall(__NR_landlock_restrict_self, fd, 0);
	close(fd);
	return ret ? -1 : 0;
}

/* Run @fn in a child; its exit status (0 on success), or -1. */
static int in_child(int (*fn)(void *), void *arg)
{
	pid_t child = fork();
	int status;

	if (child < 0)
		return -1;
	if (child == 0)
		_exit(fn(arg));
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST(abi_version_has_the_scopes)
{
	long abi = create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);

	/* EOPNOTSUPP: built in but not in the LSM list; ENOSYS: not built. */
	ASSERT_LE(0, abi) {
		TH_LOG("landlock_create_ruleset: %s", strerror(errno));
	}
	TH_LOG("Landlock ABI %ld", abi);
	EXPECT_LE(SCOPES_ABI, abi);
}

TEST(scoped_only_ruleset_is_accepted)
{
	const struct landlock_ruleset_attr attr = {
		.scoped = LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET |
			  LANDLOCK_SCOPE_SIGNAL,
	};
	long fd = create_ruleset(&attr, sizeof(attr), 0);

	ASSERT_LE(0, fd) {
		TH_LOG("landlock_create_ruleset: %s", strerror(errno));
	}
	close(fd);
}

static int signal_out_and_in(void *arg)
{
	pid_t outside = *(pid_t *)arg;

	if (restrict_self(LANDLOCK_SCOPE_SIGNAL))
		return 10;
	if (kill(outside, 0) != -1 || errno != EPERM)
		return 11;
	if (kill(getpid(), 0))	/* within the domain */
		return 12;
	return 0;
}

TEST(signal_scope_stops_signals_out_of_the_domain)
{
	pid_t self = getpid();

	EXPECT_EQ(0, in_child(signal_out_and_in, &self));
}

static socklen_t abstract_addr(struct sockaddr_un *addr, pid_t pid)
{
	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	/* Abstract: sun_path starts with a NUL byte. */
	snprintf(addr->sun_path + 1, sizeof(addr->sun_path) - 1,
		 "ujail-landlock-test-%d", (int)pid);
	return offsetof(struct sockaddr_un, sun_path) + 1 +
	       strlen(addr->sun_path + 1);
}

static int connect_out(void *arg)
{
	pid_t listener = *(pid_t *)arg;
	struct sockaddr_un addr;
	socklen_t len = abstract_addr(&addr, listener);
	int fd;

	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0)
		return 20;
	/* Reachable before the domain... */
	if (connect(fd, (struct sockaddr *)&addr, len))
		return 21;
	close(fd);
	if (restrict_self(LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET))
		return 22;
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0)
		return 23;
	/* ...not from inside it. */
	if (connect(fd, (struct sockaddr *)&addr, len) != -1 || errno != EPERM)
		return 24;
	return 0;
}

TEST(abstract_unix_scope_stops_connecting_out_of_the_domain)
{
	pid_t self = getpid();
	struct sockaddr_un addr;
	socklen_t len = abstract_addr(&addr, self);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, bind(fd, (struct sockaddr *)&addr, len));
	ASSERT_EQ(0, listen(fd, 4));
	EXPECT_EQ(0, in_child(connect_out, &self));
	close(fd);
}

TEST_HARNESS_MAIN
