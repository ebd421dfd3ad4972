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

#include "seccomp/load.h"
#include "utrace/policy_out.h"
#include "utrace/run.h"
#include "utrace/session.h"
#include "utrace/trace.h"

#define EXIT_USAGE 2
#define EXIT_NOT_STARTED 127

static const char usage_text[] =
"Usage: utrace [-o FILE] [--format oci|legacy] [--default ACTION[:ERRNO]]\n"
"              [--backend auto|ebpf|ptrace] [--coverage] [--summary]\n"
"              [--] CMD [ARG]...\n"
"\n"
"Run CMD, follow it and every process and thread it starts (fork, vfork,\n"
"clone, execve), count each syscall they make, and write the seccomp policy\n"
"that allows those calls, the most frequent first (a linear filter then\n"
"meets them early), and last, as procd's utrace does, the calls a run may\n"
"not show but every program makes when it gets there: rt_sigreturn (and\n"
"sigreturn where the architecture has it) after a signal handler, exit and\n"
"exit_group. The policy loads with ujail -S and ujail-seccomp.\n"
"\n"
"How (--backend): by default (auto) an eBPF program on the kernel's\n"
"sys_enter and sched_process_fork tracepoints counts the calls of CMD and\n"
"of every task it starts, in the kernel: CMD never stops, so it runs at\n"
"almost its own speed. That needs root (CAP_BPF and CAP_PERFMON) and a\n"
"kernel with BPF and BTF (CONFIG_BPF_SYSCALL, CONFIG_BPF_EVENTS,\n"
"CONFIG_DEBUG_INFO_BTF; 5.11 or later). Where the counter cannot load,\n"
"utrace says why on stderr and uses ptrace: CMD starts with a seccomp\n"
"filter that returns SECCOMP_RET_TRACE for every call, and utrace traces\n"
"it with PTRACE_O_TRACESECCOMP: one stop per syscall, at its entry, where\n"
"strace stops twice. Either way counts are exact, per thread and process,\n"
"start at CMD's execve(), and are kept apart per architecture: on x86_64,\n"
"calls made through the i386 (int $0x80) or x32 ABI are counted as such\n"
"and their architecture is listed in the policy. With ptrace, as root the\n"
"filter is installed without no_new_privs, so set-user-ID programs behave\n"
"as untraced; other users get no_new_privs, which the kernel requires.\n"
"Static and dynamic programs, glibc or musl, are traced the same way.\n"
"\n"
"Loading and unloading the counter makes the kernel patch its own code (the\n"
"tracepoints' static keys, with int3), as attaching any tracepoint program\n"
"does. That is safe on hardware and under KVM. A guest under QEMU's\n"
"multi-threaded TCG before QEMU 8.1 (Debian 12 ships 7.2) can keep running\n"
"stale copies of patched code and then hang in a soft lockup or oops on an\n"
"int3 (a QEMU bug, fixed upstream in 8.1): run such guests with\n"
"-accel tcg,thread=single or -smp 1, or use --backend ptrace in them.\n"
"\n"
"utrace passes SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM\n"
"and SIGWINCH sent to it on to CMD (those from a terminal reach CMD by\n"
"themselves), waits until every traced process has exited, writes the\n"
"policy, and exits as CMD did: with its exit status, or killed by the same\n"
"signal. If utrace dies, CMD gets SIGKILL (PR_SET_PDEATHSIG, which a\n"
"set-user-ID CMD drops); with ptrace every traced process does\n"
"(PTRACE_O_EXITKILL).\n"
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
"  -b, --backend NAME  how calls are counted: auto (the default: ebpf if\n"
"                      it loads, else ptrace, saying why), ebpf (fail if\n"
"                      the eBPF counter cannot load) or ptrace\n"
"  -C, --coverage      add the calls not in the policy FILE (-o, which is\n"
"                      required) already has to it: FILE's names keep\n"
"                      their order, the new ones follow, most frequent\n"
"                      first. For growing a policy over several runs.\n"
"                      With ptrace, only the new calls stop: the filter\n"
"                      allows the names FILE lists, on the architectures\n"
"                      it lists (a seccomp filter cannot be loosened, so\n"
"                      that set is fixed when CMD starts); with ebpf\n"
"                      nothing stops anyway. Without FILE this is the\n"
"                      normal mode\n"
"  -c, --summary       print the calls per architecture and syscall, most\n"
"                      frequent first, on stderr when CMD is done\n"
"  -h, --help          this text\n"
"\n"
"Environment:\n"
"  UTRACE_BACKEND      the backend when --backend is not given (also for\n"
"                      ujail --trace)\n"
"\n"
"Exit status: CMD's; 2 for a bad option; 127 when CMD cannot be started;\n"
"1 when tracing or writing the policy failed (CMD's status is lost then),\n"
"or --backend ebpf could not load its counter.\n"
"\n"
"Examples:\n"
"  utrace -o echo.json -- /bin/echo hello\n"
"  utrace --backend ptrace -o echo.json -- /bin/echo hello\n"
"  utrace --summary --default SCMP_ACT_LOG_ERRNO:1 -o httpd.json -- \\\n"
"      busybox httpd -f -p 8080\n"
"  ujail -S echo.json -- /bin/echo hello    # runs under what was learnt\n"
"  utrace /usr/sbin/dnsmasq -k             # as procd runs a service with\n"
"                                          # trace set: /tmp/dnsmasq.PID.json\n"
"\n"
"See also: ujail(8) --trace, which traces a service inside its jail.\n";

struct args {
	struct utrace_run_opts run;
	enum utrace_backend backend;
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
		{ "backend", required_argument, NULL, 'b' },
		{ "coverage", no_argument, NULL, 'C' },
		{ "summary", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *default_text = "SCMP_ACT_KILL_PROCESS";
	char err[1024];
	int c;

	if (utrace_backend_from_env(&a->backend, err, sizeof(err)))
		return usage_error("%s", err);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:o:f:d:b:Cch", longs, NULL)) != -1) {
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
		case 'b':
			if (utrace_backend_parse(optarg, &a->backend, err, sizeof(err)))
				return usage_error("%s", err);
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
		return usage_error("%s", "no command given (utrace [OPTION]... [--] CMD [ARG]...)");
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
	const struct utrace_session *session;
};

/* In the traced child: the filter or the eBPF mark, then the command. */
static int exec_traced(void *arg)
{
	const struct exec_child *c = arg;
	char err[256];

	if (utrace_session_begin(c->session, err, sizeof(err))) {
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
	struct utrace_session session;
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
	if (utrace_session_open(&session, a.backend, seen, "utrace", err, sizeof(err))) {
		fprintf(stderr, "utrace: %s\n", err);
		ujs_policy_free(seen);
		return 1;
	}
	struct exec_child child = { exe, a.argv, &session };
	int status;

	a.run.name = a.argv[0];
	ret = utrace_run(&a.run, &session, exec_traced, &child, &status);
	utrace_session_close(&session);
	ujs_policy_free(seen);
	if (ret)
		return ret;
	utrace_exit_like(status);
}
