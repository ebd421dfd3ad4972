// SPDX-License-Identifier: GPL-2.0
/*
 * On a kernel without SECCOMP_RET_LOG_ERRNO (Debian's stock kernels) the
 * action must be reported unavailable everywhere userspace can look, and a
 * filter returning it must fail closed: the kernel treats unknown actions as
 * SECCOMP_RET_KILL_PROCESS. ujail relies on both to pick a fallback.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "seccomp_util.h"

TEST(get_action_avail_says_unsupported)
{
	__u32 action = SECCOMP_RET_LOG_ERRNO;
	__u32 known = SECCOMP_RET_ERRNO;

	ASSERT_EQ(0, sys_seccomp(SECCOMP_GET_ACTION_AVAIL, 0, &known));
	EXPECT_EQ(-1, sys_seccomp(SECCOMP_GET_ACTION_AVAIL, 0, &action));
	EXPECT_EQ(EOPNOTSUPP, errno);
}

TEST(sysctls_do_not_know_it)
{
	char avail[256], saved[256];

	ASSERT_EQ(0, read_file(ACTIONS_AVAIL, avail, sizeof(avail)));
	TH_LOG("actions_avail: %s", avail);
	EXPECT_NE(NULL, strstr(avail, "errno"));
	EXPECT_EQ(NULL, strstr(avail, "log_errno"));

	ASSERT_EQ(0, read_file(ACTIONS_LOGGED, saved, sizeof(saved)));
	EXPECT_EQ(EINVAL, write_file(ACTIONS_LOGGED, "log_errno"));
	EXPECT_EQ(0, write_file(ACTIONS_LOGGED, saved));
}

TEST(filter_returning_it_kills_the_process)
{
	pid_t child = fork();
	int status;

	ASSERT_LE(0, child);
	if (child == 0) {
		if (install_nr_filter(__NR_getpriority,
				      SECCOMP_RET_LOG_ERRNO | EPERM, 0))
			_exit(2);
		syscall(__NR_getpriority, PRIO_PROCESS, 0);
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(SIGSYS, WTERMSIG(status));
}

TEST_HARNESS_MAIN
