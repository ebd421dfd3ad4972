/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compile.c and compile_ir.c: compiled programs are run in the simulator
 * on (arch, nr, args) vectors and compared with a plain reading of the
 * policy (the reference evaluator below); the kernel's constant-action
 * analysis must cache exactly the syscalls allowed by number alone; and
 * one program is loaded into the host kernel. Arguments are modelled per
 * ABI: 64 bits on 64-bit ones; on 32-bit ones (i386, arm, mips) the kernel
 * passes them zero-extended and a rule's value means its 32-bit form.
 */
#include <errno.h>
#include <linux/audit.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf.h"
#include "compile.h"
#include "program.h"
#include "reference.h"
#include "tap.h"
#include "test_util.h"

static struct ujs_action act(enum ujs_action_kind kind, uint16_t data)
{
	return (struct ujs_action){ .kind = kind, .data = data };
}

#define ALLOW act(UJS_ACT_ALLOW, 0)
#define ERRNO(n) act(UJS_ACT_ERRNO, n)

static uint32_t nr_of(const char *arch_name, const char *syscall)
{
	int64_t nr = ujs_syscall_nr(arch(arch_name), syscall);

	if (nr < 0)
		bail("%s has no %s", arch_name, syscall);
	return (uint32_t)nr;
}

/* ------------------------------------------------------------------ */
/* Policies built by hand                                              */

static struct ujs_policy *policy_new(struct ujs_action deflt, const char *archs)
{
	struct ujs_policy *p = calloc(1, sizeof(*p));
	char *list = strdup(archs), *save = NULL, *name;

	p->file = strdup("test.json");
	p->default_action = deflt;
	for (name = strtok_r(list, " ", &save); name;
	     name = strtok_r(NULL, " ", &save))
		p->archs[p->n_archs++] = arch(name);
	free(list);
	return p;
}

/* Adds a rule; returns its index for arg_add(). */
static size_t rule_add(struct ujs_policy *p, const char *name, struct ujs_action a)
{
	struct ujs_rule *r;

	p->rules = realloc(p->rules, (p->n_rules + 1) * sizeof(*p->rules));
	r = &p->rules[p->n_rules];
	memset(r, 0, sizeof(*r));
	r->name = strdup(name);
	r->action = a;
	if (asprintf(&r->where, "syscalls[%zu].names[0]", p->n_rules) < 0)
		r->where = NULL;
	return p->n_rules++;
}

static void arg_add(struct ujs_policy *p, size_t rule, unsigned int index,
		    enum ujs_cmp_op op, uint64_t value, uint64_t value_two)
{
	struct ujs_rule *r = &p->rules[rule];

	r->args = realloc(r->args, (r->n_args + 1) * sizeof(*r->args));
	r->args[r->n_args++] = (struct ujs_arg_cmp){
		.index = index, .op = op, .value = value, .value_two = value_two,
	};
}

static bool compile(const struct ujs_policy *p, const char *target,
		    struct ujs_program *prog)
{
	char err[512];

	if (ujs_compile(p, target ? arch(target) : NULL, prog, err, sizeof(err))) {
		printf("# compile for %s: %s\n", target ? target : "native", err);
		return false;
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* Simulation                                                          */

static uint32_t sim(const struct ujs_program *prog, uint32_t audit,
		    uint32_t nr, const uint64_t *args)
{
	struct seccomp_data d = ref_seccomp_data(audit, nr, args);
	char err[256];
	uint32_t ret;

	if (ujs_bpf_run(prog->insns, prog->len, &d, &ret, err, sizeof(err))) {
		printf("# run: %s\n", err);
		return 0xdeadbeef;
	}
	return ret;
}

static const uint64_t zero_args[6];

/*
 * Simulator vs reference on one vector, with the arguments as the kernel
 * passes them to the filter; prints the first few misses.
 */
static bool agrees(const struct ujs_policy *p, const char *target,
		   const struct ujs_program *prog, uint32_t audit, uint32_t nr,
		   const uint64_t *vector, unsigned int *misses)
{
	uint64_t args[6];
	uint32_t got, want;

	for (size_t i = 0; i < 6; i++)
		args[i] = narrow_abi(audit) ? (uint32_t)vector[i] : vector[i];
	got = sim(prog, audit, nr, args);
	want = ref_decide(p, arch(target), audit, nr, args);

	if (got == want)
		return true;
	if ((*misses)++ < 5)
		printf("# %s arch 0x%x nr 0x%x args %#llx %#llx %#llx: got 0x%x want 0x%x\n",
		       target, audit, nr, (unsigned long long)args[0],
		       (unsigned long long)args[1], (unsigned long long)args[2],
		       got, want);
	return false;
}

/*
 * Numbers @from..@to of @audit with every vector of @vecs: decisions as
 * the reference, and const-allow exactly for those allowed by number.
 */
static void check_range(const struct ujs_policy *p, const char *target,
			const struct ujs_program *prog, uint32_t audit,
			uint32_t from, uint32_t to, const uint64_t (*vecs)[6],
			size_t n_vecs, const char *what)
{
	unsigned int misses = 0, cache_misses = 0, allowed = 0;
	uint32_t nr;
	size_t v;

	for (nr = from; nr <= to; nr++) {
		bool by_number = ref_allowed_by_number(p, arch(target), audit, nr);
		bool cached = ujs_bpf_const_allow(prog->insns, prog->len, audit, nr);

		for (v = 0; v < n_vecs; v++)
			agrees(p, target, prog, audit, nr, vecs[v], &misses);
		allowed += by_number;
		if (by_number != cached && cache_misses++ < 5)
			printf("# %s arch 0x%x nr 0x%x: const_allow %d, allowed by number %d\n",
			       target, audit, nr, cached, by_number);
	}
	ok(!misses, "%s: %u..%u x %zu vectors decide as the policy says (%u misses)",
	   what, from, to, n_vecs, misses);
	ok(!cache_misses,
	   "%s: const-allow exactly for the %u allowed by number (%u misses)",
	   what, allowed, cache_misses);
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */

static void test_actions(void)
{
	static const struct {
		const char *name;
		enum ujs_action_kind kind;
		uint16_t data;
		uint32_t ret;
	} acts[] = {
		{ "getpid", UJS_ACT_ALLOW, 0, SECCOMP_RET_ALLOW },
		{ "getppid", UJS_ACT_KILL_PROCESS, 0, SECCOMP_RET_KILL_PROCESS },
		{ "gettid", UJS_ACT_KILL_THREAD, 0, SECCOMP_RET_KILL_THREAD },
		{ "getuid", UJS_ACT_TRAP, 0, SECCOMP_RET_TRAP },
		{ "getgid", UJS_ACT_ERRNO, 13, SECCOMP_RET_ERRNO | 13 },
		{ "geteuid", UJS_ACT_LOG_ERRNO, 77, SECCOMP_RET_LOG_ERRNO | 77 },
		{ "getegid", UJS_ACT_TRACE, 5, SECCOMP_RET_TRACE | 5 },
		{ "getpgrp", UJS_ACT_LOG, 0, SECCOMP_RET_LOG },
	};
	size_t d, i;

	for (d = 0; d < LEN(acts); d++) {
		struct ujs_policy *p = policy_new(act(acts[d].kind, 3), "");
		struct ujs_program prog;
		unsigned int wrong = 0, allows = 0, rets = 0;

		for (i = 0; i < LEN(acts); i++)
			if (i != d)
				rule_add(p, acts[i].name, act(acts[i].kind, acts[i].data));
		if (!compile(p, "x86_64", &prog)) {
			ok(false, "actions with default %s compile", acts[d].name);
			ujs_policy_free(p);
			continue;
		}
		for (i = 0; i < LEN(acts); i++) {
			uint32_t want = i == d ? ujs_action_ret(p->default_action)
					       : acts[i].ret;

			wrong += sim(&prog, AUDIT_ARCH_X86_64,
				     nr_of("x86_64", acts[i].name), zero_args) != want;
		}
		wrong += sim(&prog, AUDIT_ARCH_X86_64, nr_of("x86_64", "uname"),
			     zero_args) != ujs_action_ret(p->default_action);
		for (i = 0; i < prog.len; i++) {
			if (BPF_CLASS(prog.insns[i].code) != BPF_RET)
				continue;
			rets++;
			allows += prog.insns[i].k == SECCOMP_RET_ALLOW;
		}
		ok(!wrong, "every action decides (default %s %u)",
		   ujs_action_name(acts[d].kind), ujs_action_ret(p->default_action));
		/* 8 actions + KILL_PROCESS for other arches, shared. */
		ok(allows == 1 && rets <= LEN(acts) + 1,
		   "RETs shared: %u ret, %u ret ALLOW in %zu insns", rets, allows,
		   prog.len);
		ujs_program_free(&prog);
		ujs_policy_free(p);
	}
}

/* 64-bit boundary values: halves at their edges, differing in one half. */
static const uint64_t edges[] = {
	0, 1, 2, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
	0x100000000ULL, 0x100000001ULL, 0x1fffffffeULL, 0x1ffffffffULL,
	0x200000000ULL, 0x2ffffffffULL, 0x7fffffffffffffffULL,
	0x8000000000000000ULL, 0xfffffffe00000000ULL, 0xfffffffeffffffffULL,
	0xffffffff00000000ULL, 0xffffffff00000001ULL, 0xfffffffffffffffeULL,
	UINT64_MAX, 0x123456789abcdef0ULL, 0x00000001fffffffeULL,
};

static size_t arg_vectors(uint64_t v, unsigned int index, uint64_t (*vecs)[6])
{
	const uint64_t near[] = { v - 1, v, v + 1, v ^ (1ULL << 32), v ^ 1,
				  v ^ (1ULL << 63), ~v };
	size_t n = 0, i;

	for (i = 0; i < LEN(edges) + LEN(near); i++, n++) {
		memset(vecs[n], 0, sizeof(vecs[n]));
		vecs[n][index] = i < LEN(edges) ? edges[i] : near[i - LEN(edges)];
		/* Junk in the other arguments must not matter. */
		vecs[n][(index + 1) % 6] = 0xdeadbeefcafef00dULL;
	}
	return n;
}

static const char *const op_names[] = {
	[UJS_CMP_NE] = "NE", [UJS_CMP_LT] = "LT", [UJS_CMP_LE] = "LE",
	[UJS_CMP_EQ] = "EQ", [UJS_CMP_GE] = "GE", [UJS_CMP_GT] = "GT",
	[UJS_CMP_MASKED_EQ] = "MASKED_EQ",
};

/* Whether a 32-bit ABI's filter must refuse these values. */
static bool refused32(const char *target, enum ujs_cmp_op op, uint64_t v, uint64_t v2)
{
	bool fits = ujs_arg_fits32(v) && (op != UJS_CMP_MASKED_EQ || ujs_arg_fits32(v2));

	return narrow_abi(arch(target)->audit_arch) && !fits;
}

/* A value without a 32-bit form must fail to compile, saying so. */
static void refused_case(struct ujs_policy *p, const char *target, unsigned int *misses)
{
	struct ujs_program prog;
	char err[512];

	if (ujs_compile(p, arch(target), &prog, err, sizeof(err)) == 0) {
		ujs_program_free(&prog);
		if ((*misses)++ < 5)
			printf("# %s: compiled a value without a 32-bit form\n", target);
	} else if (!strstr(err, "does not fit the 32-bit arguments of") && (*misses)++ < 5) {
		printf("# %s: %s\n", target, err);
	}
}

/* One comparison in a policy, checked on the vectors around it. */
static void op_case(const char *target, enum ujs_cmp_op op, unsigned int index,
		    uint64_t v, uint64_t v2, unsigned int *misses,
		    unsigned int *vectors)
{
	struct ujs_policy *p = policy_new(ERRNO(1), target);
	uint64_t vecs[LEN(edges) + 8][6];
	struct ujs_program prog;
	uint32_t nr = nr_of(target, "read");
	size_t r, n, i;

	r = rule_add(p, "read", act(UJS_ACT_ERRNO, 99));
	arg_add(p, r, index, op, v, v2);
	rule_add(p, "read", ALLOW);
	if (refused32(target, op, v, v2)) {
		refused_case(p, target, misses);
		ujs_policy_free(p);
		return;
	}
	if (!compile(p, target, &prog)) {
		(*misses)++;
		ujs_policy_free(p);
		return;
	}
	n = arg_vectors(op == UJS_CMP_MASKED_EQ ? v2 : v, index, vecs);
	for (i = 0; i < n; i++)
		agrees(p, target, &prog, arch(target)->audit_arch, nr, vecs[i], misses);
	*vectors += n;
	ujs_program_free(&prog);
	ujs_policy_free(p);
}

static const char *narrow_note(const char *target)
{
	return narrow_abi(arch(target)->audit_arch) ?
		", low words, the values without a 32-bit form refused" : "";
}

static void test_ops(const char *target)
{
	enum ujs_cmp_op op;
	size_t i, j;

	for (op = UJS_CMP_NE; op <= UJS_CMP_GT; op++) {
		unsigned int misses = 0, vectors = 0;

		for (i = 0; i < LEN(edges); i++)
			op_case(target, op, i % 6, edges[i], 0, &misses, &vectors);
		ok(!misses, "%s: %s on 64-bit edges, %u vectors (%u misses)%s", target,
		   op_names[op], vectors, misses, narrow_note(target));
	}
	{
		unsigned int misses = 0, vectors = 0;

		for (i = 0; i < LEN(edges); i++) {
			uint64_t m = edges[i];
			const uint64_t wants[] = {
				0, m, m & 0xffffffffULL, m & ~0xffffffffULL,
				m & 0x5555555555555555ULL, m | 2, ~m,
			};

			for (j = 0; j < LEN(wants); j++)
				op_case(target, UJS_CMP_MASKED_EQ, (i + j) % 6,
					m, wants[j], &misses, &vectors);
		}
		ok(!misses, "%s: MASKED_EQ on 64-bit edges, %u vectors (%u misses)%s", target,
		   vectors, misses, narrow_note(target));
	}
}

/*
 * The audit's case: "kill -> ERRNO(1) if arg0 == -1" must catch the -1 a
 * 32-bit caller passes, which reaches the filter as 0x00000000ffffffff;
 * on a 64-bit ABI that is another value, and -1 is all ones.
 */
static void test_arg32(void)
{
	static const struct {
		const char *target, *archs, *call;
		uint32_t audit;
	} cases[] = {
		{ "arm", "", "arm", AUDIT_ARCH_ARM },
		{ "mips", "", "mips", AUDIT_ARCH_MIPS },
		{ "mipsel", "", "mipsel", AUDIT_ARCH_MIPSEL },
		{ "i386", "", "i386", AUDIT_ARCH_I386 },
		{ "x86_64", "x86_64 i386", "i386", AUDIT_ARCH_I386 },
		{ "aarch64", "aarch64 arm", "arm", AUDIT_ARCH_ARM },
	};
	const uint64_t minus_one32[6] = { 0xffffffffULL, 9 }, five[6] = { 5, 9 };
	const uint64_t minus_one64[6] = { UINT64_MAX, 9 };

	for (size_t i = 0; i < LEN(cases); i++) {
		struct ujs_policy *p = policy_new(ALLOW, cases[i].archs);
		uint32_t nr = nr_of(cases[i].call, "kill");
		struct ujs_program prog;
		size_t r = rule_add(p, "kill", ERRNO(1));

		arg_add(p, r, 0, UJS_CMP_EQ, UINT64_MAX, 0);
		if (!compile(p, cases[i].target, &prog)) {
			ok(false, "%s filter, %s call: compiles", cases[i].target, cases[i].call);
			ujs_policy_free(p);
			continue;
		}
		ok(sim(&prog, cases[i].audit, nr, minus_one32) == (SECCOMP_RET_ERRNO | 1) &&
		   sim(&prog, cases[i].audit, nr, five) == SECCOMP_RET_ALLOW,
		   "%s filter, %s call: arg0 == -1 catches 0xffffffff, not 5", cases[i].target,
		   cases[i].call);
		ujs_program_free(&prog);
		ujs_policy_free(p);
	}
	{
		struct ujs_policy *p = policy_new(ALLOW, "");
		uint32_t nr = nr_of("x86_64", "kill");
		struct ujs_program prog;
		size_t r = rule_add(p, "kill", ERRNO(1));

		arg_add(p, r, 0, UJS_CMP_EQ, UINT64_MAX, 0);
		ok(compile(p, "x86_64", &prog) &&
		   sim(&prog, AUDIT_ARCH_X86_64, nr, minus_one64) == (SECCOMP_RET_ERRNO | 1) &&
		   sim(&prog, AUDIT_ARCH_X86_64, nr, minus_one32) == SECCOMP_RET_ALLOW,
		   "x86_64: all 64 bits compared (0xffffffff is not -1 there)");
		ujs_program_free(&prog);
		ujs_policy_free(p);
	}
	{
		struct ujs_policy *p = policy_new(ALLOW, "x86_64 i386");
		struct ujs_program prog;
		char err[512];
		size_t r = rule_add(p, "kill", ERRNO(1));

		arg_add(p, r, 1, UJS_CMP_MASKED_EQ, 0xff, 0x100000000ULL);
		ok(ujs_compile(p, arch("x86_64"), &prog, err, sizeof(err)) == -1 &&
		   !strcmp(err, "test.json: syscalls[0].names[0] kill: arg1 value 0x100000000 does "
			   "not fit the 32-bit arguments of i386 (-2147483648..4294967295)"),
		   "a value without a 32-bit form, for the i386 section: refused, named");
		ujs_policy_free(p);
	}
}

/* Several comparisons in one rule: all must hold. */
static void test_and(void)
{
	struct ujs_policy *p = policy_new(ERRNO(1), "");
	uint64_t vecs[64][6] = { { 0 } };
	struct ujs_program prog;
	unsigned int misses = 0;
	size_t r, i;

	r = rule_add(p, "mmap", ALLOW);
	arg_add(p, r, 2, UJS_CMP_MASKED_EQ, 4, 0);		/* no PROT_EXEC */
	arg_add(p, r, 1, UJS_CMP_LE, 0x100000000ULL, 0);
	arg_add(p, r, 0, UJS_CMP_NE, 0, 0);
	r = rule_add(p, "mmap", act(UJS_ACT_LOG_ERRNO, 13));
	arg_add(p, r, 2, UJS_CMP_MASKED_EQ, 4, 4);
	for (i = 0; i < LEN(vecs); i++) {
		vecs[i][0] = i & 1 ? 0x7f0000000000ULL : 0;
		vecs[i][1] = i & 2 ? 0x100000001ULL : (i & 4 ? 0x100000000ULL : 4096);
		vecs[i][2] = i & 8 ? 7 : 3;
		vecs[i][3] = i & 16 ? 0x22 : 0;
	}
	if (compile(p, "x86_64", &prog)) {
		check_range(p, "x86_64", &prog, AUDIT_ARCH_X86_64, 0, 20,
			    (const uint64_t (*)[6])vecs, LEN(vecs),
			    "x86_64 AND of three comparisons");
		for (i = 0; i < LEN(vecs); i++)
			agrees(p, "x86_64", &prog, AUDIT_ARCH_X86_64,
			       nr_of("x86_64", "mmap"), vecs[i], &misses);
		ok(!misses, "mmap: first rule whose comparisons all hold decides");
		ujs_program_free(&prog);
	}
	ujs_policy_free(p);
}

static void test_x86_arches(void)
{
	const uint64_t vec[1][6] = { { 0 } };
	const char *const listings[] = {
		"", "x86_64", "x86_64 x32", "x86_64 i386", "x86_64 x32 i386",
		"SCMP_ARCH_X86 SCMP_ARCH_X32 SCMP_ARCH_X86_64",
	};
	size_t i;

	for (i = 0; i < LEN(listings); i++) {
		struct ujs_policy *p = policy_new(ERRNO(1), listings[i]);
		struct ujs_program prog;
		bool x32 = strstr(listings[i], "32") != NULL;
		bool i386 = strstr(listings[i], "i386") || strstr(listings[i], "X86 ");
		uint32_t x32_getpid = nr_of("x32", "getpid");
		size_t r;

		rule_add(p, "getpid", ALLOW);
		rule_add(p, "read", ALLOW);
		r = rule_add(p, "close", ERRNO(9));
		arg_add(p, r, 0, UJS_CMP_GT, 2, 0);
		if (!compile(p, "x86_64", &prog)) {
			ok(false, "x86_64 with [%s] compiles", listings[i]);
			ujs_policy_free(p);
			continue;
		}
		ok(sim(&prog, AUDIT_ARCH_X86_64, x32_getpid, zero_args) ==
		   (x32 ? SECCOMP_RET_ALLOW : SECCOMP_RET_KILL_PROCESS),
		   "[%s]: x32 getpid %s", listings[i], x32 ? "allowed" : "killed");
		ok(sim(&prog, AUDIT_ARCH_X86_64, UJS_X32_SYSCALL_BIT | 4000, zero_args) ==
		   (x32 ? (SECCOMP_RET_ERRNO | 1) : SECCOMP_RET_KILL_PROCESS),
		   "[%s]: unknown x32 number %s", listings[i],
		   x32 ? "gets the default" : "killed");
		ok(sim(&prog, AUDIT_ARCH_I386, nr_of("i386", "getpid"), zero_args) ==
		   (i386 ? SECCOMP_RET_ALLOW : SECCOMP_RET_KILL_PROCESS),
		   "[%s]: i386 getpid %s", listings[i], i386 ? "allowed" : "killed");
		ok(sim(&prog, AUDIT_ARCH_AARCH64, 172, zero_args) == SECCOMP_RET_KILL_PROCESS &&
		   sim(&prog, 0, 39, zero_args) == SECCOMP_RET_KILL_PROCESS &&
		   sim(&prog, AUDIT_ARCH_X86_64 & ~__AUDIT_ARCH_LE, 39, zero_args) ==
		   SECCOMP_RET_KILL_PROCESS,
		   "[%s]: unknown architectures killed", listings[i]);
		check_range(p, "x86_64", &prog, AUDIT_ARCH_X86_64, 0, 1023, vec, 1,
			    listings[i][0] ? listings[i] : "x86_64 (none listed)");
		check_range(p, "x86_64", &prog, AUDIT_ARCH_X86_64,
			    UJS_X32_SYSCALL_BIT, UJS_X32_SYSCALL_BIT + 600, vec, 1,
			    "x32 numbers");
		check_range(p, "x86_64", &prog, AUDIT_ARCH_I386, 0, 500, vec, 1,
			    "i386 numbers");
		ujs_program_free(&prog);
		ujs_policy_free(p);
	}
}

static void test_arch_errors(void)
{
	struct ujs_policy *p = policy_new(ALLOW, "aarch64 arm");
	struct ujs_program prog;
	char err[512] = "";

	ok(ujs_compile(p, arch("x86_64"), &prog, err, sizeof(err)) == -1 &&
	   strstr(err, "test.json: the target architecture x86_64") &&
	   strstr(err, "not in \"architectures\""),
	   "a target the policy does not list is an error: %s", err);
	ok(ujs_compile(p, arch("x32"), &prog, err, sizeof(err)) == -1 &&
	   strstr(err, "x32 is not a target"),
	   "x32 as the target is an error: %s", err);
	ujs_policy_free(p);

	p = policy_new(ALLOW, "");
	arg_add(p, rule_add(p, "read", ALLOW), 6, UJS_CMP_EQ, 0, 0);
	ok(ujs_compile(p, arch("x86_64"), &prog, err, sizeof(err)) == -1 &&
	   strstr(err, "syscalls[0].names[0] read: argument index 6"),
	   "argument index 6 is an error: %s", err);
	ujs_policy_free(p);
}

/* The same small policy on every target, with its own numbers. */
static void test_targets(void)
{
	static const struct {
		const char *target, *archs, *compat;
		uint32_t foreign;	/* an audit arch it must kill */
	} cases[] = {
		{ "x86_64", "", NULL, AUDIT_ARCH_AARCH64 },
		{ "i386", "", NULL, AUDIT_ARCH_X86_64 },
		{ "aarch64", "", NULL, AUDIT_ARCH_ARM },
		{ "aarch64", "aarch64 arm", "arm", AUDIT_ARCH_X86_64 },
		{ "arm", "", NULL, AUDIT_ARCH_AARCH64 },
		{ "mips", "", NULL, AUDIT_ARCH_MIPSEL },
		{ "mipsel", "", NULL, AUDIT_ARCH_MIPS },
	};
	uint64_t vecs[5][6] = {
		{ 0 }, { 1000 }, { 1000 | (1ULL << 32) }, { 3 }, { 1001, 1000 },
	};
	size_t i;

	for (i = 0; i < LEN(cases); i++) {
		struct ujs_policy *p = policy_new(ERRNO(1), cases[i].archs);
		const struct ujs_arch *t = arch(cases[i].target);
		struct ujs_program prog;
		uint32_t base = !strncmp(t->name, "mips", 4) ? 4000 : 0;
		char what[96];
		size_t r;

		rule_add(p, "getpid", ALLOW);
		r = rule_add(p, "close", ERRNO(9));
		arg_add(p, r, 0, UJS_CMP_EQ, 1000, 0);
		rule_add(p, "close", ALLOW);
		rule_add(p, "exit_group", ALLOW);
		if (!compile(p, cases[i].target, &prog)) {
			ok(false, "%s compiles", cases[i].target);
			ujs_policy_free(p);
			continue;
		}
		ok(prog.audit_arch == t->audit_arch,
		   "%s: program records its audit arch", t->name);
		/* A 32-bit ABI's close(1000 + 2^32) reaches the filter as close(1000). */
		if (narrow_abi(t->audit_arch))
			ok(sim(&prog, t->audit_arch, nr_of(t->name, "close"), vecs[1]) ==
			   (SECCOMP_RET_ERRNO | 9) &&
			   sim(&prog, t->audit_arch, nr_of(t->name, "close"), vecs[4]) ==
			   SECCOMP_RET_ALLOW,
			   "%s: close(1000) denied, close(1001) allowed", t->name);
		else
			ok(sim(&prog, t->audit_arch, nr_of(t->name, "close"), vecs[1]) ==
			   (SECCOMP_RET_ERRNO | 9) &&
			   sim(&prog, t->audit_arch, nr_of(t->name, "close"), vecs[2]) ==
			   SECCOMP_RET_ALLOW,
			   "%s: close(1000) denied, close(1000 + 2^32) allowed", t->name);
		ok(sim(&prog, cases[i].foreign, nr_of(t->name, "getpid"), zero_args) ==
		   SECCOMP_RET_KILL_PROCESS, "%s: foreign arch killed", t->name);
		snprintf(what, sizeof(what), "%s [%s]", t->name, cases[i].archs);
		check_range(p, cases[i].target, &prog, t->audit_arch, base,
			    base + 1023, (const uint64_t (*)[6])vecs, LEN(vecs), what);
		if (cases[i].compat) {
			const struct ujs_arch *c = arch(cases[i].compat);

			snprintf(what, sizeof(what), "%s compat %s", t->name, c->name);
			check_range(p, cases[i].target, &prog, c->audit_arch, 0,
				    1023, (const uint64_t (*)[6])vecs, LEN(vecs), what);
		}
		ujs_program_free(&prog);
		ujs_policy_free(p);
	}
}

/* Every x86_64 syscall allowed by number. */
static void test_all_allowed(void)
{
	const struct ujs_arch *x86 = arch("x86_64");
	struct ujs_policy *p = policy_new(ERRNO(1), "");
	const uint64_t vec[1][6] = { { 0 } };
	struct ujs_program prog;
	char err[256] = "";
	size_t i;

	for (i = 0; i < x86->n_calls; i++)
		rule_add(p, ujs_name_at(x86->calls[i].name_off), ALLOW);
	if (compile(p, "x86_64", &prog)) {
		ok(!ujs_bpf_validate(prog.insns, prog.len, err, sizeof(err)),
		   "all %zu x86_64 syscalls: valid, %zu instructions %s",
		   x86->n_calls, prog.len, err);
		check_range(p, "x86_64", &prog, AUDIT_ARCH_X86_64, 0, 1023, vec, 1,
			    "all x86_64 syscalls allowed");
		ok(sim(&prog, AUDIT_ARCH_X86_64, UINT32_MAX, zero_args) ==
		   SECCOMP_RET_KILL_PROCESS &&
		   sim(&prog, AUDIT_ARCH_X86_64, UJS_X32_SYSCALL_BIT - 1, zero_args) ==
		   (SECCOMP_RET_ERRNO | 1),
		   "all allowed: -1 (x32 bit) killed, 0x3fffffff default");
		ujs_program_free(&prog);
	}
	ujs_policy_free(p);
}

static size_t count_jas(const struct ujs_program *prog, uint32_t *longest)
{
	size_t i, n = 0;

	*longest = 0;
	for (i = 0; i < prog->len; i++) {
		if (prog->insns[i].code != (BPF_JMP | BPF_JA))
			continue;
		n++;
		if (prog->insns[i].k > *longest)
			*longest = prog->insns[i].k;
	}
	return n;
}

/*
 * 300 syscalls, every other one with argument rules, on x86_64, x32 and
 * i386 at once: three big sections, jumps far beyond 255.
 */
static void test_big_mixed(void)
{
	const struct ujs_arch *x86 = arch("x86_64");
	struct ujs_policy *p = policy_new(act(UJS_ACT_ERRNO, 38),
					  "x86_64 x32 i386");
	uint64_t vecs[6][6] = {
		{ 0 }, { 7 }, { 7 | (1ULL << 32) }, { 8, 0x100000001ULL },
		{ 7, 0x100000000ULL }, { 0, UINT64_MAX },
	};
	struct ujs_program prog;
	char err[256] = "";
	uint32_t longest;
	size_t i, r, jas;

	for (i = 0; i < 300 && i < x86->n_calls; i++) {
		const char *name = ujs_name_at(x86->calls[i].name_off);

		if (i % 2) {
			rule_add(p, name, i % 3 ? ALLOW : act(UJS_ACT_LOG, 0));
			continue;
		}
		r = rule_add(p, name, ERRNO((uint16_t)(i + 1)));
		arg_add(p, r, 0, UJS_CMP_EQ, 7, 0);
		/* -16: a value with a 32-bit form, for the i386 section. */
		r = rule_add(p, name, act(UJS_ACT_LOG_ERRNO, (uint16_t)(i + 1)));
		arg_add(p, r, 1, UJS_CMP_GT, 0xfffffffffffffff0ULL, 0);
		if (i % 4 == 0)
			rule_add(p, name, ALLOW);
	}
	if (!compile(p, "x86_64", &prog)) {
		ok(false, "300 syscalls on three arches compile");
		ujs_policy_free(p);
		return;
	}
	jas = count_jas(&prog, &longest);
	ok(!ujs_bpf_validate(prog.insns, prog.len, err, sizeof(err)) &&
	   prog.len > 3 * 256 && jas > 0 && longest > 255,
	   "300 syscalls x 3 arches: valid, %zu insns, %zu ja (longest %u) %s",
	   prog.len, jas, longest, err);
	check_range(p, "x86_64", &prog, AUDIT_ARCH_X86_64, 0, 1023,
		    (const uint64_t (*)[6])vecs, LEN(vecs), "big x86_64");
	check_range(p, "x86_64", &prog, AUDIT_ARCH_X86_64, UJS_X32_SYSCALL_BIT,
		    UJS_X32_SYSCALL_BIT + 1023, (const uint64_t (*)[6])vecs,
		    LEN(vecs), "big x32");
	check_range(p, "x86_64", &prog, AUDIT_ARCH_I386, 0, 1023,
		    (const uint64_t (*)[6])vecs, LEN(vecs), "big i386");
	ujs_program_free(&prog);
	ujs_policy_free(p);
}

/* One syscall with @n_rules argument rules of @n_cmps comparisons each. */
static struct ujs_policy *many_rules(size_t n_rules, size_t n_cmps, bool last_unconditional)
{
	struct ujs_policy *p = policy_new(ERRNO(1), "");
	size_t i, j, r;

	rule_add(p, "getpid", ALLOW);
	rule_add(p, "write", ALLOW);
	for (i = 0; i < n_rules; i++) {
		r = rule_add(p, "ioctl", i % 2 ? ALLOW : ERRNO((uint16_t)(i + 2)));
		arg_add(p, r, 1, UJS_CMP_EQ, 0x5400 + i, 0);
		for (j = 1; j < n_cmps; j++)
			arg_add(p, r, 2, UJS_CMP_NE, (uint64_t)j << 32, 0);
	}
	if (last_unconditional)
		rule_add(p, "ioctl", act(UJS_ACT_LOG, 0));
	rule_add(p, "read", ALLOW);
	return p;
}

static void test_many_rules(size_t n_rules, size_t n_cmps, bool last)
{
	struct ujs_policy *p = many_rules(n_rules, n_cmps, last);
	uint32_t ioctl = nr_of("x86_64", "ioctl");
	const uint64_t vec[1][6] = { { 0 } };
	struct ujs_program prog;
	unsigned int misses = 0;
	char what[64];
	size_t i, j;

	if (!compile(p, "x86_64", &prog)) {
		ok(false, "ioctl with %zu rules compiles", n_rules);
		ujs_policy_free(p);
		return;
	}
	for (i = 0; i < n_rules + 3; i++) {
		for (j = 0; j <= n_cmps; j++) {
			uint64_t args[6] = { 3, 0x5400 + i, (uint64_t)j << 32 };

			agrees(p, "x86_64", &prog, AUDIT_ARCH_X86_64, ioctl, args, &misses);
			args[1] |= 1ULL << 32;
			agrees(p, "x86_64", &prog, AUDIT_ARCH_X86_64, ioctl, args, &misses);
		}
	}
	ok(!misses && !ujs_bpf_validate(prog.insns, prog.len, NULL, 0),
	   "ioctl with %zu rules of %zu comparisons%s: %zu insns, every rule decides (%u misses)",
	   n_rules, n_cmps, last ? " + unconditional" : "", prog.len, misses);
	snprintf(what, sizeof(what), "ioctl with %zu rules, all numbers", n_rules);
	check_range(p, "x86_64", &prog, AUDIT_ARCH_X86_64, 0, 600, vec, 1, what);
	ujs_program_free(&prog);
	ujs_policy_free(p);
}

static void test_too_big(void)
{
	struct ujs_policy *p = many_rules(1200, 2, false);
	struct ujs_program prog;
	char err[512] = "";

	ok(ujs_compile(p, arch("x86_64"), &prog, err, sizeof(err)) == -1 &&
	   strstr(err, "test.json: the program needs") &&
	   strstr(err, "more than the kernel's limit of 4096"),
	   "a program over 4096 instructions is refused: %s", err);
	ujs_policy_free(p);
}

static void test_report(void)
{
	struct ujs_policy *p = policy_new(ERRNO(1), "");
	char *text = NULL;
	size_t size = 0, n;
	FILE *f = open_memstream(&text, &size);

	rule_add(p, "read", ALLOW);
	arg_add(p, rule_add(p, "openat", ERRNO(13)), 2, UJS_CMP_MASKED_EQ, 3, 1);
	rule_add(p, "openat", ALLOW);
	rule_add(p, "ptrace", act(UJS_ACT_LOG_ERRNO, 1));
	rule_add(p, "getpid", ALLOW);
	rule_add(p, "getpid", ERRNO(1));
	arg_add(p, rule_add(p, "no_such_syscall", ALLOW), 0, UJS_CMP_EQ, 1, 0);
	n = ujs_report_uncacheable(p, arch("x86_64"), f);
	fclose(f);
	ok(n == 3 && !strcmp(text,
		"syscalls[1].names[0] openat: argument check\n"
		"syscalls[2].names[0] openat: reached after argument checks\n"
		"syscalls[3].names[0] ptrace: action SCMP_ACT_LOG_ERRNO\n"),
	   "uncacheable rules reported (%zu)", n);
	if (n != 3)
		printf("# got:\n%s", text);
	free(text);
	ujs_policy_free(p);
}

/* Shows @text in the TAP output as comment lines. */
static void print_commented(const char *text)
{
	const char *line, *end;

	for (line = text; *line; line = end + 1) {
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		printf("# %.*s\n", (int)(end - line), line);
		if (!*end)
			break;
	}
}

static void test_dump_compiled(void)
{
	struct ujs_policy *p = policy_new(ERRNO(1), "x86_64 i386");
	struct ujs_program prog;
	char *text = NULL;
	size_t size = 0;
	FILE *f;

	rule_add(p, "getpid", ALLOW);
	arg_add(p, rule_add(p, "openat", ERRNO(13)), 2, UJS_CMP_GE, 1, 0);
	if (!compile(p, "x86_64", &prog)) {
		ok(false, "dump policy compiles");
		ujs_policy_free(p);
		return;
	}
	f = open_memstream(&text, &size);
	ujs_bpf_dump(prog.insns, prog.len, f);
	fclose(f);
	ok(strstr(text, "   0: ld  [arch]\n") &&
	   strstr(text, "   1: jeq #0xc000003e (x86_64) -> 3 else 2\n") &&
	   strstr(text, "   2: jeq #0x40000003 (i386) -> ") &&
	   strstr(text, "jeq #0x27 (getpid) -> ") &&
	   strstr(text, "jge #0x14 (getpid) -> ") &&
	   strstr(text, "ld  [args[2].hi]") && strstr(text, "ret ERRNO(13)\n") &&
	   strstr(text, "ret KILL_PROCESS\n"),
	   "dump of a compiled program names arches, syscalls and args");
	print_commented(text);
	ujs_program_free(&prog);
	free(text);
	ujs_policy_free(p);
}

/* ------------------------------------------------------------------ */
/* Random policies against the reference                               */

static uint64_t rng_state = 0x2545f4914f6cdd1dULL;

/* xorshift64: the same sequence on every run. */
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Mostly values at the edges, where wrong halves show. */
static uint64_t rnd_value(void)
{
	switch (rnd() % 4) {
	case 0:
		return rnd();
	case 1:
		return rnd() % 8;
	default:
		return edges[rnd() % LEN(edges)];
	}
}

static struct ujs_action rnd_action(void)
{
	return act((enum ujs_action_kind)(rnd() % (UJS_ACT_ALLOW + 1)),
		   (uint16_t)(rnd() % 200));
}

/* @v, or its low word sign-extended when a 32-bit section must take it. */
static uint64_t rnd_fit(uint64_t v, bool narrow)
{
	return !narrow || ujs_arg_fits32(v) ? v : (uint64_t)(int64_t)(int32_t)(uint32_t)v;
}

/* A random policy for @target, names from it and its compat arches. */
static struct ujs_policy *rnd_policy(const struct ujs_arch *target)
{
	const struct ujs_arch *compat[UJS_MAX_ARCHS], *from;
	struct ujs_policy *p = policy_new(rnd_action(), "");
	size_t n_compat = ujs_arch_compat(target, compat, UJS_MAX_ARCHS);
	size_t i, j, n_rules = 1 + rnd() % 80;
	bool narrow = narrow_abi(target->audit_arch);

	if (rnd() % 2) {
		p->archs[p->n_archs++] = target;
		for (i = 0; i < n_compat; i++)
			if (rnd() % 2)
				p->archs[p->n_archs++] = compat[i];
	}
	for (i = 0; i < p->n_archs; i++)
		narrow |= narrow_abi(p->archs[i]->audit_arch);
	for (i = 0; i < n_rules; i++) {
		size_t r, n_args = rnd() % 3 ? rnd() % 4 : 0;

		from = n_compat && rnd() % 3 == 0 ? compat[rnd() % n_compat] : target;
		r = rule_add(p, ujs_name_at(from->calls[rnd() % from->n_calls].name_off), rnd_action());
		for (j = 0; j < n_args; j++)
			arg_add(p, r, rnd() % 6, (enum ujs_cmp_op)(rnd() % 7),
				rnd_fit(rnd_value(), narrow),
				rnd() % 2 ? rnd_fit(rnd_value(), narrow) : 0);
	}
	return p;
}

/* Arguments that hit or miss the comparisons of the policy. */
static void rnd_args(const struct ujs_policy *p, uint64_t *args)
{
	size_t i;

	for (i = 0; i < 6; i++) {
		const struct ujs_rule *r = &p->rules[rnd() % p->n_rules];
		uint64_t v;

		if (!r->n_args || rnd() % 4 == 0) {
			args[i] = rnd_value();
			continue;
		}
		v = r->args[rnd() % r->n_args].value;
		switch (rnd() % 4) {
		case 0: args[i] = v; break;
		case 1: args[i] = v + (rnd() % 3) - 1; break;
		case 2: args[i] = v ^ (1ULL << 32); break;
		default: args[i] = v & rnd(); break;
		}
	}
}

/*
 * Allowed by number alone must be cached; and what is cached must be
 * allowed whatever the arguments (a rule whose comparisons always hold,
 * like (arg & 0) == 0, may make more than that constant).
 */
static bool cache_agrees(const struct ujs_policy *p, const struct ujs_arch *t,
			 const struct ujs_program *prog, uint32_t audit,
			 uint32_t nr, const uint64_t *args)
{
	bool cached = ujs_bpf_const_allow(prog->insns, prog->len, audit, nr);

	if (ref_allowed_by_number(p, t, audit, nr))
		return cached;
	return !cached ||
	       (ref_decide(p, t, audit, nr, args) == SECCOMP_RET_ALLOW &&
		ref_decide(p, t, audit, nr, zero_args) == SECCOMP_RET_ALLOW);
}

static void test_random(void)
{
	static const char *const targets[] = {
		"x86_64", "i386", "aarch64", "arm", "mips", "mipsel",
	};
	unsigned int misses = 0, cache_misses = 0, failed = 0, runs = 0;
	size_t round, v;

	for (round = 0; round < 120; round++) {
		const struct ujs_arch *t = arch(targets[round % LEN(targets)]);
		struct ujs_policy *p = rnd_policy(t);
		struct ujs_program prog;
		uint32_t audits[4] = { t->audit_arch, AUDIT_ARCH_I386, AUDIT_ARCH_ARM,
				       AUDIT_ARCH_X86_64 };

		if (!compile(p, t->name, &prog)) {
			failed++;
			ujs_policy_free(p);
			continue;
		}
		for (v = 0; v < 400; v++) {
			uint32_t audit = audits[rnd() % 4 ? 0 : rnd() % 4];
			const struct ujs_rule *r = &p->rules[rnd() % p->n_rules];
			const struct ujs_arch *a = ref_arch(p, t, audit, 0);
			int64_t nr = a ? ujs_syscall_nr(a, r->name) : -1;
			uint64_t args[6];

			if (nr < 0 || rnd() % 8 == 0)
				nr = (uint32_t)rnd_value();
			if (audit == AUDIT_ARCH_X86_64 && rnd() % 8 == 0)
				nr |= UJS_X32_SYSCALL_BIT;
			rnd_args(p, args);
			agrees(p, t->name, &prog, audit, (uint32_t)nr, args, &misses);
			if (!cache_agrees(p, t, &prog, audit, (uint32_t)nr, args) &&
			    cache_misses++ < 5)
				printf("# %s arch 0x%x nr 0x%x: const_allow is wrong\n",
				       t->name, audit, (uint32_t)nr);
			runs++;
		}
		ujs_program_free(&prog);
		ujs_policy_free(p);
	}
	ok(!failed && !misses,
	   "120 random policies, %u vectors decide as the reference (%u misses, %u failed to compile)",
	   runs, misses, failed);
	ok(!cache_misses,
	   "random policies: allowed by number is cached, cached is allowed (%u misses)",
	   cache_misses);
}

/* ------------------------------------------------------------------ */
/* The host kernel                                                     */

enum kernel_check {
	K_GETPPID = 1, K_UMASK = 2, K_DEFAULT = 4, K_ARG_ALLOWED = 8,
	K_ARG_DENIED = 16, K_ARG_HI = 32, K_LOAD = 64,
};

static void kernel_child(const struct ujs_program *prog, pid_t parent)
{
	struct sock_fprog fprog = { .len = (unsigned short)prog->len,
				    .filter = prog->insns };
	int bad = 0;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog))
		_exit(K_LOAD);
	/* Only raw system calls from here: the filter denies most. */
	if (syscall(SYS_getppid) != parent)
		bad |= K_GETPPID;
	if (syscall(SYS_umask, 022) != -1 || errno != EACCES)
		bad |= K_UMASK;
	if (syscall(SYS_getuid) != -1 || errno != EPERM)
		bad |= K_DEFAULT;
	if (syscall(SYS_getpriority, PRIO_PROCESS, 0) < 0)
		bad |= K_ARG_ALLOWED;
	if (syscall(SYS_getpriority, PRIO_PROCESS, 0x100000000ULL) != -1 ||
	    errno != 66)
		bad |= K_ARG_DENIED;
	if (syscall(SYS_getpriority, PRIO_PROCESS, 0x200000000ULL) < 0)
		bad |= K_ARG_HI;
	_exit(bad);
}

static int run_child(const struct ujs_program *prog, bool x32_call)
{
	pid_t parent = getpid(), pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (x32_call) {
			struct sock_fprog fprog = { .len = (unsigned short)prog->len,
						    .filter = prog->insns };

			if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
			    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog))
				_exit(K_LOAD);
			syscall(UJS_X32_SYSCALL_BIT | SYS_getppid);
			_exit(0);
		}
		kernel_child(prog, parent);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

static void test_kernel(void)
{
	struct ujs_policy *p = policy_new(ERRNO(EPERM), "");
	struct ujs_program prog;
	size_t r;
	int st;

	rule_add(p, "exit_group", ALLOW);
	rule_add(p, "exit", ALLOW);
	rule_add(p, "write", ALLOW);
	rule_add(p, "getppid", ALLOW);
	/* ASan's __asan_handle_no_return() before _exit() asks for it. */
	rule_add(p, "sigaltstack", ALLOW);
	rule_add(p, "umask", ERRNO(EACCES));
	r = rule_add(p, "getpriority", ERRNO(66));
	arg_add(p, r, 1, UJS_CMP_EQ, 0x100000000ULL, 0);
	rule_add(p, "getpriority", ALLOW);
	if (!compile(p, NULL, &prog)) {
		ok(false, "kernel policy compiles");
		ujs_policy_free(p);
		return;
	}
	st = run_child(&prog, false);
	ok(WIFEXITED(st) && !(WEXITSTATUS(st) & K_LOAD),
	   "host kernel loads the program (status 0x%x)", st);
	if (WIFEXITED(st) && !(WEXITSTATUS(st) & K_LOAD)) {
		st = WEXITSTATUS(st);
		ok(!(st & K_GETPPID), "kernel: getppid allowed");
		ok(!(st & K_UMASK), "kernel: umask gets its errno EACCES");
		ok(!(st & K_DEFAULT), "kernel: getuid gets the default EPERM");
		ok(!(st & K_ARG_ALLOWED), "kernel: getpriority(0, 0) allowed");
		ok(!(st & K_ARG_DENIED), "kernel: getpriority(0, 2^32) gets errno 66");
		ok(!(st & K_ARG_HI), "kernel: getpriority(0, 2^33) allowed");
	}
	if (!strcmp(ujs_arch_native()->name, "x86_64")) {
		st = run_child(&prog, true);
		ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS,
		   "kernel: an x32 call is killed with SIGSYS (status 0x%x)", st);
	}
	ujs_program_free(&prog);
	ujs_policy_free(p);
}

int main(void)
{
	static const char *const targets[] = {
		"x86_64", "i386", "aarch64", "arm", "mips", "mipsel",
	};
	size_t i;

	test_actions();
	for (i = 0; i < LEN(targets); i++)
		test_ops(targets[i]);
	test_arg32();
	test_and();
	test_x86_arches();
	test_arch_errors();
	test_targets();
	test_all_allowed();
	test_big_mixed();
	test_many_rules(120, 1, false);
	test_many_rules(150, 3, true);
	test_many_rules(450, 2, false);
	test_too_big();
	test_random();
	test_report();
	test_dump_compiled();
	if (!tap_skip_kernel("host kernel loads the program"))
		test_kernel();
	return tap_done();
}
