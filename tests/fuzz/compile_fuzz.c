/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz target: a policy that parses is compiled for every target, the
 * program must pass the kernel's checks, and its decisions on (arch,
 * syscall, args) vectors drawn from the policy and the input must be the
 * reference evaluator's (tests/unit/reference.c), as must the kernel's
 * constant-action cache. Any disagreement aborts with the vector.
 */
#include <linux/audit.h>
#include <string.h>

#include "bpf.h"
#include "compile.h"
#include "fuzz.h"
#include "reference.h"

#define MAX_RULES 64	/* rules whose numbers and values make vectors */
#define RANDOM_VECTORS 64

static const char *const targets[] = {
	"x86_64", "i386", "aarch64", "arm", "mips", "mipsel",
};

/* The calling ABIs a filter of @t may see; the last is nobody's compat. */
static const uint32_t audits[] = {
	AUDIT_ARCH_X86_64, AUDIT_ARCH_I386, AUDIT_ARCH_AARCH64, AUDIT_ARCH_ARM,
	AUDIT_ARCH_MIPS, AUDIT_ARCH_MIPSEL, AUDIT_ARCH_PPC64LE,
};

struct fuzz_case {
	const struct ujs_policy *p;
	const struct ujs_arch *target;
	const struct ujs_program *prog;
	uint64_t rng;
};

static void fail(const struct fuzz_case *c, const char *what, uint32_t audit,
		 uint32_t nr, const uint64_t *args, uint32_t got, uint32_t want)
{
	fprintf(stderr, "compile_fuzz: %s: target %s arch 0x%x nr 0x%x args"
		" %#llx %#llx %#llx %#llx %#llx %#llx: got 0x%x want 0x%x\n",
		what, c->target->name, audit, nr,
		(unsigned long long)args[0], (unsigned long long)args[1],
		(unsigned long long)args[2], (unsigned long long)args[3],
		(unsigned long long)args[4], (unsigned long long)args[5], got, want);
	ujs_bpf_dump(c->prog->insns, c->prog->len, stderr);
	abort();
}

/* One vector: the program's decision, then the cache's, against the reference. */
static void check(const struct fuzz_case *c, uint32_t audit, uint32_t nr,
		  const uint64_t *vector)
{
	static const uint64_t zero[6];
	uint64_t args[6];
	struct seccomp_data d;
	uint32_t got, want;
	bool cached;
	char err[256];

	/* A 32-bit ABI's arguments reach the filter zero-extended. */
	for (size_t i = 0; i < 6; i++)
		args[i] = narrow_abi(audit) ? (uint32_t)vector[i] : vector[i];
	d = ref_seccomp_data(audit, nr, args);
	if (ujs_bpf_run(c->prog->insns, c->prog->len, &d, &got, err, sizeof(err))) {
		fprintf(stderr, "compile_fuzz: run: %s\n", err);
		fail(c, "the program does not run", audit, nr, args, 0, 0);
	}
	want = ref_decide(c->p, c->target, audit, nr, args);
	if (got != want)
		fail(c, "decision", audit, nr, args, got, want);

	/* Allowed by number is cached; what is cached is allowed whatever the args. */
	cached = ujs_bpf_const_allow(c->prog->insns, c->prog->len, audit, nr);
	if (ref_allowed_by_number(c->p, c->target, audit, nr) && !cached)
		fail(c, "allowed by number, not cached", audit, nr, args, 0, 1);
	if (cached && (want != SECCOMP_RET_ALLOW ||
		       ref_decide(c->p, c->target, audit, nr, zero) != SECCOMP_RET_ALLOW))
		fail(c, "cached, not allowed", audit, nr, args, 1, want);
}

/* Near a compared value: where a wrong word, sign or bound shows. */
static uint64_t near(struct fuzz_case *c, uint64_t v)
{
	switch (fuzz_rnd(&c->rng) % 6) {
	case 0: return v;
	case 1: return v + 1;
	case 2: return v - 1;
	case 3: return v ^ (1ULL << 32);
	case 4: return v ^ 0xffffffff00000000ULL;
	default: return v & fuzz_rnd(&c->rng);
	}
}

/* Arguments from @r's comparisons (its values and masks), the rest random. */
static void rule_args(struct fuzz_case *c, const struct ujs_rule *r, uint64_t *args)
{
	for (size_t i = 0; i < 6; i++)
		args[i] = fuzz_rnd(&c->rng) % 4 ? 0 : fuzz_rnd(&c->rng);
	for (size_t j = 0; r && j < r->n_args; j++) {
		const struct ujs_arg_cmp *cmp = &r->args[j];

		if (cmp->index >= 6)
			abort();	/* the parser lets no such index through */
		args[cmp->index] = cmp->op == UJS_CMP_MASKED_EQ && fuzz_rnd(&c->rng) % 2 ?
				   near(c, cmp->value_two) : near(c, cmp->value);
	}
}

/* @r's number for @audit, or a number near one the policy names. */
static uint32_t rule_nr(struct fuzz_case *c, const struct ujs_rule *r, uint32_t audit)
{
	const struct ujs_arch *a = ref_arch(c->p, c->target, audit, 0);
	int64_t nr = a && r ? ujs_syscall_nr(a, r->name) : -1;

	if (nr < 0)
		nr = fuzz_rnd(&c->rng) % 512;
	switch (fuzz_rnd(&c->rng) % 8) {
	case 0: nr += 1; break;
	case 1: nr ^= UJS_X32_SYSCALL_BIT; break;
	case 2: nr = (uint32_t)fuzz_rnd(&c->rng); break;
	default: break;
	}
	return (uint32_t)nr;
}

static uint32_t pick_audit(struct fuzz_case *c)
{
	uint64_t r = fuzz_rnd(&c->rng);

	return r % 2 ? c->target->audit_arch : audits[(r >> 1) % 7];
}

static void check_program(struct fuzz_case *c)
{
	const struct ujs_policy *p = c->p;
	size_t n = p->n_rules < MAX_RULES ? p->n_rules : MAX_RULES;
	uint64_t args[6];
	uint32_t audit;

	/* Every rule, under its target's ABI and another one. */
	for (size_t i = 0; i < n; i++) {
		const struct ujs_rule *r = &p->rules[i * p->n_rules / n];

		rule_args(c, r, args);
		check(c, c->target->audit_arch, rule_nr(c, r, c->target->audit_arch), args);
		audit = pick_audit(c);
		rule_args(c, r, args);
		check(c, audit, rule_nr(c, r, audit), args);
	}
	for (size_t i = 0; i < RANDOM_VECTORS; i++) {
		const struct ujs_rule *r = p->n_rules && fuzz_rnd(&c->rng) % 4 ?
					   &p->rules[fuzz_rnd(&c->rng) % p->n_rules] : NULL;

		audit = pick_audit(c);
		rule_args(c, r, args);
		check(c, audit, rule_nr(c, r, audit), args);
	}
}

static void compile_for(const uint8_t *data, size_t size, const char *target)
{
	uint64_t caps = ~0ULL;
	struct ujs_parse_opts opts = {
		.target = ujs_arch_by_name(target), .caps = &caps, .kernel = "6.12.48",
	};
	struct ujs_policy *p = NULL;
	struct ujs_program prog;
	struct fuzz_case c;
	char err[512];

	if (!opts.target)
		abort();
	if (ujs_policy_parse((const char *)data, size, "fuzz.json", &opts, &p, err, sizeof(err)))
		return;
	/* Too big or a value a 32-bit ABI cannot compare: refused, not wrong. */
	if (ujs_compile(p, opts.target, &prog, err, sizeof(err))) {
		ujs_policy_free(p);
		return;
	}
	c = (struct fuzz_case){ .p = p, .target = opts.target, .prog = &prog,
				.rng = fuzz_hash(data, size) | 1 };
	if (ujs_bpf_validate(prog.insns, prog.len, err, sizeof(err))) {
		fprintf(stderr, "compile_fuzz: %s: the kernel would refuse it: %s\n", target, err);
		ujs_bpf_dump(prog.insns, prog.len, stderr);
		abort();
	}
	if (prog.audit_arch != opts.target->audit_arch)
		abort();
	check_program(&c);
	ujs_report_uncacheable(p, opts.target, fuzz_sink());
	ujs_program_free(&prog);
	ujs_policy_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++)
		compile_for(data, size, targets[i]);
	return 0;
}
