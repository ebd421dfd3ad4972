/* SPDX-License-Identifier: GPL-2.0 */
/* ujail-seccomp: compile, inspect and load seccomp policies. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <linux/audit.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bpf.h"
#include "compile.h"
#include "errmsg.h"
#include "install.h"
#include "load.h"
#include "policy.h"
#include "syscalls.h"

#define PROG "ujail-seccomp"

/* Exit statuses. */
enum { EXIT_POLICY = 1, EXIT_USAGE = 2, EXIT_NOT_STARTED = 127 };

static const char usage_main[] =
"Usage: " PROG " COMMAND [OPTION]... ARGUMENT...\n"
"\n"
"Compile seccomp policies (OCI seccomp JSON, with Docker's and podman's\n"
"forms, or procd's 2015 format) into classic BPF programs, inspect them,\n"
"and run commands under them. Docker's \"includes\"/\"excludes\" are decided\n"
"at compile time: --caps and --kernel (every command that compiles) say\n"
"for which capabilities and kernel.\n"
"\n"
"Commands:\n"
"  compile  [-a ARCH] [--strict] POLICY -o OUT        write a program file\n"
"  dump     [-a ARCH] POLICY|PROGRAM                   disassemble\n"
"  check    [-a ARCH] POLICY                           validate, summarize\n"
"  sim      [-a ARCH] [--call-arch ARCH] POLICY|PROGRAM SYSCALL [ARG]...\n"
"                                                      decide one call\n"
"  run      [-n NAME] [--mode MODE] [--strict] [--preload PATH]\n"
"           POLICY|PROGRAM -- CMD [ARG]...             run CMD filtered\n"
"  mode                                                the mode run uses here\n"
"\n"
"'" PROG " COMMAND --help' describes a command. A PROGRAM is a file written\n"
"by 'compile', recognized by its magic; anything else is read as a policy.\n"
"ARCH: x86_64, x32, i386, aarch64, arm, mips, mipsel (or SCMP_ARCH_*);\n"
"the default is the machine's own.\n"
"\n"
"Exit status: 0 success, 1 an invalid policy or program or a failed\n"
"operation, 2 a usage error; run: the command's status, 127 when it could\n"
"not be started.\n"
"\n"
"Called as seccomp-trace (a link to " PROG "), it runs a command under the\n"
"policy $SECCOMP_FILE names, as procd expects: 'seccomp-trace --help'.\n";

static const char usage_compile[] =
"Usage: " PROG " compile [-a ARCH] [--strict] [--caps LIST] [--kernel X.Y]\n"
"                         POLICY -o OUT\n"
"\n"
"Compile POLICY for ARCH and write the program file OUT: a header (magic\n"
"\"ujailbpf\", version, the AUDIT_ARCH of ARCH, instruction count, the\n"
"policy's SECCOMP_FILTER_FLAG_LOG/SPEC_ALLOW flags) and the instructions in\n"
"host byte order. OUT is written to a temporary file and renamed; on error\n"
"nothing is left behind. OUT '-' is the standard output (the preload shim\n"
"reads SECCOMP_FILE's policy so).\n"
"\n"
"  -a, --arch ARCH      target architecture (default: this machine's)\n"
"      --strict         a syscall name that no architecture has is an\n"
"                       error (default: a warning, and the name is dropped;\n"
"                       names of other architectures only are dropped\n"
"                       quietly, so one policy serves them all)\n"
"      --caps LIST      the jail's capabilities, for the \"caps\" of Docker's\n"
"                       \"includes\"/\"excludes\": CAP_X,CAP_Y (CAP_ optional),\n"
"                       all or none (default: this process's effective set)\n"
"      --kernel X.Y     the kernel release \"minKernel\" is compared with\n"
"                       (default: the running kernel's, uname -r)\n"
"  -o, --output OUT     the program file to write, - for standard output\n"
"  -h, --help           this text\n";

static const char usage_dump[] =
"Usage: " PROG " dump [-a ARCH] [--strict] [--caps LIST] [--kernel X.Y]\n"
"                      POLICY|PROGRAM\n"
"\n"
"Print the BPF program, one instruction per line with its index, jump\n"
"targets as indexes, seccomp_data fields by name and syscall names next to\n"
"the numbers compared. A POLICY is compiled for ARCH first; a PROGRAM is\n"
"printed as it is (-a is ignored).\n"
"\n"
"  -a, --arch ARCH      target architecture for a POLICY\n"
"      --strict         a syscall name no architecture has is an error\n"
"      --caps LIST      the jail's capabilities, for the \"caps\" of Docker's\n"
"                       \"includes\"/\"excludes\": CAP_X,CAP_Y (CAP_ optional),\n"
"                       all or none (default: this process's effective set)\n"
"      --kernel X.Y     the kernel release \"minKernel\" is compared with\n"
"                       (default: the running kernel's, uname -r)\n"
"  -h, --help           this text\n";

static const char usage_check[] =
"Usage: " PROG " check [-a ARCH] [--strict] [--caps LIST] [--kernel X.Y] POLICY\n"
"\n"
"Parse and compile POLICY; print the number of rules and instructions, the\n"
"architectures the filter accepts, and the rules whose decision the kernel\n"
"cannot cache (argument checks, actions other than allow), which cost a\n"
"filter run on every call. Exit status 0 when the policy is valid.\n"
"\n"
"  -a, --arch ARCH      target architecture\n"
"      --strict         a syscall name no architecture has is an error\n"
"      --caps LIST      the jail's capabilities, for the \"caps\" of Docker's\n"
"                       \"includes\"/\"excludes\": CAP_X,CAP_Y (CAP_ optional),\n"
"                       all or none (default: this process's effective set)\n"
"      --kernel X.Y     the kernel release \"minKernel\" is compared with\n"
"                       (default: the running kernel's, uname -r)\n"
"  -h, --help           this text\n";

static const char usage_sim[] =
"Usage: " PROG " sim [-a ARCH] [--call-arch ARCH] [--caps LIST] [--kernel X.Y]\n"
"                     POLICY|PROGRAM SYSCALL [ARG]...\n"
"\n"
"Run the program on one call and print its decision, e.g.\n"
"  openat: ERRNO(13)\n"
"SYSCALL is a name or a number of the calling architecture; up to six ARGs\n"
"are integers (decimal, 0x hex, 0 octal); put -- before negative ones. They\n"
"reach the filter as the kernel passes them: on a 32-bit ABI (i386, arm,\n"
"mips) zero-extended from their low 32 bits, so -1 is 0xffffffff there.\n"
"\n"
"  -a, --arch ARCH       target architecture of a POLICY\n"
"      --call-arch ARCH  architecture of the call (default: the target's),\n"
"                        e.g. i386 for a 32-bit call to an x86_64 filter\n"
"      --strict          a syscall name no architecture has is an error\n"
"      --caps LIST       the jail's capabilities (see compile --help)\n"
"      --kernel X.Y      the kernel release for \"minKernel\" (idem)\n"
"  -h, --help            this text\n";

static const char usage_run[] =
"Usage: " PROG " run [-n NAME] [--mode MODE] [--strict] [--caps LIST]\n"
"                     [--kernel X.Y] [--preload PATH] POLICY|PROGRAM [--] CMD [ARG]...\n"
"\n"
"Run CMD (found through PATH) with the filter installed; the exit status\n"
"is CMD's (128 + the signal when it was killed), 127 when it could not be\n"
"started. A policy that cannot be loaded means CMD does not start.\n"
"Options come before POLICY.\n"
"\n"
"Dynamic programs: the preload shim libpreload-seccomp.so (glibc or musl,\n"
"after the program's ELF interpreter) installs the filter right before\n"
"main(), after the dynamic loader, the libc's start-up and the program's\n"
"constructors, which the policy therefore need not allow. The shim removes\n"
"itself from LD_PRELOAD and its UJAIL_SECCOMP_* variables from the\n"
"environment before main().\n"
"\n"
"Static programs: the filter is installed right before execve(), so the\n"
"policy must also allow execve and the static libc's start-up calls, as\n"
"measured on x86_64:\n"
"  glibc 2.36: " UJS_STATIC_STARTUP_GLIBC "\n"
"  musl 1.2.3: " UJS_STATIC_STARTUP_MUSL "\n"
"(the first output through stdio adds newfstatat, ioctl and write/writev).\n"
"\n"
"Modes, for the policy's SCMP_ACT_LOG_ERRNO rules:\n"
"  log-errno  the kernel's SECCOMP_RET_LOG_ERRNO fails the call and logs it\n"
"             (seccomp: log_errno comm=... in the kernel log)\n"
"  notify     the calls go to " PROG ", which logs\n"
"               jail NAME: COMM[PID] denied syscall SYSCALL (NR)\n"
"             on its standard error and fails them with the policy's errno\n"
"             (COMM in hex when it holds a quote, a space, a control\n"
"             character or a byte above 0x7e, as the kernel logs it)\n"
"  errno-log  plain SECCOMP_RET_ERRNO with SECCOMP_FILTER_FLAG_LOG: the\n"
"             audit subsystem logs the denials (all errno ones)\n"
"  auto       (default) log-errno when the kernel has it, else notify\n"
"\n"
"  -n, --name NAME      jail name in the log lines (default: CMD's basename)\n"
"  -m, --mode MODE      auto, log-errno, notify or errno-log\n"
"      --strict         a syscall name no architecture has is an error\n"
"      --caps LIST      the capabilities CMD keeps (see compile --help)\n"
"      --kernel X.Y     the kernel release for \"minKernel\" (idem)\n"
"      --preload PATH   the shim (default: ../lib/libpreload-seccomp.so or\n"
"                       ../lib/musl/libpreload-seccomp.so next to this\n"
"                       command; environment: UJAIL_PRELOAD)\n"
"  -h, --help           this text\n";

static const char usage_seccomp_trace[] =
"Usage: seccomp-trace [-f POLICY] [-n NAME] [--mode MODE] [--strict]\n"
"                     [--preload PATH] [--] CMD [ARG]...\n"
"\n"
"procd starts a service that has a seccomp policy but no jail as\n"
"  SECCOMP_FILE=/etc/seccomp/NAME.json /sbin/seccomp-trace CMD [ARG]...\n"
"Under that name (a link to " PROG ") this is\n"
"  " PROG " run [OPTION]... POLICY -- CMD [ARG]...\n"
"with POLICY from -f, else from $SECCOMP_FILE, which CMD's environment\n"
"loses: CMD runs filtered, in the mode 'run' chooses, and its denials are\n"
"logged as 'run --help' describes. Without a policy, or with one that\n"
"cannot be loaded, CMD does not start: status 127 or 1 and a message.\n"
"\n"
"  -f, --file POLICY    the policy or program (default: $SECCOMP_FILE)\n"
"  -n, --name NAME      jail name in the log lines (default: CMD's basename)\n"
"  -m, --mode MODE      auto, log-errno, notify or errno-log\n"
"      --strict         a syscall name no architecture has is an error\n"
"      --caps LIST      capabilities for Docker's \"includes\"/\"excludes\"\n"
"                       (default: this process's effective set)\n"
"      --kernel X.Y     the release \"minKernel\" is compared with\n"
"      --preload PATH   the shim (default: ../lib/libpreload-seccomp.so or\n"
"                       ../lib/musl/libpreload-seccomp.so next to this\n"
"                       command; environment: UJAIL_PRELOAD)\n"
"  -h, --help           this text\n"
"\n"
"Exit status: CMD's (128 + the signal when it was killed); 127 when it\n"
"could not be started, 1 for a policy that cannot be loaded, 2 for a usage\n"
"error.\n";

static const char usage_mode[] =
"Usage: " PROG " mode\n"
"\n"
"Print the mode 'run --mode auto' uses on this kernel (log-errno or\n"
"notify) and why; the first word is the mode.\n";

/* PROG, or "seccomp-trace" when called so. */
static const char *prog_name = PROG;

__attribute__((format(printf, 2, 3), noreturn))
static void die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ujs_vprint_error(prog_name, fmt, ap);
	va_end(ap);
	exit(status);
}

__attribute__((noreturn))
static void usage_error(const char *usage, const char *what)
{
	fprintf(stderr, "%s: %s\n%s", prog_name, what, usage);
	exit(EXIT_USAGE);
}

/* The options of all commands, as parsed. */
struct common {
	const struct ujs_arch *arch;	/* NULL: native */
	const struct ujs_arch *call_arch;
	bool strict;
	bool caps_given;
	uint64_t caps;			/* --caps */
	const char *kernel;		/* --kernel */
	const char *output;
	const char *name;
	const char *mode;
	const char *preload;
	const char *policy;		/* seccomp-trace -f */
	const char *argv0;		/* of ujail-seccomp itself */
};

enum { OPT_STRICT = 256, OPT_CALL_ARCH, OPT_PRELOAD, OPT_CAPS, OPT_KERNEL };

/* Which options a command takes. */
enum {
	O_ARCH = 1 << 0,
	O_CALL_ARCH = 1 << 1,
	O_STRICT = 1 << 2,
	O_OUTPUT = 1 << 3,
	O_NAME = 1 << 4,
	O_MODE = 1 << 5,
	O_PRELOAD = 1 << 6,
	O_POLICY = 1 << 7,
	O_COND = 1 << 8,	/* --caps, --kernel: for "includes"/"excludes" */
};

static const struct {
	unsigned int bit;
	struct option option;
} all_options[] = {
	{ O_NAME, { "name", required_argument, NULL, 'n' } },
	{ O_MODE, { "mode", required_argument, NULL, 'm' } },
	{ O_ARCH, { "arch", required_argument, NULL, 'a' } },
	{ O_CALL_ARCH, { "call-arch", required_argument, NULL, OPT_CALL_ARCH } },
	{ O_STRICT, { "strict", no_argument, NULL, OPT_STRICT } },
	{ O_OUTPUT, { "output", required_argument, NULL, 'o' } },
	{ O_PRELOAD, { "preload", required_argument, NULL, OPT_PRELOAD } },
	{ O_POLICY, { "file", required_argument, NULL, 'f' } },
	{ O_COND, { "caps", required_argument, NULL, OPT_CAPS } },
	{ O_COND, { "kernel", required_argument, NULL, OPT_KERNEL } },
};

#define N_OPTIONS (sizeof(all_options) / sizeof(all_options[0]))

/* A command: its options, and what it does with the operands after them. */
struct command {
	const char *name;
	const char *usage;
	unsigned int options;		/* O_* */
	bool stop_at_operand;		/* options only before the first operand */
	int (*run)(const struct common *c, int argc, char **argv);
};

static const struct ujs_arch *arch_option(const char *opt, const char *name,
					  const char *usage)
{
	const struct ujs_arch *arch = ujs_arch_by_name(name);
	char what[128];

	if (!arch) {
		snprintf(what, sizeof(what), "%s %s: unknown architecture", opt, name);
		usage_error(usage, what);
	}
	return arch;
}

/* getopt_long's tables for the options of @cmd, and --help. */
static void option_tables(const struct command *cmd, struct option *longs,
			  char *shorts)
{
	size_t i, n = 0;

	if (cmd->stop_at_operand)
		*shorts++ = '+';
	for (i = 0; i < N_OPTIONS; i++) {
		const struct option *o = &all_options[i].option;

		if (!(cmd->options & all_options[i].bit))
			continue;
		longs[n++] = *o;
		if (o->val < 256) {
			*shorts++ = (char)o->val;
			*shorts++ = ':';	/* every short option takes a value */
		}
	}
	longs[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	longs[n] = (struct option){ NULL, 0, NULL, 0 };
	strcpy(shorts, "h");
}

__attribute__((noreturn))
static void bad_option(const char *usage, char **argv)
{
	char what[128];

	if (optopt)
		snprintf(what, sizeof(what), "-%c: unknown option or missing value", optopt);
	else
		snprintf(what, sizeof(what), "%s: unknown option or missing value",
			 argv[optind - 1]);
	usage_error(usage, what);
}

static void caps_option(const char *list, const char *usage, struct common *c)
{
	char err[128], what[192];

	if (ujs_caps_parse(list, &c->caps, err, sizeof(err))) {
		snprintf(what, sizeof(what), "--caps %s: %s", list, err);
		usage_error(usage, what);
	}
	c->caps_given = true;
}

static void set_option(int opt, const char *usage, struct common *c)
{
	switch (opt) {
	case 'a': c->arch = arch_option("-a", optarg, usage); break;
	case OPT_CALL_ARCH: c->call_arch = arch_option("--call-arch", optarg, usage); break;
	case OPT_STRICT: c->strict = true; break;
	case 'o': c->output = optarg; break;
	case 'n': c->name = optarg; break;
	case 'm': c->mode = optarg; break;
	case OPT_PRELOAD: c->preload = optarg; break;
	case 'f': c->policy = optarg; break;
	case OPT_CAPS: caps_option(optarg, usage, c); break;
	case OPT_KERNEL: c->kernel = optarg; break;
	}
}

/* getopt_long over the options @cmd takes; the index of the first operand. */
static int parse_options(const struct command *cmd, int argc, char **argv,
			 struct common *c)
{
	struct option longs[N_OPTIONS + 2];
	char shorts[2 * N_OPTIONS + 3];
	int opt;

	option_tables(cmd, longs, shorts);
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		if (opt == 'h') {
			fputs(cmd->usage, stdout);
			exit(0);
		}
		if (opt == '?')
			bad_option(cmd->usage, argv);
		set_option(opt, cmd->usage, c);
	}
	return optind;
}

/* ---- Policies and programs ---- */

/* A policy compiled, or a program file read: the instructions either way. */
struct input {
	struct ujs_policy *policy;	/* NULL for a program file */
	struct ujs_program compiled;
	struct ujs_loaded_program loaded;
	const struct ujs_arch *arch;	/* of the program */
};

static bool is_program_file(const char *path)
{
	char magic[sizeof(UJS_PROG_MAGIC) - 1];
	bool yes = false;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die(EXIT_POLICY, "%s: %s", path, strerror(errno));
	if (read(fd, magic, sizeof(magic)) == (ssize_t)sizeof(magic))
		yes = memcmp(magic, UJS_PROG_MAGIC, sizeof(magic)) == 0;
	close(fd);
	return yes;
}

static const struct ujs_arch *arch_by_audit(uint32_t audit_arch)
{
	size_t n;
	const struct ujs_arch *const *all = ujs_arch_all(&n);

	for (size_t i = 0; i < n; i++)
		if (all[i]->audit_arch == audit_arch)
			return all[i];
	return NULL;
}

/* @native_only: the program is to be loaded here. */
static void read_program_file(const char *path, bool native_only, struct input *in)
{
	char err[256];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die(EXIT_POLICY, "%s: %s", path, strerror(errno));
	if (ujs_program_read_arch(fd, native_only ? ujs_native_audit_arch() : 0,
				  &in->loaded, err, sizeof(err)))
		die(EXIT_POLICY, "%s: %s", path, err);
	close(fd);
	in->arch = arch_by_audit(in->loaded.audit_arch);
}

static void compile_policy(const char *path, const struct common *c, struct input *in)
{
	struct ujs_parse_opts opts = {
		.target = c->arch, .strict = c->strict, .warn = stderr,
		.caps = c->caps_given ? &c->caps : NULL, .kernel = c->kernel,
	};
	char err[512];

	if (ujs_policy_load(path, &opts, &in->policy, err, sizeof(err)))
		die(EXIT_POLICY, "%s", err);
	/* The compiler's messages name the file already. */
	if (ujs_compile(in->policy, c->arch, &in->compiled, err, sizeof(err)))
		die(EXIT_POLICY, "%s", err);
	in->arch = c->arch ? c->arch : ujs_arch_native();
	ujs_loaded_from_compiled(&in->loaded, &in->compiled, in->policy);
}

static void load_input(const char *path, const struct common *c, bool native_only,
		       struct input *in)
{
	memset(in, 0, sizeof(*in));
	if (is_program_file(path))
		read_program_file(path, native_only, in);
	else
		compile_policy(path, c, in);
}

static void free_input(struct input *in)
{
	if (in->policy) {
		ujs_program_free(&in->compiled);
		ujs_policy_free(in->policy);
	} else {
		ujs_loaded_program_free(&in->loaded);
	}
}

/* ---- compile ---- */

static int write_program_file(const char *out, const struct ujs_loaded_program *p)
{
	char tmp[PATH_MAX], err[256];
	int fd;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.XXXXXX", out) >= sizeof(tmp))
		die(EXIT_POLICY, "%s: path too long", out);
	fd = mkstemp(tmp);
	if (fd < 0)
		die(EXIT_POLICY, "%s: %s", out, strerror(errno));
	if (ujs_program_write(fd, p->insns, p->count, p->audit_arch, p->flags,
			      err, sizeof(err)) ||
	    (fchmod(fd, 0644) && snprintf(err, sizeof(err), "chmod: %s", strerror(errno))) ||
	    (close(fd) && snprintf(err, sizeof(err), "close: %s", strerror(errno))) ||
	    (rename(tmp, out) && snprintf(err, sizeof(err), "%s", strerror(errno)))) {
		unlink(tmp);
		die(EXIT_POLICY, "%s: %s", out, err);
	}
	return 0;
}

static void write_program_stdout(const struct ujs_loaded_program *p)
{
	char err[256];

	if (ujs_program_write(STDOUT_FILENO, p->insns, p->count, p->audit_arch, p->flags,
			      err, sizeof(err)))
		die(EXIT_POLICY, "standard output: %s", err);
}

static int cmd_compile(const struct common *c, int argc, char **argv)
{
	struct input in;

	if (argc != 1)
		usage_error(usage_compile, "compile takes one POLICY");
	if (!c->output)
		usage_error(usage_compile, "-o OUT is missing");
	memset(&in, 0, sizeof(in));
	compile_policy(argv[0], c, &in);
	if (!strcmp(c->output, "-"))
		write_program_stdout(&in.loaded);
	else
		write_program_file(c->output, &in.loaded);
	free_input(&in);
	return 0;
}

/* ---- dump, check ---- */

static int cmd_dump(const struct common *c, int argc, char **argv)
{
	struct input in;

	if (argc != 1)
		usage_error(usage_dump, "dump takes one POLICY or PROGRAM");
	load_input(argv[0], c, false, &in);
	ujs_bpf_dump(in.loaded.insns, in.loaded.count, stdout);
	free_input(&in);
	return 0;
}

static void print_architectures(const struct ujs_policy *p, const struct ujs_arch *target)
{
	printf("architectures:");
	if (p->n_archs == 0)
		printf(" %s", target->name);
	for (size_t i = 0; i < p->n_archs; i++)
		printf(" %s", p->archs[i]->name);
	printf("\n");
}

static void print_uncacheable(const struct ujs_policy *p, const struct ujs_arch *target)
{
	char *text = NULL;
	size_t size = 0, n;
	FILE *mem = open_memstream(&text, &size);

	if (!mem)
		die(EXIT_POLICY, "open_memstream: %s", strerror(errno));
	n = ujs_report_uncacheable(p, target, mem);
	fclose(mem);
	printf("rules the kernel cannot cache: %zu\n", n);
	if (n)
		fputs(text, stdout);
	free(text);
}

static int cmd_check(const struct common *c, int argc, char **argv)
{
	struct input in;

	if (argc != 1)
		usage_error(usage_check, "check takes one POLICY");
	memset(&in, 0, sizeof(in));
	compile_policy(argv[0], c, &in);
	printf("%s: valid\n", argv[0]);
	printf("rules: %zu\n", in.policy->n_rules);
	printf("instructions: %u\n", in.loaded.count);
	printf("default action: %s\n", ujs_action_name(in.policy->default_action.kind));
	print_architectures(in.policy, in.arch);
	print_uncacheable(in.policy, c->arch);
	free_input(&in);
	return 0;
}

/* ---- sim ---- */

static uint64_t number_arg(const char *s, const char *what)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = s[0] == '-' ? (uint64_t)strtoll(s, &end, 0) : strtoull(s, &end, 0);
	if (errno || end == s || *end)
		usage_error(usage_sim, what);
	return v;
}

static uint32_t syscall_arg(const char *s, const struct ujs_arch *arch)
{
	int64_t nr;
	char what[160];

	if (s[0] >= '0' && s[0] <= '9')
		return (uint32_t)number_arg(s, "SYSCALL: not a number");
	nr = arch ? ujs_syscall_nr(arch, s) : -1;
	if (nr < 0) {
		snprintf(what, sizeof(what), "%s: no such syscall on %s", s,
			 arch ? arch->name : "an unknown architecture");
		usage_error(usage_sim, what);
	}
	return (uint32_t)nr;
}

static void print_decision(uint32_t ret)
{
	uint32_t data = ret & SECCOMP_RET_DATA;

	switch (ret & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_KILL_PROCESS: printf("KILL_PROCESS\n"); break;
	case SECCOMP_RET_KILL_THREAD: printf("KILL_THREAD\n"); break;
	case SECCOMP_RET_TRAP: printf("TRAP(%u)\n", data); break;
	case SECCOMP_RET_ERRNO: printf("ERRNO(%u)\n", data); break;
	case SECCOMP_RET_LOG_ERRNO: printf("LOG_ERRNO(%u)\n", data); break;
	case SECCOMP_RET_USER_NOTIF: printf("USER_NOTIF\n"); break;
	case SECCOMP_RET_TRACE: printf("TRACE(%u)\n", data); break;
	case SECCOMP_RET_LOG: printf("LOG\n"); break;
	case SECCOMP_RET_ALLOW: printf("ALLOW\n"); break;
	default: printf("0x%08x (unknown action: the kernel kills)\n", ret); break;
	}
}

/*
 * @v as the kernel of @audit_arch stores an argument in seccomp_data:
 * zero-extended from 32 bits on a 32-bit ABI, the high word first on a
 * big-endian one (words at rising addresses, as the filter loads them).
 */
static uint64_t sim_arg(uint64_t v, uint32_t audit_arch)
{
	bool little = audit_arch & __AUDIT_ARCH_LE;
	uint32_t words[2];
	uint64_t out;

	if (!(audit_arch & __AUDIT_ARCH_64BIT))
		v = (uint32_t)v;
	words[0] = little ? (uint32_t)v : (uint32_t)(v >> 32);
	words[1] = little ? (uint32_t)(v >> 32) : (uint32_t)v;
	memcpy(&out, words, sizeof(out));
	return out;
}

/* The call described by SYSCALL [ARG]... (@argc of them) of @call_arch. */
static struct seccomp_data sim_call(const struct ujs_arch *call_arch,
				    uint32_t audit_arch, int argc, char **argv)
{
	struct seccomp_data data = { 0 };

	data.arch = call_arch ? call_arch->audit_arch : audit_arch;
	data.nr = (int)syscall_arg(argv[0], call_arch);
	for (int a = 0; a < argc - 1; a++)
		data.args[a] = sim_arg(number_arg(argv[1 + a], "ARG: not a number"), data.arch);
	return data;
}

static int cmd_sim(const struct common *c, int argc, char **argv)
{
	struct seccomp_data data;
	const struct ujs_arch *call_arch;
	struct input in;
	char err[256];
	const char *name;
	uint32_t ret;

	if (argc < 2 || argc > 8)
		usage_error(usage_sim, "sim takes POLICY|PROGRAM, SYSCALL and up to 6 ARGs");
	load_input(argv[0], c, false, &in);
	call_arch = c->call_arch ? c->call_arch : in.arch;
	data = sim_call(call_arch, in.loaded.audit_arch, argc - 1, argv + 1);
	if (ujs_bpf_run(in.loaded.insns, in.loaded.count, &data, &ret, err, sizeof(err)))
		die(EXIT_POLICY, "%s: %s", argv[0], err);
	name = call_arch ? ujs_syscall_name(call_arch, (uint32_t)data.nr) : NULL;
	if (name)
		printf("%s: ", name);
	else
		printf("%u: ", (uint32_t)data.nr);
	print_decision(ret);
	free_input(&in);
	return 0;
}

/* ---- run, mode ---- */

static void self_exe(char *buf, size_t len, const char *argv0)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);

	if (n > 0) {
		buf[n] = '\0';
		return;
	}
	snprintf(buf, len, "%s", argv0);
}

static int cmd_run(const struct common *c, int argc, char **argv)
{
	struct ujs_run_opts opts = { .log = stderr };
	char exe[PATH_MAX], err[512];
	const char *why, *base;
	struct input in;
	int status;

	/* "POLICY -- CMD": options end at POLICY, so the "--" comes after it. */
	if (argc >= 2 && strcmp(argv[1], "--") == 0) {
		argv[1] = argv[0];
		argv++;
		argc--;
	}
	if (argc < 2)
		usage_error(usage_run, "run takes POLICY|PROGRAM and CMD");
	if (ujs_choose_mode(c->mode, &opts.mode, &why, err, sizeof(err)))
		die(EXIT_POLICY, "%s", err);
	load_input(argv[0], c, true, &in);
	fprintf(stderr, "%s: mode %s: %s\n", prog_name, ujs_mode_name(opts.mode), why);
	base = strrchr(argv[1], '/');
	opts.name = c->name ? c->name : base ? base + 1 : argv[1];
	opts.preload = c->preload;
	self_exe(exe, sizeof(exe), c->argv0);
	opts.self_exe = exe;
	status = ujs_run(&opts, &in.loaded, argv + 1, err, sizeof(err));
	free_input(&in);
	if (status < 0)
		die(EXIT_NOT_STARTED, "%s", err);
	return status;
}

static int cmd_mode(int argc, char **argv)
{
	enum ujs_mode mode;
	const char *why;
	char err[256];

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage_mode, stdout);
		return 0;
	}
	if (argc != 1)
		usage_error(usage_mode, "mode takes no arguments");
	if (ujs_choose_mode("auto", &mode, &why, err, sizeof(err)))
		die(EXIT_POLICY, "%s", err);
	printf("%s: %s\n", ujs_mode_name(mode), why);
	return 0;
}

/* seccomp-trace [OPTION]... CMD [ARG]...: run with -f's or $SECCOMP_FILE's policy. */
static int cmd_seccomp_trace(const struct common *c, int argc, char **argv)
{
	const char *env = getenv("SECCOMP_FILE");
	char **run_argv;
	char *policy;

	if (argc < 1)
		usage_error(usage_seccomp_trace, "CMD is missing");
	if (!c->policy && (!env || !*env))
		die(EXIT_NOT_STARTED, "%s: no policy: SECCOMP_FILE is %s and -f is not given",
		    argv[0], env ? "empty" : "not set");
	policy = strdup(c->policy ? c->policy : env);
	run_argv = calloc((size_t)argc + 2, sizeof(*run_argv));
	if (!policy || !run_argv)
		die(EXIT_NOT_STARTED, "out of memory");
	/* Installed here, so neither CMD's shim nor its children read it again. */
	if (unsetenv("SECCOMP_FILE"))
		die(EXIT_NOT_STARTED, "unsetenv: %s", strerror(errno));
	run_argv[0] = policy;
	memcpy(run_argv + 1, argv, (size_t)argc * sizeof(*argv));
	return cmd_run(c, argc + 1, run_argv);
}

static const struct command seccomp_trace = {
	"seccomp-trace", usage_seccomp_trace,
	O_POLICY | O_NAME | O_MODE | O_STRICT | O_COND | O_PRELOAD,
	true, cmd_seccomp_trace,
};

static const struct command commands[] = {
	{ "compile", usage_compile, O_ARCH | O_STRICT | O_COND | O_OUTPUT, false, cmd_compile },
	{ "dump", usage_dump, O_ARCH | O_STRICT | O_COND, false, cmd_dump },
	{ "check", usage_check, O_ARCH | O_STRICT | O_COND, false, cmd_check },
	{ "sim", usage_sim, O_ARCH | O_CALL_ARCH | O_STRICT | O_COND, false, cmd_sim },
	{ "run", usage_run, O_NAME | O_MODE | O_STRICT | O_COND | O_PRELOAD, true, cmd_run },
};

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

/* @argv[0] is the command's name; its options, then its operands. */
static int run_command(const struct command *cmd, int argc, char **argv,
		       const char *argv0)
{
	struct common c = { .argv0 = argv0 };
	int i = parse_options(cmd, argc, argv, &c);

	return cmd->run(&c, argc - i, argv + i);
}

/* Called as seccomp-trace (procd's name for it, a link)? */
static bool called_as_seccomp_trace(const char *argv0)
{
	const char *base = argv0 ? strrchr(argv0, '/') : NULL;

	return argv0 && !strcmp(base ? base + 1 : argv0, "seccomp-trace");
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;
	const struct command *cmd;
	char what[128];

	if (called_as_seccomp_trace(argv[0])) {
		prog_name = seccomp_trace.name;
		return run_command(&seccomp_trace, argc, argv, argv[0]);
	}

	if (!name)
		usage_error(usage_main, "a COMMAND is missing");
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		fputs(usage_main, stdout);
		return 0;
	}
	/* "mode" takes no options: -h or --help alone, or nothing. */
	if (!strcmp(name, "mode"))
		return cmd_mode(argc - 1, argv + 1);
	cmd = find_command(name);
	if (cmd)
		return run_command(cmd, argc - 1, argv + 1, argv[0]);
	snprintf(what, sizeof(what), "%s: unknown command", name);
	usage_error(usage_main, what);
}
