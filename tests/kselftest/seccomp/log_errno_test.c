// SPDX-License-Identifier: GPL-2.0
/*
 * SECCOMP_RET_LOG_ERRNO on a patched kernel: the errno comes back, the
 * kernel logs who called what, the sysctls control it, stacking follows
 * the documented precedence, and a flood stays rate limited.
 *
 * Tests that expect a log line run before the flood test, and together stay
 * below the rate limit's burst of 10 lines per 5 seconds.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"
#include "seccomp_util.h"

#define DENIED_NR __NR_getpriority
#define FLOOD_CALLS 100000
#define RATELIMIT_BURST 10	/* DEFAULT_RATELIMIT_BURST */
#define RATELIMIT_INTERVAL_S 5	/* DEFAULT_RATELIMIT_INTERVAL */

static long call_denied(void)
{
	return syscall(DENIED_NR, PRIO_PROCESS, 0);
}

TEST(get_action_avail_reports_it)
{
	__u32 action = SECCOMP_RET_LOG_ERRNO;

	ASSERT_EQ(0, sys_seccomp(SECCOMP_GET_ACTION_AVAIL, 0, &action));
}

TEST(actions_avail_lists_it_by_precedence)
{
	char avail[256];

	ASSERT_EQ(0, read_file(ACTIONS_AVAIL, avail, sizeof(avail)));
	TH_LOG("actions_avail: %s", avail);
	ASSERT_NE(NULL, strstr(avail, " errno log_errno user_notif "));
}

TEST(errno_comes_back_and_is_logged)
{
	char line[512] = "";
	int kmsg = kmsg_open_at_end();

	ASSERT_LE(0, kmsg);
	ASSERT_EQ(0, install_nr_filter(DENIED_NR, SECCOMP_RET_LOG_ERRNO | EACCES, 0));

	EXPECT_EQ(-1, call_denied());
	EXPECT_EQ(EACCES, errno);
	/* Everything else still works. */
	EXPECT_EQ(getpid(), syscall(__NR_getpid));

	ASSERT_EQ(1, kmsg_count_log_errno(kmsg, gettid(), getpid(), DENIED_NR,
					  line, sizeof(line)));
	TH_LOG("kernel: %s", line);
	EXPECT_NE(NULL, strstr(line, " errno=13"));
	EXPECT_NE(NULL, strstr(line, " arch=c000003e "));
	EXPECT_NE(NULL, strstr(line, " name=getpriority "));
	EXPECT_NE(NULL, strstr(line, "comm=\"log_errno_test\""));
	close(kmsg);
}

TEST(errno_is_clamped_to_max_errno)
{
	char line[512] = "";
	int kmsg = kmsg_open_at_end();

	ASSERT_LE(0, kmsg);
	ASSERT_EQ(0, install_nr_filter(DENIED_NR, SECCOMP_RET_LOG_ERRNO | 0xffff, 0));
	EXPECT_EQ(-1, call_denied());
	EXPECT_EQ(4095, errno);
	ASSERT_EQ(1, kmsg_count_log_errno(kmsg, gettid(), getpid(), DENIED_NR,
					  line, sizeof(line)));
	EXPECT_NE(NULL, strstr(line, " errno=4095"));
	close(kmsg);
}

/* The sysctl value with one action name taken out. */
static void remove_action(char *names, const char *action)
{
	size_t len = strlen(action);
	char *at = names;

	while ((at = strstr(at, action))) {
		bool starts = at == names || at[-1] == ' ';
		bool ends = at[len] == ' ' || at[len] == '\0';

		if (starts && ends) {
			memmove(at, at + len + (at[len] == ' '),
				strlen(at + len + (at[len] == ' ')) + 1);
			return;
		}
		at += len;
	}
}

FIXTURE(actions_logged) {
	char saved[256];
};

FIXTURE_SETUP(actions_logged)
{
	ASSERT_EQ(0, read_file(ACTIONS_LOGGED, self->saved, sizeof(self->saved)));
}

FIXTURE_TEARDOWN(actions_logged)
{
	EXPECT_EQ(0, write_file(ACTIONS_LOGGED, self->saved));
}

TEST_F(actions_logged, removing_it_silences_the_line)
{
	char without[256];
	int kmsg = kmsg_open_at_end();

	ASSERT_LE(0, kmsg);
	ASSERT_NE(NULL, strstr(self->saved, "log_errno"));
	snprintf(without, sizeof(without), "%s", self->saved);
	remove_action(without, "log_errno");
	ASSERT_EQ(0, write_file(ACTIONS_LOGGED, without));
	ASSERT_EQ(0, install_nr_filter(DENIED_NR, SECCOMP_RET_LOG_ERRNO | EPERM, 0));

	/* Silenced, yet the syscall still fails. */
	EXPECT_EQ(-1, call_denied());
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(0, kmsg_count_log_errno(kmsg, gettid(), getpid(), DENIED_NR, NULL, 0));

	/* Put back, the same call is logged again. */
	ASSERT_EQ(0, write_file(ACTIONS_LOGGED, self->saved));
	EXPECT_EQ(-1, call_denied());
	EXPECT_EQ(1, kmsg_count_log_errno(kmsg, gettid(), getpid(), DENIED_NR, NULL, 0));
	close(kmsg);
}

TEST_F(actions_logged, accepts_the_name)
{
	char now[256];

	ASSERT_EQ(0, write_file(ACTIONS_LOGGED, "log_errno"));
	ASSERT_EQ(0, read_file(ACTIONS_LOGGED, now, sizeof(now)));
	EXPECT_STREQ("log_errno", now);
	EXPECT_EQ(EINVAL, write_file(ACTIONS_LOGGED, "log_errno bogus"));
}

/* Stack @first then @second on the denied syscall. */
static void stack_two(struct __test_metadata *_metadata, __u32 first, __u32 second)
{
	ASSERT_EQ(0, install_nr_filter(DENIED_NR, first, 0));
	ASSERT_EQ(0, install_nr_filter(DENIED_NR, second, 0));
}

TEST(errno_wins_over_log_errno_either_order)
{
	int kmsg = kmsg_open_at_end();
	int order;

	ASSERT_LE(0, kmsg);
	for (order = 0; order < 2; order++) {
		pid_t child = fork();
		int status;

		ASSERT_LE(0, child);
		if (child == 0) {
			__u32 log_errno = SECCOMP_RET_LOG_ERRNO | EPERM;
			__u32 plain = SECCOMP_RET_ERRNO | ENOENT;

			if (order)
				stack_two(_metadata, plain, log_errno);
			else
				stack_two(_metadata, log_errno, plain);
			_exit(call_denied() == -1 && errno == ENOENT ? 0 : 1);
		}
		ASSERT_EQ(child, waitpid(child, &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		EXPECT_EQ(0, kmsg_count_log_errno(kmsg, child, child, DENIED_NR, NULL, 0));
	}
	close(kmsg);
}

TEST(kill_wins_over_log_errno)
{
	int kmsg = kmsg_open_at_end();
	pid_t child;
	int status;

	ASSERT_LE(0, kmsg);
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		stack_two(_metadata, SECCOMP_RET_LOG_ERRNO | EPERM,
			  SECCOMP_RET_KILL_PROCESS);
		call_denied();
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(SIGSYS, WTERMSIG(status));
	EXPECT_EQ(0, kmsg_count_log_errno(kmsg, child, child, DENIED_NR, NULL, 0));
	close(kmsg);
}

static volatile sig_atomic_t trapped_nr = -1;

static void on_sigsys(int sig, siginfo_t *info, void *ctx)
{
	(void)sig;
	(void)ctx;
	trapped_nr = info->si_syscall;
}

TEST(trap_wins_over_log_errno)
{
	struct sigaction sa = { .sa_sigaction = on_sigsys, .sa_flags = SA_SIGINFO };
	int kmsg = kmsg_open_at_end();

	ASSERT_LE(0, kmsg);
	ASSERT_EQ(0, sigaction(SIGSYS, &sa, NULL));
	stack_two(_metadata, SECCOMP_RET_TRAP, SECCOMP_RET_LOG_ERRNO | EPERM);
	call_denied();
	EXPECT_EQ(DENIED_NR, trapped_nr);
	EXPECT_EQ(0, kmsg_count_log_errno(kmsg, gettid(), getpid(), DENIED_NR, NULL, 0));
	close(kmsg);
}

TEST(log_errno_wins_over_user_notif)
{
	struct pollfd pfd = { .events = POLLIN };
	int kmsg = kmsg_open_at_end();

	ASSERT_LE(0, kmsg);
	pfd.fd = install_nr_filter(DENIED_NR, SECCOMP_RET_USER_NOTIF,
				   SECCOMP_FILTER_FLAG_NEW_LISTENER);
	ASSERT_LE(0, pfd.fd);
	ASSERT_EQ(0, install_nr_filter(DENIED_NR, SECCOMP_RET_LOG_ERRNO | EPERM, 0));

	/* Answered at once: had user_notif won, this would block. */
	EXPECT_EQ(-1, call_denied());
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	EXPECT_EQ(1, kmsg_count_log_errno(kmsg, gettid(), getpid(), DENIED_NR, NULL, 0));
	close(pfd.fd);
	close(kmsg);
}

TEST(log_errno_wins_over_trace_log_and_allow)
{
	int kmsg = kmsg_open_at_end();

	ASSERT_LE(0, kmsg);
	ASSERT_EQ(0, install_nr_filter(DENIED_NR, SECCOMP_RET_TRACE, 0));
	ASSERT_EQ(0, install_nr_filter(DENIED_NR, SECCOMP_RET_LOG_ERRNO | EPERM, 0));
	ASSERT_EQ(0, install_nr_filter(DENIED_NR, SECCOMP_RET_LOG, 0));
	ASSERT_EQ(0, install_nr_filter(DENIED_NR, SECCOMP_RET_ALLOW, 0));
	EXPECT_EQ(-1, call_denied());
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(1, kmsg_count_log_errno(kmsg, gettid(), getpid(), DENIED_NR, NULL, 0));
	close(kmsg);
}

struct tsync_thread {
	pthread_barrier_t installed;
	pid_t tid;
	long ret;
	int err;
};

static void *tsync_worker(void *arg)
{
	struct tsync_thread *t = arg;

	t->tid = gettid();
	pthread_barrier_wait(&t->installed);
	t->ret = call_denied();
	t->err = errno;
	return NULL;
}

TEST(tsync_applies_to_other_threads_and_logs_their_tid)
{
	struct tsync_thread t = { 0 };
	int kmsg = kmsg_open_at_end();
	pthread_t thread;

	ASSERT_LE(0, kmsg);
	ASSERT_EQ(0, pthread_barrier_init(&t.installed, NULL, 2));
	ASSERT_EQ(0, pthread_create(&thread, NULL, tsync_worker, &t));
	ASSERT_EQ(0, install_nr_filter(DENIED_NR, SECCOMP_RET_LOG_ERRNO | EROFS,
				       SECCOMP_FILTER_FLAG_TSYNC));
	pthread_barrier_wait(&t.installed);
	ASSERT_EQ(0, pthread_join(thread, NULL));

	EXPECT_EQ(-1, t.ret);
	EXPECT_EQ(EROFS, t.err);
	EXPECT_NE(getpid(), t.tid);
	EXPECT_EQ(1, kmsg_count_log_errno(kmsg, t.tid, getpid(), DENIED_NR, NULL, 0));
	pthread_barrier_destroy(&t.installed);
	close(kmsg);
}

/*
 * Tally what the kernel logged since @fd was opened: log_errno lines of
 * this thread, and the sum of "seccomp_log_errno: N callbacks suppressed".
 */
static void kmsg_tally(int fd, int *logged, long *suppressed)
{
	const char *tag = "seccomp_log_errno: ";
	char rec[2048], want[64];
	ssize_t len;

	snprintf(want, sizeof(want), " pid=%d tgid=%d ", gettid(), getpid());
	*logged = 0;
	*suppressed = 0;
	while ((len = read(fd, rec, sizeof(rec) - 1)) > 0 || (len < 0 && errno == EPIPE)) {
		char *at;

		if (len < 0)
			continue;
		rec[len] = '\0';
		at = strstr(rec, tag);
		if (at && strstr(at, "callbacks suppressed"))
			*suppressed += atol(at + strlen(tag));
		else if (strstr(rec, "seccomp: log_errno ") && strstr(rec, want))
			(*logged)++;
	}
}

/*
 * The last fixture on purpose: the harness runs it last, so it spends
 * the rate limit's burst after everyone else.
 */
FIXTURE(flood) {
};

FIXTURE_SETUP(flood)
{
}

FIXTURE_TEARDOWN(flood)
{
}

TEST_F_TIMEOUT(flood, stays_rate_limited, 120)
{
	int kmsg = kmsg_open_at_end(), last = kmsg_open_at_end();
	int failed = 0, logged, intervals, i;
	long suppressed;
	time_t started;

	ASSERT_LE(0, kmsg);
	ASSERT_LE(0, last);
	ASSERT_EQ(0, install_nr_filter(DENIED_NR, SECCOMP_RET_LOG_ERRNO | EPERM, 0));
	started = time(NULL);
	for (i = 0; i < FLOOD_CALLS; i++)
		failed += call_denied() == -1 && errno == EPERM;
	EXPECT_EQ(FLOOD_CALLS, failed);
	intervals = (time(NULL) - started) / RATELIMIT_INTERVAL_S + 2;

	/* Once the interval is over, the next denial is logged again... */
	sleep(RATELIMIT_INTERVAL_S + 1);
	lseek(last, 0, SEEK_END);
	EXPECT_EQ(-1, call_denied());
	EXPECT_EQ(1, kmsg_count_log_errno(last, gettid(), getpid(), DENIED_NR, NULL, 0));

	/*
	 * ...after the count of what was suppressed. At most a burst per
	 * interval the loop touched was logged: one or two intervals without
	 * audit; with audit every denial also builds an audit record and the
	 * loop spans more. Nothing went missing.
	 */
	kmsg_tally(kmsg, &logged, &suppressed);
	TH_LOG("%d denied calls: %d logged, %ld suppressed, over %d intervals",
	       FLOOD_CALLS + 1, logged, suppressed, intervals);
	EXPECT_LE(logged, RATELIMIT_BURST * intervals + 1);
	EXPECT_EQ(FLOOD_CALLS + 1, logged + suppressed);
	close(last);
	close(kmsg);
}

TEST_HARNESS_MAIN
