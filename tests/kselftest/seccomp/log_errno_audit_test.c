// SPDX-License-Identifier: GPL-2.0
/*
 * On a patched kernel built with CONFIG_AUDIT, SECCOMP_RET_LOG_ERRNO emits the
 * usual seccomp audit record (type 1326) besides its own log line. Without
 * auditd the kernel prints audit records to the log, from the kauditd
 * thread, so the record is waited for.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <sys/resource.h>
#include <time.h>

#include "kselftest_harness.h"
#include "seccomp_util.h"

#define DENIED_NR __NR_getpriority

/* Wait up to @ms for a kmsg record containing both @a and @b. */
static int kmsg_wait_for(int fd, const char *a, const char *b, int ms,
			 char *found, size_t size)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char rec[2048];

	for (;;) {
		ssize_t len = read(fd, rec, sizeof(rec) - 1);

		if (len < 0 && errno == EPIPE)
			continue;
		if (len > 0) {
			rec[len] = '\0';
			if (strstr(rec, a) && strstr(rec, b)) {
				snprintf(found, size, "%s", strchr(rec, ';') + 1);
				return 1;
			}
			continue;
		}
		if (ms <= 0 || poll(&pfd, 1, 100) < 0)
			return 0;
		ms -= 100;
	}
}

TEST(log_errno_also_emits_the_seccomp_audit_record)
{
	char line[1024] = "", pid_key[32], code_key[32], nr_key[32];
	int kmsg = kmsg_open_at_end();

	ASSERT_LE(0, kmsg);
	ASSERT_EQ(0, install_nr_filter(DENIED_NR, SECCOMP_RET_LOG_ERRNO | EACCES, 0));
	EXPECT_EQ(-1, syscall(DENIED_NR, PRIO_PROCESS, 0));
	EXPECT_EQ(EACCES, errno);

	snprintf(pid_key, sizeof(pid_key), " pid=%d ", getpid());
	ASSERT_EQ(1, kmsg_wait_for(kmsg, "seccomp: log_errno ", pid_key, 0,
				   line, sizeof(line)));
	TH_LOG("log line: %s", line);

	/* code= is the action, as for every seccomp record; it ends the line. */
	snprintf(code_key, sizeof(code_key), " code=0x%x\n", SECCOMP_RET_LOG_ERRNO);
	ASSERT_EQ(1, kmsg_wait_for(kmsg, "type=1326 ", code_key, 5000,
				   line, sizeof(line)));
	TH_LOG("audit record: %s", line);
	EXPECT_NE(NULL, strstr(line, pid_key));
	snprintf(nr_key, sizeof(nr_key), " syscall=%d ", DENIED_NR);
	EXPECT_NE(NULL, strstr(line, nr_key));
	close(kmsg);
}

TEST_HARNESS_MAIN
