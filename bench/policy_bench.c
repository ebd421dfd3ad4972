// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp policies, ours against libseccomp (Debian's, the peer), on the
 * running kernel:
 *   - cost of an allowed syscall (getppid, allowed by number) and of an
 *     argument-checked one (getpgid(0)), with no filter, our filter,
 *     libseccomp's default filter and libseccomp's binary tree
 *     (SCMP_FLTATR_CTL_OPTIMIZE=2), for policies of 50, 150 and 300 syscalls;
 *   - time to turn a policy into a loaded filter: ours parses the JSON and
 *     compiles, libseccomp adds the same rules by name; both then load.
 * Every case runs in its own child: a filter cannot be removed.
 *
 *   policy_bench [CALLS]
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compile.h"
#include "policy.h"
#include "syscalls.h"

#define ROUNDS 5
#define LOAD_RUNS 50

enum filter_kind { NO_FILTER, OURS, LIBSECCOMP, LIBSECCOMP_TREE, N_KINDS };

static const char *const kind_names[N_KINDS] = {
	"none", "ujail", "libseccomp", "libseccomp-tree",
};

/* Syscalls the benchmark itself needs, then filler up to the size. */
static const char *const needed[] = {
	"write", "exit_group", "exit", "clock_gettime", "getppid", "read",
	"close", "munmap", "brk", "mmap", "rt_sigreturn", "futex",
};

struct policy_names {
	const char *names[400];
	size_t n;
};

static int listed(const struct policy_names *pn, const char *name)
{
	for (size_t i = 0; i < pn->n; i++)
		if (!strcmp(pn->names[i], name))
			return 1;
	return 0;
}

/*
 * @size names allowed by number; getppid, the one measured, last (the
 * worst place for a linear chain). getpgid is extra: argument-checked.
 */
static void pick_names(struct policy_names *pn, size_t size)
{
	const struct ujs_arch *arch = ujs_arch_native();

	pn->n = 0;
	for (size_t i = 0; i < sizeof(needed) / sizeof(needed[0]); i++)
		if (strcmp(needed[i], "getppid"))
			pn->names[pn->n++] = needed[i];
	for (size_t i = 0; i < arch->n_calls && pn->n < size - 1; i++) {
		const char *name = ujs_name_at(arch->calls[i].name_off);

		/* Only names both compilers know. */
		if (!listed(pn, name) && strcmp(name, "getppid") &&
		    strcmp(name, "getpgid") &&
		    seccomp_syscall_resolve_name(name) >= 0)
			pn->names[pn->n++] = name;
	}
	pn->names[pn->n++] = "getppid";
}

static char *policy_json(const struct policy_names *pn)
{
	size_t cap = 64 + pn->n * 40 + 512, len = 0;
	char *s = malloc(cap);

	if (!s)
		abort();
	len += snprintf(s + len, cap - len,
			"{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":["
			"{\"names\":[");
	for (size_t i = 0; i < pn->n; i++)
		len += snprintf(s + len, cap - len, "%s\"%s\"", i ? "," : "",
				pn->names[i]);
	snprintf(s + len, cap - len,
		 "],\"action\":\"SCMP_ACT_ALLOW\"},"
		 "{\"names\":[\"getpgid\"],\"action\":\"SCMP_ACT_ALLOW\","
		 "\"args\":[{\"index\":0,\"value\":0,\"op\":\"SCMP_CMP_EQ\"}]}]}");
	return s;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void die(const char *what, const char *why)
{
	fprintf(stderr, "policy_bench: %s: %s\n", what, why);
	exit(1);
}

static void load_ours(const char *json)
{
	struct ujs_parse_opts opts = { 0 };
	struct ujs_policy *p;
	struct ujs_program prog;
	char err[512];
	struct sock_fprog fprog;

	if (ujs_policy_parse(json, strlen(json), "bench", &opts, &p, err,
			     sizeof(err)))
		die("parse", err);
	if (ujs_compile(p, NULL, &prog, err, sizeof(err)))
		die("compile", err);
	fprog.len = prog.len;
	fprog.filter = prog.insns;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog))
		die("seccomp", strerror(errno));
	ujs_program_free(&prog);
	ujs_policy_free(p);
}

static void load_libseccomp(const struct policy_names *pn, int tree)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ERRNO(EPERM));
	int rc = 0;

	if (!ctx)
		die("seccomp_init", "failed");
	if (tree)
		rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	for (size_t i = 0; !rc && i < pn->n; i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW,
				      seccomp_syscall_resolve_name(pn->names[i]), 0);
	/* Spelled out: SCMP_A0() leaves datum_b to a clang warning. */
	struct scmp_arg_cmp pgid_is_0 = {
		.arg = 0, .op = SCMP_CMP_EQ, .datum_a = 0, .datum_b = 0,
	};

	if (!rc)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(getpgid), 1,
				      pgid_is_0);
	if (!rc)
		rc = seccomp_load(ctx);
	if (rc)
		die("libseccomp", strerror(-rc));
	seccomp_release(ctx);
}

static void load(enum filter_kind kind, const struct policy_names *pn,
		 const char *json)
{
	if (kind == OURS)
		load_ours(json);
	else if (kind == LIBSECCOMP || kind == LIBSECCOMP_TREE)
		load_libseccomp(pn, kind == LIBSECCOMP_TREE);
}

/* Best per-call time over the rounds. */
static double per_call(long nr, long calls)
{
	double best = 0;

	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now_ns();

		for (long i = 0; i < calls; i++)
			syscall(nr, 0);
		double t = (now_ns() - t0) / calls;

		if (!r || t < best)
			best = t;
	}
	return best;
}

/* Runs @fn in a child; the child writes doubles back through a pipe. */
static void in_child(void (*fn)(int fd, void *arg), void *arg, double *out,
		     size_t n)
{
	int fds[2];
	pid_t pid;
	int status;

	if (pipe(fds))
		die("pipe", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("fork", strerror(errno));
	if (!pid) {
		close(fds[0]);
		fn(fds[1], arg);
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], out, n * sizeof(*out)) != (ssize_t)(n * sizeof(*out)))
		die("child", "gave no result");
	close(fds[0]);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		die("child", "failed");
}

struct syscall_case {
	enum filter_kind kind;
	const struct policy_names *pn;
	const char *json;
	long calls;
};

static void measure_syscalls(int fd, void *arg)
{
	struct syscall_case *c = arg;
	double r[2];

	load(c->kind, c->pn, c->json);
	if (syscall(SYS_getpgid, 0) < 0 || syscall(SYS_getppid) < 0)
		die("filter", "denies the measured syscalls");
	r[0] = per_call(SYS_getppid, c->calls);
	r[1] = per_call(SYS_getpgid, c->calls);
	if (write(fd, r, sizeof(r)) != sizeof(r))
		_exit(1);
}

static void measure_load(int fd, void *arg)
{
	struct syscall_case *c = arg;
	double t0 = now_ns(), t;

	load(c->kind, c->pn, c->json);
	t = now_ns() - t0;
	if (write(fd, &t, sizeof(t)) != sizeof(t))
		_exit(1);
}

/* Median of LOAD_RUNS children, in microseconds. */
static double load_time_us(struct syscall_case *c)
{
	double t[LOAD_RUNS];

	for (int i = 0; i < LOAD_RUNS; i++)
		in_child(measure_load, c, &t[i], 1);
	for (int i = 1; i < LOAD_RUNS; i++)
		for (int j = i; j > 0 && t[j - 1] > t[j]; j--) {
			double x = t[j];

			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	return t[LOAD_RUNS / 2] / 1000;
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 50, 150, 300 };
	long calls = argc > 1 ? atol(argv[1]) : 1000000;
	double cost[3][N_KINDS][2], load_us[3][N_KINDS];

	if (calls <= 0)
		die("CALLS", "must be a positive number");
	for (int s = 0; s < 3; s++) {
		struct policy_names pn;
		char *json;

		pick_names(&pn, sizes[s]);
		json = policy_json(&pn);
		for (int k = 0; k < N_KINDS; k++) {
			struct syscall_case c = { k, &pn, json, calls };

			in_child(measure_syscalls, &c, cost[s][k], 2);
			load_us[s][k] = k == NO_FILTER ? 0 : load_time_us(&c);
		}
		free(json);
	}
	printf("ns per syscall, best of %d rounds of %ld calls\n", ROUNDS, calls);
	printf("%-26s", "case");
	for (int k = 0; k < N_KINDS; k++)
		printf("%16s", kind_names[k]);
	printf("\n");
	for (int s = 0; s < 3; s++)
		for (int a = 0; a < 2; a++) {
			char label[64];

			snprintf(label, sizeof(label), "%zu rules, %s", sizes[s],
				 a ? "getpgid(0) arg" : "getppid");
			printf("%-26s", label);
			for (int k = 0; k < N_KINDS; k++)
				printf("%16.1f", cost[s][k][a]);
			printf("\n");
		}
	printf("\npolicy to loaded filter, us (median of %d; ujail from JSON text)\n",
	       LOAD_RUNS);
	printf("%-26s", "case");
	for (int k = OURS; k < N_KINDS; k++)
		printf("%16s", kind_names[k]);
	printf("\n");
	for (int s = 0; s < 3; s++) {
		printf("%-26zu", sizes[s]);
		for (int k = OURS; k < N_KINDS; k++)
			printf("%16.1f", load_us[s][k]);
		printf("\n");
	}
	return 0;
}
