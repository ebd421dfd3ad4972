// SPDX-License-Identifier: GPL-2.0
/*
 * Cost per syscall of seccomp's paths, measured in the guest:
 *   allowed with no filter, with a cacheable filter, with a filter that
 *   reads an argument (not cacheable); denied with SECCOMP_RET_ERRNO and
 *   with SECCOMP_RET_LOG_ERRNO (rate limited, and silenced through
 *   actions_logged).
 * Each case runs in its own child (filters cannot be removed), best of
 * several rounds. Prints "case NAME NS_PER_CALL" lines, or "case NAME n/a"
 * when the kernel lacks the action.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SECCOMP_RET_LOG_ERRNO
#define SECCOMP_RET_LOG_ERRNO 0x00070000U
#endif

#define ROUNDS 3

static unsigned long calls = 1000000;

enum filter_kind { NO_FILTER, CACHEABLE, READS_ARG };

struct bench_case {
	const char *name;
	enum filter_kind filter;
	__u32 denied_action;	/* for getpriority; 0: the call is allowed */
	int silence_log;	/* take log_errno out of actions_logged */
};

static int install(enum filter_kind kind, __u32 denied_action)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_getpriority, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, denied_action ? denied_action : SECCOMP_RET_ALLOW),
		/* Reading an argument makes the filter's answer uncacheable. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = 8, .filter = insns };

	if (kind == NO_FILTER)
		return 0;
	if (kind == CACHEABLE) {
		insns[6] = insns[7];
		prog.len = 7;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Runs in a child: installs the case's filter, times the calls. */
static double time_case(const struct bench_case *c)
{
	int nr = c->denied_action ? __NR_getpriority : __NR_getppid;
	double start;
	unsigned long i;

	if (install(c->filter, c->denied_action))
		return -1;
	start = now_ns();
	for (i = 0; i < calls; i++)
		syscall(nr, PRIO_PROCESS, 0);
	return (now_ns() - start) / calls;
}

static int write_sysctl(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, value, strlen(value)) == (ssize_t)strlen(value);
	close(fd);
	return ok ? 0 : -1;
}

static double best_of_rounds(const struct bench_case *c)
{
	double best = -1;
	int round;

	for (round = 0; round < ROUNDS; round++) {
		int pipefd[2], status;
		double ns = -1;
		pid_t child;

		if (pipe(pipefd))
			return -1;
		child = fork();
		if (child == 0) {
			ns = time_case(c);
			if (write(pipefd[1], &ns, sizeof(ns)) != sizeof(ns))
				_exit(1);
			_exit(0);
		}
		close(pipefd[1]);
		if (read(pipefd[0], &ns, sizeof(ns)) != sizeof(ns))
			ns = -1;
		close(pipefd[0]);
		waitpid(child, &status, 0);
		if (ns > 0 && (best < 0 || ns < best))
			best = ns;
	}
	return best;
}

static int log_errno_available(void)
{
	__u32 action = SECCOMP_RET_LOG_ERRNO;

	return syscall(__NR_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
}

int main(int argc, char **argv)
{
	/* actions_logged without log_errno, for the silenced case. */
	static const char logged_none[] =
		"kill_process kill_thread trap errno user_notif trace log";
	const struct bench_case cases[] = {
		{ "allowed/no-filter", NO_FILTER, 0, 0 },
		{ "allowed/cacheable-filter", CACHEABLE, 0, 0 },
		{ "allowed/arg-reading-filter", READS_ARG, 0, 0 },
		{ "denied/errno", CACHEABLE, SECCOMP_RET_ERRNO | EPERM, 0 },
		{ "denied/log_errno", CACHEABLE, SECCOMP_RET_LOG_ERRNO | EPERM, 0 },
		{ "denied/log_errno-silenced", CACHEABLE, SECCOMP_RET_LOG_ERRNO | EPERM, 1 },
	};
	const char *logged = "/proc/sys/kernel/seccomp/actions_logged";
	char saved[256] = "";
	size_t i;
	FILE *f;

	if (argc > 1)
		calls = strtoul(argv[1], NULL, 0);
	f = fopen(logged, "r");
	if (!f || !fgets(saved, sizeof(saved), f)) {
		perror(logged);
		return 1;
	}
	fclose(f);
	printf("# %lu calls per case, best of %d rounds\n", calls, ROUNDS);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bench_case *c = &cases[i];
		double ns;

		if ((c->denied_action & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_LOG_ERRNO &&
		    !log_errno_available()) {
			printf("case %s n/a\n", c->name);
			continue;
		}
		if (c->silence_log && write_sysctl(logged, logged_none))
			return 1;
		ns = best_of_rounds(c);
		if (c->silence_log && write_sysctl(logged, saved))
			return 1;
		if (ns < 0) {
			fprintf(stderr, "%s: could not run\n", c->name);
			return 1;
		}
		printf("case %s %.1f\n", c->name, ns);
	}
	return 0;
}
