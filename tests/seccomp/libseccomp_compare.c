/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libseccomp_compare POLICY...: our compiled filter against libseccomp's,
 * call by call. Prints TAP: one test per policy and target architecture.
 *
 * For each target a policy compiles for (x86_64, i386, aarch64, arm, mips,
 * mipsel), the policy is parsed once by our parser (which evaluates
 * Docker's conditions: no capabilities, kernel 6.12), and its rules are
 * given both to our compiler and, one seccomp_rule_add_array() each, to
 * libseccomp, whose BPF is exported with seccomp_export_bpf(). Both
 * programs then run in the cBPF evaluator (ujs_bpf_run) on a corpus of
 * calls: every syscall number of each architecture the filter accepts
 * (and of one it does not), numbers no table has, and for the syscalls
 * with argument rules the values around each rule's (value, value +- 1,
 * the mask's bits, 0, -1, the high word set), laid out as that ABI's
 * kernel passes them. Every call must get the same SECCOMP_RET_* value.
 *
 * What is left out of the corpus, and why:
 * - numbers whose name libseccomp resolves differently, or not at all
 *   (its tables are older than ours: rules on them are skipped on its side,
 *   as runc skips them);
 * - i386's and mips's socketcall and ipc: libseccomp also turns a rule on
 *   "socket" into one on socketcall(SYS_SOCKET, ...), which we do not;
 * - a syscall libseccomp refused a rule of (it says why).
 * - x32 calls' arguments: libseccomp compares x32's low word only (as for
 *   a 32-bit ABI), we all 64 bits (the kernel passes x32's registers
 *   whole), so "arg1 != -1" differs for an x32 int -1 (0x00000000ffffffff);
 *   x32 calls are compared with zero arguments only. An open question for
 *   the compiler, not settled here.
 * SCMP_ACT_LOG_ERRNO, ours alone, is compared as SCMP_ACT_ERRNO. A policy's
 * architectures that the target's kernel cannot pass calls of (aarch64 in
 * a filter for x86_64) are not given to libseccomp: we compile them out.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/audit.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bpf.h"
#include "compile.h"
#include "policy.h"
#include "syscalls.h"
#include "tap.h"

#define MAX_SKIP 64

/* One comparison: a policy for one target. */
struct cmp {
	const char *file;
	const struct ujs_arch *target;
	struct ujs_policy *p;
	struct sock_filter *lib;
	size_t lib_len;
	struct ujs_program ours;
	const char *skip[MAX_SKIP];	/* names libseccomp refused a rule of */
	size_t n_skip;
	size_t calls, differ;
};

static const struct {
	const char *name;
	uint32_t token;
} lib_archs[] = {
	{ "x86_64", SCMP_ARCH_X86_64 }, { "x32", SCMP_ARCH_X32 },
	{ "i386", SCMP_ARCH_X86 }, { "aarch64", SCMP_ARCH_AARCH64 },
	{ "arm", SCMP_ARCH_ARM }, { "mips", SCMP_ARCH_MIPS },
	{ "mipsel", SCMP_ARCH_MIPSEL },
};

static uint32_t lib_token(const struct ujs_arch *a)
{
	for (size_t i = 0; i < sizeof(lib_archs) / sizeof(lib_archs[0]); i++)
		if (!strcmp(a->name, lib_archs[i].name))
			return lib_archs[i].token;
	return 0;
}

static uint32_t lib_action(struct ujs_action a)
{
	switch (a.kind) {
	case UJS_ACT_KILL_PROCESS: return SCMP_ACT_KILL_PROCESS;
	case UJS_ACT_KILL_THREAD: return SCMP_ACT_KILL_THREAD;
	case UJS_ACT_TRAP: return SCMP_ACT_TRAP;
	case UJS_ACT_ERRNO:
	case UJS_ACT_LOG_ERRNO: return SCMP_ACT_ERRNO(a.data);
	case UJS_ACT_TRACE: return SCMP_ACT_TRACE(a.data);
	case UJS_ACT_LOG: return SCMP_ACT_LOG;
	case UJS_ACT_ALLOW: return SCMP_ACT_ALLOW;
	}
	return SCMP_ACT_KILL_PROCESS;
}

/* Ours alone: compared as plain errno on both sides. */
static void log_errno_to_errno(struct ujs_action *a)
{
	if (a->kind == UJS_ACT_LOG_ERRNO)
		a->kind = UJS_ACT_ERRNO;
}

static bool skipped(const struct cmp *c, const char *name)
{
	for (size_t i = 0; i < c->n_skip; i++)
		if (!strcmp(c->skip[i], name))
			return true;
	return false;
}

static void add_lib_rule(struct cmp *c, scmp_filter_ctx ctx, const struct ujs_rule *r)
{
	struct scmp_arg_cmp args[6];
	int nr = seccomp_syscall_resolve_name(r->name), ret;

	if (nr == __NR_SCMP_ERROR)
		return;		/* unknown to libseccomp: runc skips it too */
	for (size_t i = 0; i < r->n_args; i++)
		args[i] = (struct scmp_arg_cmp){
			.arg = r->args[i].index,
			.op = (enum scmp_compare)(r->args[i].op + SCMP_CMP_NE),
			.datum_a = r->args[i].value, .datum_b = r->args[i].value_two,
		};
	ret = seccomp_rule_add_array(ctx, lib_action(r->action), nr, (unsigned int)r->n_args, args);
	/* -EACCES: the rule's action is the default one, a no-op. */
	if (ret && ret != -EACCES && c->n_skip < MAX_SKIP) {
		printf("# %s %s: libseccomp refuses %s: %s\n", c->file, c->target->name,
		       r->where, strerror(-ret));
		c->skip[c->n_skip++] = r->name;
	}
}

/*
 * Whether a kernel of @target can pass calls of @a, listed in a policy: we
 * compile the others out, libseccomp would keep them.
 */
static bool kernel_sees(const struct ujs_arch *target, const struct ujs_arch *a)
{
	const struct ujs_arch *compat[UJS_MAX_ARCHS];
	size_t n = ujs_arch_compat(target, compat, UJS_MAX_ARCHS);

	for (size_t i = 0; i < n; i++)
		if (compat[i] == a)
			return true;
	return false;
}

/* libseccomp writes a big-endian target's program in its byte order. */
static void to_host_order(struct sock_filter *insns, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		insns[i].code = __builtin_bswap16(insns[i].code);
		insns[i].k = __builtin_bswap32(insns[i].k);
	}
}

static bool takes_data(uint32_t k)
{
	uint32_t a = k & SECCOMP_RET_ACTION_FULL;

	return a == SECCOMP_RET_TRAP || a == SECCOMP_RET_ERRNO || a == SECCOMP_RET_TRACE;
}

/*
 * Whether every RET of @insns returns a known action. libseccomp 2.5.4's
 * export for a big-endian target leaves some instructions in host order
 * (seen with Docker's profile for mips): such a program cannot be compared.
 */
static bool rets_valid(const struct sock_filter *insns, size_t n)
{
	static const uint32_t actions[] = {
		SECCOMP_RET_KILL_PROCESS, SECCOMP_RET_KILL_THREAD, SECCOMP_RET_TRAP,
		SECCOMP_RET_ERRNO, SECCOMP_RET_TRACE, SECCOMP_RET_LOG, SECCOMP_RET_ALLOW,
	};

	for (size_t i = 0; i < n; i++) {
		bool known = false;

		if (insns[i].code != (BPF_RET | BPF_K))
			continue;
		for (size_t j = 0; j < sizeof(actions) / sizeof(actions[0]); j++)
			known |= (insns[i].k & SECCOMP_RET_ACTION_FULL) == actions[j];
		/* Only TRAP, ERRNO and TRACE carry data (0x0000ff7f: ALLOW swapped). */
		known &= (insns[i].k & SECCOMP_RET_DATA) == 0 || takes_data(insns[i].k);
		if (!known)
			return false;
	}
	return true;
}

/* libseccomp's program for c->p, in c->lib. */
static int build_lib(struct cmp *c)
{
	scmp_filter_ctx ctx = seccomp_init(lib_action(c->p->default_action));
	int fd = memfd_create("bpf", 0), ret = -1;
	off_t size;

	if (!ctx || fd < 0)
		goto out;
	seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
	if (seccomp_arch_remove(ctx, SCMP_ARCH_NATIVE) ||
	    seccomp_arch_add(ctx, lib_token(c->target)))
		goto out;
	for (size_t i = 0; i < c->p->n_archs; i++)
		if (kernel_sees(c->target, c->p->archs[i]) &&
		    seccomp_arch_add(ctx, lib_token(c->p->archs[i])))
			goto out;
	for (size_t i = 0; i < c->p->n_rules; i++)
		add_lib_rule(c, ctx, &c->p->rules[i]);
	if (seccomp_export_bpf(ctx, fd))
		goto out;
	size = lseek(fd, 0, SEEK_END);
	c->lib_len = (size_t)size / sizeof(*c->lib);
	c->lib = malloc((size_t)size);
	ret = c->lib && pread(fd, c->lib, (size_t)size, 0) == size ? 0 : -1;
	if (!ret && !(c->target->audit_arch & __AUDIT_ARCH_LE))
		to_host_order(c->lib, c->lib_len);
out:
	if (fd >= 0)
		close(fd);
	seccomp_release(ctx);
	return ret;
}

/* @v as the kernel of @audit passes it (see ujail-seccomp sim). */
static uint64_t kernel_arg(uint64_t v, uint32_t audit)
{
	bool little = audit & __AUDIT_ARCH_LE;
	uint32_t w[2];
	uint64_t out;

	if (!(audit & __AUDIT_ARCH_64BIT))
		v = (uint32_t)v;
	w[0] = little ? (uint32_t)v : (uint32_t)(v >> 32);
	w[1] = little ? (uint32_t)(v >> 32) : (uint32_t)v;
	memcpy(&out, w, sizeof(out));
	return out;
}

static void run_call(struct cmp *c, uint32_t audit, uint32_t nr, const uint64_t *args)
{
	struct seccomp_data d = { .nr = (int)nr, .arch = audit };
	uint32_t a = 0, b = 0;
	char err[128];

	for (int i = 0; i < 6; i++)
		d.args[i] = kernel_arg(args[i], audit);
	if (ujs_bpf_run(c->ours.insns, c->ours.len, &d, &a, err, sizeof(err)) ||
	    ujs_bpf_run(c->lib, c->lib_len, &d, &b, err, sizeof(err)))
		a = ~b;		/* an evaluator error counts as a difference */
	c->calls++;
	if (a == b)
		return;
	if (c->differ++ < 5)
		printf("# arch 0x%08x nr %u args %#" PRIx64 " %#" PRIx64 " %#" PRIx64 ": ours 0x%08x, libseccomp 0x%08x\n",
		       audit, nr, args[0], args[1], args[2], a, b);
}

/* The values worth trying against one comparison. */
static size_t candidates(const struct ujs_arg_cmp *a, uint64_t *out)
{
	size_t n = 0;

	out[n++] = a->value;
	out[n++] = a->value + 1;
	out[n++] = a->value - 1;
	out[n++] = a->value_two;
	out[n++] = a->value_two | ~a->value;
	out[n++] = a->value & (a->value - 1);	/* one mask bit less */
	out[n++] = a->value | 1ULL << 32;	/* high word set */
	out[n++] = 0;
	out[n++] = UINT64_MAX;
	out[n++] = 0xffffffffULL;
	return n;
}

/* Calls of @name with the values of its argument rules. */
static void run_arg_calls(struct cmp *c, uint32_t audit, uint32_t nr, const char *name)
{
	uint64_t args[6] = { 0 }, all[6] = { 0 }, vals[16];

	run_call(c, audit, nr, args);
	if (nr & UJS_X32_SYSCALL_BIT && audit == ujs_arch_by_name("x32")->audit_arch)
		return;
	for (size_t i = 0; i < c->p->n_rules; i++) {
		const struct ujs_rule *r = &c->p->rules[i];

		if (strcmp(r->name, name))
			continue;
		for (size_t j = 0; j < r->n_args; j++) {
			size_t n = candidates(&r->args[j], vals);

			for (size_t k = 0; k < n; k++) {
				memcpy(args, all, sizeof(args));
				args[r->args[j].index] = vals[k];
				run_call(c, audit, nr, args);
			}
			all[r->args[j].index] = r->args[j].value;	/* satisfy an AND */
		}
		run_call(c, audit, nr, all);
		memset(all, 0, sizeof(all));
	}
}

/* Numbers libseccomp and we do not agree on are not compared. */
static bool comparable(const struct cmp *c, const struct ujs_arch *a, const struct ujs_syscall *s)
{
	const char *name = ujs_name_at(s->name_off);
	bool multiplexed = !strcmp(name, "socketcall") || !strcmp(name, "ipc");

	if (skipped(c, name) || (multiplexed && strcmp(a->name, "arm")))
		return false;
	return seccomp_syscall_resolve_name_arch(lib_token(a), name) == (int)s->nr;
}

static void run_arch_calls(struct cmp *c, const struct ujs_arch *a)
{
	static const uint64_t none[6];

	for (size_t i = 0; i < a->n_calls; i++)
		if (comparable(c, a, &a->calls[i]))
			run_arg_calls(c, a->audit_arch, a->calls[i].nr,
				      ujs_name_at(a->calls[i].name_off));
	for (uint32_t nr = 4500; nr < 4503; nr++)	/* no table has them */
		run_call(c, a->audit_arch, nr + (a->name[0] == 'x' && a->name[1] == '3' ?
					       UJS_X32_SYSCALL_BIT : 0), none);
	run_call(c, a->audit_arch, 0xffff, none);
}

static void compare(struct cmp *c)
{
	const struct ujs_arch *compat[UJS_MAX_ARCHS], *other;
	size_t n = ujs_arch_compat(c->target, compat, UJS_MAX_ARCHS);

	run_arch_calls(c, c->target);
	for (size_t i = 0; i < n; i++)
		run_arch_calls(c, compat[i]);
	/* An architecture no filter here accepts. */
	other = ujs_arch_by_name(strcmp(c->target->name, "aarch64") ? "aarch64" : "x86_64");
	run_arch_calls(c, other);
}

static void compare_one(const char *file, const struct ujs_arch *target)
{
	const uint64_t no_caps = 0;
	struct ujs_parse_opts opts = { .target = target, .caps = &no_caps, .kernel = "6.12" };
	struct cmp c = { .file = file, .target = target };
	char err[512];

	if (ujs_policy_load(file, &opts, &c.p, err, sizeof(err)) ||
	    (log_errno_to_errno(&c.p->default_action), 0)) {
		printf("# %s for %s: not a policy for it: %s\n", file, target->name, err);
		return;
	}
	for (size_t i = 0; i < c.p->n_rules; i++)
		log_errno_to_errno(&c.p->rules[i].action);
	if (ujs_compile(c.p, target, &c.ours, err, sizeof(err))) {
		printf("# %s for %s: does not compile: %s\n", file, target->name, err);
		ujs_policy_free(c.p);
		return;
	}
	if (!ok(!build_lib(&c), "%s %s: libseccomp builds its filter", file, target->name))
		;
	else if (!rets_valid(c.lib, c.lib_len))
		ok(true, "%s %s: # SKIP libseccomp's program mixes byte orders (big-endian export)",
		   file, target->name);
	else {
		compare(&c);
		ok(c.differ == 0 && c.calls > 100, "%s %s: the same action for all %zu calls (%zu differ)",
		   file, target->name, c.calls, c.differ);
	}
	free(c.lib);
	ujs_program_free(&c.ours);
	ujs_policy_free(c.p);
}

int main(int argc, char **argv)
{
	static const char *const targets[] = { "x86_64", "i386", "aarch64", "arm", "mips", "mipsel" };

	if (argc < 2) {
		fprintf(stderr, "usage: libseccomp_compare POLICY...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++)
		for (size_t t = 0; t < sizeof(targets) / sizeof(targets[0]); t++)
			compare_one(argv[i], ujs_arch_by_name(targets[t]));
	return tap_done();
}
