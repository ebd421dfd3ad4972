// SPDX-License-Identifier: GPL-2.0
/* utrace: run a program and write the seccomp policy it needs. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load.h"
#include "policy_out.h"
#include "run.h"
#include "trace.h"

#define EXIT_USAGE 2
#define EXIT_NOT_STARTED 127

static const char usage_text[] =
"Usage: utrace [-o FILE] [--format oci|legacy] [--default ACTION[:ERRNO]]\n"
"              [--coverage] [--summary] -- CMD [ARG]...\n"
"\n"
"Run CMD, follow it and every process and thread it starts (fork, vfork,\n"
"clone, execve), count each syscall they make, and write the seccomp policy\n"
"that allows exactly those calls, the most frequent first (a linear filter\n"
"then meets them early). The policy loads with ujail -S and ujail-seccomp.\n"
"\n"
"How: CMD starts with a seccomp filter that returns SECCOMP_RET_TRACE for\n"
"every call, and utrace traces it with PTRACE_O_TRACESECCOMP: one stop per\n"
"syscall, at its entry, where strace stops twice. Counts are exact, per\n"
"thread and process, and kept apart per architecture: on x86_64, calls made\n"
"through the i386 (int $0x80) or x32 ABI are counted as such and their\n"
"architecture is listed in the policy. As root the filter is installed\n"
"without no_new_privs, so set-user-ID programs behave as untraced; other\n"
"users get no_new_privs, which the kernel requires. Static and dynamic\n"
"programs, glibc or musl, are traced the same way.\n"
"\n"
"utrace passes SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM\n"
"and SIGWINCH sent to it on to CMD (those from a terminal reach CMD by\n"
"themselves), waits until every traced process has exited, writes the\n"
"policy, and exits as CMD did: with its exit status, or killed by the same\n"
"signal. If utrace dies, the traced processes are killed (PTRACE_O_EXITKILL).\n"
"A syscall that no table names is left out of the policy with a warning. When\n"
"no call was traced (CMD could not start), nothing is written.\n"
"\n"
"Options:\n"
"  -o, --output FILE   write the policy to FILE (replaced atomically);\n"
"                      default /tmp/NAME.PID.json, NAME being CMD's file\n"
"                      name and PID its process id, as procd's utrace does\n"
"  -f, --format FMT    oci (default): OCI seccomp JSON, {\"defaultAction\",\n"
"                      \"architectures\", \"syscalls\": [{\"names\", \"action\":\n"
"                      \"SCMP_ACT_ALLOW\"}]}; legacy: procd's 2015 format,\n"
"                      {\"whitelist\": [...], \"policy\": N}, which lists no\n"
"                      architectures: calls of other ABIs are left out\n"
"                      (with a warning)\n"
"  -d, --default ACTION[:ERRNO]\n"
"                      the policy's action for every other call, an OCI\n"
"                      action name (SCMP_ACT_KILL_PROCESS, the default,\n"
"                      SCMP_ACT_ERRNO, SCMP_ACT_LOG_ERRNO, SCMP_ACT_KILL,\n"
"                      SCMP_ACT_TRAP, SCMP_ACT_LOG, ...), with :ERRNO for\n"
"                      defaultErrnoRet (SCMP_ACT_LOG_ERRNO:13); legacy\n"
"                      takes only the kill and errno actions\n"
"  -C, --coverage      stop only on calls not in the policy FILE (-o, which\n"
"                      is required) already has, and add them to it: the\n"
"                      filter allows the names FILE lists, on the\n"
"                      architectures it lists, without a stop. For growing\n"
"                      a policy over several runs at little cost. A seccomp\n"
"                      filter cannot be loosened once installed, so the set\n"
"                      that runs free is fixed when CMD starts: within one\n"
"                      run every call not in FILE still stops, and only\n"
"                      those are counted. FILE's names keep their order;\n"
"                      the new ones follow, most frequent first. Without\n"
"                      FILE this is the normal mode\n"
"  -c, --summary       print the calls per architecture and syscall, most\n"
"                      frequent first, on stderr when CMD is done\n"
"  -h, --help          this text\n"
"\n"
"Exit status: CMD's; 2 for a bad option; 127 when CMD cannot be started;\n"
"1 when tracing or writing the policy failed (CMD's status is lost then).\n"
"\n"
"Examples:\n"
"  utrace -o echo.json -- /bin/echo hello\n"
"  utrace --summary --default SCMP_ACT_LOG_ERRNO:1 -o httpd.json -- \\\n"
"      busybox httpd -f -p 8080\n"
"  ujail -S echo.json -- /bin/echo hello    # runs under what was learnt\n"
"\n"
"See also: ujail(8) --trace, which traces a service inside its jail.\n";

struct args {
	struct utrace_run_opts run;
	bool coverage;
	char **argv;
};

static int usage_error(const char *fmt, const char *what)
{
	fprintf(stderr, "utrace: ");
	fprintf(stderr, fmt, what);
	fprintf(stderr, "\nTry 'utrace --help'.\n");
	return -1;
}

/* 0, 1 after --help, -1 after a message. */
static int parse_args(struct args *a, int argc, char **argv)
{
	static const struct option longs[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "default", required_argument, NULL, 'd' },
		{ "coverage", no_argument, NULL, 'C' },
		{ "summary", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *default_text = "SCMP_ACT_KILL_PROCESS";
	char err[1024];
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:o:f:d:Cch", longs, NULL)) != -1) {
		switch (c) {
		case 'o':
			a->run.output = optarg;
			break;
		case 'f':
			if (utrace_format_parse(optarg, &a->run.out.format, err, sizeof(err)))
				return usage_error("%s", err);
			break;
		case 'd':
			default_text = optarg;
			break;
		case 'C':
			a->coverage = true;
			break;
		case 'c':
			a->run.summary = true;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		case ':':
			return usage_error("%s: needs an argument", argv[optind - 1]);
		default:
			return usage_error("%s: unknown option", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return usage_error("%s", "no command given (utrace [OPTION]... -- CMD [ARG]...)");
	if (a->coverage && !a->run.output)
		return usage_error("%s", "--coverage needs -o FILE, the policy to extend");
	if (utrace_default_parse(default_text, &a->run.out, err, sizeof(err)))
		return usage_error("%s", err);
	a->argv = argv + optind;
	return 0;
}

/* --coverage: FILE's policy, if there is one yet. 0 or -1 after a message. */
static int load_seen(const struct args *a, struct ujs_policy **seen)
{
	struct ujs_parse_opts popts = { .warn = stderr };
	char err[1024];

	*seen = NULL;
	if (!a->coverage || access(a->run.output, F_OK) < 0)
		return 0;
	if (ujs_policy_load(a->run.output, &popts, seen, err, sizeof(err)) ||
	    utrace_seen_check(*seen, err, sizeof(err))) {
		fprintf(stderr, "utrace: --coverage: %s\n", err);
		return -1;
	}
	return 0;
}

struct exec_child {
	const char *exe;
	char **argv;
	const struct utrace_filter *filter;
};

/* In the traced child: the filter, then the command. */
static int exec_traced(void *arg)
{
	const struct exec_child *c = arg;
	char err[256];

	if (utrace_filter_install(c->filter, err, sizeof(err))) {
		fprintf(stderr, "utrace: %s\n", err);
		return EXIT_NOT_STARTED;
	}
	execv(c->exe, c->argv);
	fprintf(stderr, "utrace: %s: %s\n", c->exe, strerror(errno));
	return EXIT_NOT_STARTED;
}

int main(int argc, char **argv)
{
	struct args a = { .coverage = false };
	struct utrace_filter f;
	struct ujs_policy *seen = NULL;
	char exe[PATH_MAX], err[1024];
	int ret = parse_args(&a, argc, argv);

	if (ret)
		return ret > 0 ? 0 : EXIT_USAGE;
	if (utrace_output_check(a.run.output ? a.run.output : "/tmp/utrace.json", err, sizeof(err))) {
		fprintf(stderr, "utrace: %s\n", err);
		return EXIT_USAGE;
	}
	if (ujs_resolve_command(a.argv[0], exe, sizeof(exe), err, sizeof(err))) {
		fprintf(stderr, "utrace: %s\n", err);
		return EXIT_NOT_STARTED;
	}
	if (load_seen(&a, &seen))
		return EXIT_USAGE;
	a.run.out.seen = seen;
	if (utrace_filter_build(&f, seen, err, sizeof(err))) {
		fprintf(stderr, "utrace: %s\n", err);
		ujs_policy_free(seen);
		return 1;
	}
	struct exec_child child = { exe, a.argv, &f };
	int status;

	a.run.name = a.argv[0];
	ret = utrace_run(&a.run, exec_traced, &child, &status);
	utrace_filter_free(&f);
	ujs_policy_free(seen);
	if (ret)
		return ret;
	utrace_exit_like(status);
}
