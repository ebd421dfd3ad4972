// SPDX-License-Identifier: GPL-2.0
/*
 * SECCOMP_RET_LOG_ERRNO on a patched kernel: the errno comes back, the
 * kernel logs who called what, the task's name cannot forge log lines, the
 * sysctls control it, stacking follows the documented precedence, and a
 * flood stays rate limited without hiding another sandbox's denials.
 *
 * The rate limit (10 lines per 5 seconds) belongs to a filter tree: the
 * harness runs each test in a child of its own, without a filter, so each
 * test that installs one starts with a full budget.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/klog.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"
#include "seccomp_util.h"

#define DENIED_NR __NR_getpriority
#define FLOOD_CALLS 100000
#define RATELIMIT_BURST 10	/* DEFAULT_RATELIMIT_BURST */
#define RATELIMIT_INTERVAL_S 5	/* DEFAULT_RATELIMIT_INTERVAL */
#define MAX_INTERVAL_RETRIES 30

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
	char line[512] = "", arch[32];
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
	snprintf(arch, sizeof(arch), " arch=%x ", TEST_AUDIT_ARCH);
	EXPECT_NE(NULL, strstr(line, arch));
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

/* The comm= field of a log line, up to the next space. */
static void comm_field(const char *line, char *field, size_t size)
{
	const char *at = strstr(line, " comm=");
	size_t len;

	field[0] = '\0';
	if (!at)
		return;
	at += strlen(" comm=");
	len = strcspn(at, " ");
	snprintf(field, size, "%.*s", (int)len, at);
}

/* @name as audit logs an untrusted string: upper-case hex, no quotes. */
static void audit_hex(const char *name, char *hex, size_t size)
{
	size_t i;

	hex[0] = '\0';
	for (i = 0; name[i] && 2 * i + 2 < size; i++)
		snprintf(hex + 2 * i, 3, "%02X", (unsigned char)name[i]);
}

/* Name this task @name, get denied once, and return the line's comm=. */
static void denied_as(struct __test_metadata *_metadata, int kmsg,
		      const char *name, char *field, size_t size)
{
	char line[512] = "", now[16];

	ASSERT_EQ(0, prctl(PR_SET_NAME, name, 0, 0, 0));
	ASSERT_EQ(0, prctl(PR_GET_NAME, now, 0, 0, 0));
	ASSERT_STREQ(name, now);
	EXPECT_EQ(-1, call_denied());
	ASSERT_EQ(1, kmsg_count_log_errno(kmsg, gettid(), getpid(), DENIED_NR,
					  line, sizeof(line)));
	TH_LOG("kernel: %s", line);
	comm_field(line, field, size);
}

TEST(plain_comm_is_quoted)
{
	const char *names[] = { "sysprobe-musl", "a=b,c:d[1]", "~{}|/" };
	char field[64], want[64];
	int kmsg = kmsg_open_at_end();
	size_t i;

	ASSERT_LE(0, kmsg);
	ASSERT_EQ(0, install_nr_filter(DENIED_NR, SECCOMP_RET_LOG_ERRNO | EPERM, 0));
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		denied_as(_metadata, kmsg, names[i], field, sizeof(field));
		snprintf(want, sizeof(want), "\"%s\"", names[i]);
		EXPECT_STREQ(want, field);
	}
	close(kmsg);
}

/*
 * A double quote, a space, a control character or a byte above 0x7e
 * anywhere in the name: the whole name in hex, as audit does.
 */
TEST(unsafe_comm_is_hex)
{
	const char *names[] = {
		"x\nforged=1", "q\"uote", "a b", "tab\tx", "del\x7f", "\xc3\xa9t\xc3\xa9",
		"0123456789 abcd",	/* 15 bytes: the longest hex form */
	};
	char field[64], want[64];
	int kmsg = kmsg_open_at_end();
	size_t i;

	ASSERT_LE(0, kmsg);
	ASSERT_EQ(0, install_nr_filter(DENIED_NR, SECCOMP_RET_LOG_ERRNO | EPERM, 0));
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		denied_as(_metadata, kmsg, names[i], field, sizeof(field));
		audit_hex(names[i], want, sizeof(want));
		EXPECT_STREQ(want, field);
	}
	EXPECT_EQ(30, strlen(field));
	close(kmsg);
}

/*
 * The attack itself: a name with a newline would start a line of its own
 * in what syslog(2) (dmesg, klogd) and the console show, with the
 * kernel's prefix in front. None appears.
 */
TEST(comm_cannot_forge_a_line)
{
	const char *forged = "seccomp: fake";
	char field[64], *buf;
	int kmsg = kmsg_open_at_end();
	int size, len;

	ASSERT_LE(0, kmsg);
	ASSERT_EQ(0, install_nr_filter(DENIED_NR, SECCOMP_RET_LOG_ERRNO | EPERM, 0));
	denied_as(_metadata, kmsg, "x\nseccomp: fake", field, sizeof(field));
	EXPECT_EQ(NULL, strchr(field, '"'));

	size = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	ASSERT_LT(0, size);
	buf = calloc(1, size + 1);
	ASSERT_NE(NULL, buf);
	len = klogctl(3, buf, size);	/* SYSLOG_ACTION_READ_ALL */
	ASSERT_LE(0, len);
	buf[len] = '\0';
	EXPECT_NE(NULL, strstr(buf, field));
	EXPECT_EQ(NULL, strstr(buf, forged));
	free(buf);
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
 * A sandbox that keeps being denied: a child with a filter tree of its own
 * that denies itself until killed, once it has spent its budget (@ready
 * then reads a byte).
 */
static pid_t start_flooding_sandbox(int *ready)
{
	int fds[2];
	pid_t child;

	if (pipe(fds))
		return -1;
	child = fork();
	if (child == 0) {
		int i;

		close(fds[0]);
		if (install_nr_filter(DENIED_NR, SECCOMP_RET_LOG_ERRNO | EPERM, 0))
			_exit(1);
		for (i = 0; i < 2 * RATELIMIT_BURST; i++)
			call_denied();
		if (write(fds[1], "", 1) != 1)
			_exit(1);
		for (;;)
			call_denied();
	}
	close(fds[1]);
	*ready = fds[0];
	return child;
}

/* A child with a filter tree of its own, denied @calls times. */
static pid_t run_sandbox(int calls)
{
	pid_t child = fork();
	int i, failed = 0;

	if (child != 0)
		return child;
	if (install_nr_filter(DENIED_NR, SECCOMP_RET_LOG_ERRNO | EPERM, 0))
		_exit(2);
	for (i = 0; i < calls; i++)
		failed += call_denied() == -1 && errno == EPERM;
	_exit(failed == calls ? 0 : 1);
}

static bool exited_ok(pid_t child)
{
	int status;

	return waitpid(child, &status, 0) == child && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

/*
 * The rate limit is per sandbox: while one floods past its limit, another
 * still gets its first lines logged. Under one global limit the flood
 * would have spent them.
 */
TEST(a_flooding_sandbox_does_not_hide_another)
{
	int noisy_log = kmsg_open_at_end(), quiet_log = kmsg_open_at_end();
	int ready, noisy_lines, status, intervals;
	pid_t noisy, quiet;
	time_t started;
	char byte;

	ASSERT_LE(0, noisy_log);
	ASSERT_LE(0, quiet_log);
	started = time(NULL);
	noisy = start_flooding_sandbox(&ready);
	ASSERT_LE(0, noisy);
	ASSERT_EQ(1, read(ready, &byte, 1));

	quiet = run_sandbox(RATELIMIT_BURST);
	ASSERT_LE(0, quiet);
	EXPECT_TRUE(exited_ok(quiet));
	EXPECT_EQ(RATELIMIT_BURST,
		  kmsg_count_log_errno(quiet_log, quiet, quiet, DENIED_NR, NULL, 0));

	kill(noisy, SIGKILL);
	ASSERT_EQ(noisy, waitpid(noisy, &status, 0));
	intervals = (time(NULL) - started) / RATELIMIT_INTERVAL_S + 2;
	noisy_lines = kmsg_count_log_errno(noisy_log, noisy, noisy, DENIED_NR, NULL, 0);
	TH_LOG("the flooding sandbox: %d lines over at most %d intervals",
	       noisy_lines, intervals);
	EXPECT_LE(RATELIMIT_BURST, noisy_lines);
	EXPECT_GE(RATELIMIT_BURST * intervals, noisy_lines);
	close(ready);
	close(quiet_log);
	close(noisy_log);
}

/*
 * A sandboxed task cannot buy a fresh budget: a filter it stacks onto its
 * sandbox's, and its children, spend the sandbox's limit.
 */
TEST(stacked_filters_and_children_share_the_budget)
{
	int kmsg = kmsg_open_at_end(), later, later_child;
	struct timespec start, end;
	pid_t child;
	int i;

	ASSERT_LE(0, kmsg);
	clock_gettime(CLOCK_MONOTONIC, &start);
	ASSERT_EQ(0, install_nr_filter(DENIED_NR, SECCOMP_RET_LOG_ERRNO | EPERM, 0));
	for (i = 0; i < RATELIMIT_BURST; i++)
		EXPECT_EQ(-1, call_denied());
	EXPECT_EQ(RATELIMIT_BURST,
		  kmsg_count_log_errno(kmsg, gettid(), getpid(), DENIED_NR, NULL, 0));

	later = kmsg_open_at_end();
	later_child = kmsg_open_at_end();
	ASSERT_LE(0, later);
	ASSERT_LE(0, later_child);
	/* The newest filter decides (ENOENT), the first one's limit holds. */
	ASSERT_EQ(0, install_nr_filter(DENIED_NR, SECCOMP_RET_LOG_ERRNO | ENOENT, 0));
	EXPECT_EQ(-1, call_denied());
	EXPECT_EQ(ENOENT, errno);
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0)
		_exit(call_denied() == -1 && errno == ENOENT ? 0 : 1);
	EXPECT_TRUE(exited_ok(child));
	clock_gettime(CLOCK_MONOTONIC, &end);
	if (end.tv_sec - start.tv_sec >= RATELIMIT_INTERVAL_S - 1)
		SKIP(return, "too slow: the rate limit's interval may have ended");
	EXPECT_EQ(0, kmsg_count_log_errno(later, gettid(), getpid(), DENIED_NR, NULL, 0));
	EXPECT_EQ(0, kmsg_count_log_errno(later_child, child, child, DENIED_NR, NULL, 0));
	close(later_child);
	close(later);
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
 * The last fixture: the harness runs it last, so its long flood comes
 * after the quick tests.
 */
FIXTURE(flood) {
};

FIXTURE_SETUP(flood)
{
}

FIXTURE_TEARDOWN(flood)
{
}

TEST_F_TIMEOUT(flood, stays_rate_limited, 180)
{
	int kmsg = kmsg_open_at_end(), last = kmsg_open_at_end();
	int failed = 0, logged, intervals, retries, i;
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

	/*
	 * Once the interval is over, the next denial is logged again. The
	 * interval is counted in jiffies, which a guest that misses timer
	 * ticks (under emulation, on a busy host) counts slower than the
	 * wall clock: past the interval, try once a second.
	 */
	sleep(RATELIMIT_INTERVAL_S + 1);
	for (retries = 0;; retries++) {
		lseek(last, 0, SEEK_END);
		EXPECT_EQ(-1, call_denied());
		if (kmsg_count_log_errno(last, gettid(), getpid(), DENIED_NR, NULL, 0) == 1)
			break;
		ASSERT_GT(MAX_INTERVAL_RETRIES, retries)
			TH_LOG("no line %d s after the interval", MAX_INTERVAL_RETRIES);
		sleep(1);
	}

	/*
	 * ...after the count of what was suppressed. At most a burst per
	 * interval the loop touched was logged: one or two intervals without
	 * audit; with audit every denial also builds an audit record and the
	 * loop spans more. Nothing went missing.
	 */
	kmsg_tally(kmsg, &logged, &suppressed);
	TH_LOG("%d denied calls: %d logged, %ld suppressed, over %d intervals (%d s late)",
	       FLOOD_CALLS + 1 + retries, logged, suppressed, intervals, retries);
	EXPECT_LE(logged, RATELIMIT_BURST * intervals + 1);
	EXPECT_EQ(FLOOD_CALLS + 1 + retries, logged + suppressed);
	close(last);
	close(kmsg);
}

TEST_HARNESS_MAIN
