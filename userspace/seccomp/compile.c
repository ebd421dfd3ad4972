/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Policy -> classic BPF seccomp program.
 *
 * Code is generated into the IR of compile_ir.h, in this order: the
 * architecture dispatch; per architecture section a balanced search tree
 * over the syscall numbers (only instructions the kernel's
 * seccomp_is_const_allow() emulates, so syscalls allowed by number alone
 * get cached); the argument check blocks, one per distinct list of rules
 * (x86_64, x32 and i386 numbers of a syscall share theirs); one RET node
 * per distinct action. Everything jumps forward; compile_ir.c lays it out.
 */
#include <linux/audit.h>
#include <stdlib.h>
#include <string.h>

#include "bpf.h"
#include "compile.h"
#include "compile_ir.h"
#include "errmsg.h"

#define N_SYSCALL_ARGS	6

/*
 * The argument checks of one syscall: its rules in file order. Syscalls
 * with the same rules share one block (x86_64 and x32 numbers of a name,
 * i386 and x86_64 ones), when the argument words lie the same way.
 */
struct check_block {
	size_t *rules;		/* indexes into the policy's rules */
	size_t n_rules;
	struct ujs_arg_layout layout;
	const struct ujs_arch *arch;	/* the first section that uses it */
	int label;
};

/* The code being generated for one policy. */
struct gen {
	const struct ujs_policy *p;
	struct ujs_ir ir;
	struct check_block *blocks;
	size_t n_blocks, cap_blocks;
};

static void gen_free(struct gen *g)
{
	size_t i;

	for (i = 0; i < g->n_blocks; i++)
		free(g->blocks[i].rules);
	free(g->blocks);
	ujs_ir_free(&g->ir);
}

/* The label of the RET of @a. */
static int action_label(struct ujs_ir *ir, struct ujs_action a)
{
	return ujs_ir_ret_label(ir, ujs_action_ret(a));
}

/* ------------------------------------------------------------------ */
/* Check blocks: the argument checks of one syscall                    */

/* The rules of one syscall in file order; first whose checks hold wins. */
static void emit_check_block(struct gen *g, const struct check_block *b)
{
	int deflt = action_label(&g->ir, g->p->default_action);
	int entry = b->label;
	size_t i;

	for (i = 0; i < b->n_rules; i++) {
		const struct ujs_rule *r = &g->p->rules[b->rules[i]];
		int action = action_label(&g->ir, r->action);
		int next;

		if (r->n_args == 0) {
			/* Unconditional: the rules after it are unreachable. */
			ujs_ir_alias(&g->ir, entry, action);
			return;
		}
		next = ujs_ir_new_label(&g->ir);
		ujs_ir_bind(&g->ir, entry);
		ujs_emit_rule_checks(&g->ir, r, b->layout, action, next);
		entry = next;
	}
	ujs_ir_alias(&g->ir, entry, deflt);
}

/* ------------------------------------------------------------------ */
/* Sections: one per architecture the filter answers for               */

struct section {
	uint32_t audit_arch;
	const struct ujs_arch *arch;	/* numbers come from here */
	const struct ujs_arch *x32;	/* x86_64 with x32 listed: these too */
	bool kill_x32;			/* x86_64 without x32: kill the bit */
	struct ujs_arg_layout layout;
	int label;
};

/* A rule that applies to syscall @nr of the section. */
struct nr_rule {
	uint32_t nr;
	size_t rule;
};

/* A run of the number line deciding the same way. */
struct interval {
	uint32_t start;
	int label;
};

struct section_code {
	struct nr_rule *rules;		/* by number, then file order */
	size_t n_rules;
	struct interval *iv;
	size_t n_iv;
};

static int cmp_nr_rule(const void *a, const void *b)
{
	const struct nr_rule *x = a, *y = b;

	if (x->nr != y->nr)
		return x->nr < y->nr ? -1 : 1;
	return x->rule < y->rule ? -1 : x->rule > y->rule;
}

static bool add_nr_rule(struct section_code *sc, size_t *cap, int64_t nr,
			size_t rule)
{
	if (nr < 0)
		return true;	/* not on this architecture */
	if (!ujs_grow_array((void **)&sc->rules, cap, sc->n_rules + 1,
			    sizeof(*sc->rules)))
		return false;
	sc->rules[sc->n_rules++] = (struct nr_rule){ (uint32_t)nr, rule };
	return true;
}

static bool collect_rules(const struct ujs_policy *p, const struct section *sec,
			  struct section_code *sc)
{
	size_t cap = 0, i;

	for (i = 0; i < p->n_rules; i++) {
		const char *name = p->rules[i].name;

		if (!add_nr_rule(sc, &cap, ujs_syscall_nr(sec->arch, name), i))
			return false;
		if (sec->x32 &&
		    !add_nr_rule(sc, &cap, ujs_syscall_nr(sec->x32, name), i))
			return false;
	}
	if (sc->n_rules)
		qsort(sc->rules, sc->n_rules, sizeof(*sc->rules), cmp_nr_rule);
	return true;
}

/* Appends [@start, ...) -> @label, merging with equal neighbours. */
static void push_interval(struct section_code *sc, uint32_t start, int label)
{
	if (sc->n_iv && sc->iv[sc->n_iv - 1].start == start)
		sc->n_iv--;
	if (sc->n_iv && sc->iv[sc->n_iv - 1].label == label)
		return;
	sc->iv[sc->n_iv++] = (struct interval){ start, label };
}

/* Number of rules from @i on that belong to the same syscall number. */
static size_t group_len(const struct section_code *sc, size_t i)
{
	size_t j = i;

	while (j < sc->n_rules && sc->rules[j].nr == sc->rules[i].nr)
		j++;
	return j - i;
}

static bool same_rules(const struct check_block *b, const struct nr_rule *group,
		       size_t n, struct ujs_arg_layout layout)
{
	size_t i;

	if (b->layout.little != layout.little || b->layout.narrow != layout.narrow ||
	    b->n_rules != n)
		return false;
	for (i = 0; i < n; i++)
		if (b->rules[i] != group[i].rule)
			return false;
	return true;
}

/* A new check block for @group; false when out of memory. */
static bool new_block(struct gen *g, const struct section *sec,
		      const struct nr_rule *group, size_t n)
{
	struct check_block *b;
	size_t i;

	if (!ujs_grow_array((void **)&g->blocks, &g->cap_blocks,
			    g->n_blocks + 1, sizeof(*g->blocks)))
		return false;
	b = &g->blocks[g->n_blocks];
	b->rules = calloc(n, sizeof(*b->rules));
	if (!b->rules)
		return false;
	for (i = 0; i < n; i++)
		b->rules[i] = group[i].rule;
	b->n_rules = n;
	b->layout = sec->layout;
	b->arch = sec->arch;
	b->label = ujs_ir_new_label(&g->ir);
	g->n_blocks++;
	return true;
}

/* The label of the check block for @group, shared when one exists. */
static int block_label(struct gen *g, const struct section *sec,
		       const struct nr_rule *group, size_t n)
{
	size_t i;

	for (i = 0; i < g->n_blocks; i++)
		if (same_rules(&g->blocks[i], group, n, sec->layout))
			return g->blocks[i].label;
	if (!new_block(g, sec, group, n)) {
		g->ir.oom = true;
		return UJS_NO_LABEL;
	}
	return g->blocks[g->n_blocks - 1].label;
}

/*
 * Where the tree sends a syscall: straight to the RET of its first rule
 * when that rule has no argument checks, else to its check block.
 */
static int group_target(struct gen *g, const struct section *sec,
			const struct nr_rule *group, size_t n)
{
	const struct ujs_rule *r = &g->p->rules[group->rule];

	if (r->n_args == 0)
		return action_label(&g->ir, r->action);
	return block_label(g, sec, group, n);
}

/* The number line of the section as intervals of equal decisions. */
static bool build_intervals(struct gen *g, const struct section *sec,
			    struct section_code *sc)
{
	int deflt = action_label(&g->ir, g->p->default_action);
	size_t i;

	sc->iv = calloc(2 * sc->n_rules + 3, sizeof(*sc->iv));
	if (!sc->iv)
		return false;
	push_interval(sc, 0, deflt);
	for (i = 0; i < sc->n_rules; i += group_len(sc, i)) {
		uint32_t nr = sc->rules[i].nr;

		if (sec->kill_x32 && nr >= UJS_X32_SYSCALL_BIT)
			continue;
		push_interval(sc, nr, group_target(g, sec, &sc->rules[i],
						   group_len(sc, i)));
		if (nr != UINT32_MAX)
			push_interval(sc, nr + 1, deflt);
	}
	if (sec->kill_x32)
		push_interval(sc, UJS_X32_SYSCALL_BIT,
			      ujs_ir_ret_label(&g->ir, SECCOMP_RET_KILL_PROCESS));
	return true;
}

/*
 * Emits the search over intervals @lo..@hi (at least two) at @label:
 * `jge` splits in the middle; a lone number between two runs of the same
 * decision is one `jeq`. Left half first, so its jump is short. Only
 * instructions seccomp_is_const_allow() emulates.
 */
static void emit_tree(struct ujs_ir *ir, const struct interval *iv, size_t lo,
		      size_t hi, int label)
{
	size_t mid = (lo + hi + 1) / 2;
	int left, right;

	ujs_ir_bind(ir, label);
	if (hi - lo == 2 && iv[lo].label == iv[hi].label &&
	    iv[hi].start - iv[lo + 1].start == 1) {
		ujs_ir_jump(ir, BPF_JEQ, iv[lo + 1].start, iv[lo + 1].label,
			    iv[lo].label);
		return;
	}
	left = mid - 1 == lo ? iv[lo].label : ujs_ir_new_label(ir);
	right = mid == hi ? iv[hi].label : ujs_ir_new_label(ir);
	ujs_ir_jump(ir, BPF_JGE, iv[mid].start, right, left);
	if (mid - 1 > lo)
		emit_tree(ir, iv, lo, mid - 1, left);
	if (hi > mid)
		emit_tree(ir, iv, mid, hi, right);
}

static void section_code_free(struct section_code *sc)
{
	free(sc->rules);
	free(sc->iv);
}

/* `ld [nr]` and the tree; the check blocks come after all sections. */
static bool emit_section(struct gen *g, const struct section *sec)
{
	struct section_code sc = { 0 };
	bool ok = collect_rules(g->p, sec, &sc) && build_intervals(g, sec, &sc);

	if (ok && sc.n_iv == 1) {
		/* One decision for every number: no need to look. */
		ujs_ir_alias(&g->ir, sec->label, sc.iv[0].label);
	} else if (ok) {
		ujs_ir_bind(&g->ir, sec->label);
		ujs_ir_load(&g->ir, UJS_SD_NR);
		emit_tree(&g->ir, sc.iv, 0, sc.n_iv - 1, ujs_ir_new_label(&g->ir));
	}
	section_code_free(&sc);
	return ok;
}

bool ujs_policy_lists(const struct ujs_policy *p, const struct ujs_arch *a)
{
	size_t i;

	for (i = 0; i < p->n_archs; i++)
		if (p->archs[i] == a || !strcmp(p->archs[i]->name, a->name))
			return true;
	return false;
}

static struct section make_section(const struct ujs_arch *arch)
{
	return (struct section){
		.audit_arch = arch->audit_arch,
		.arch = arch,
		.layout = {
			.little = (arch->audit_arch & __AUDIT_ARCH_LE) != 0,
			.narrow = (arch->audit_arch & __AUDIT_ARCH_64BIT) == 0,
		},
		.label = UJS_NO_LABEL,
	};
}

static const char *policy_file(const struct ujs_policy *p)
{
	return p->file ? p->file : "policy";
}

/* The target must be one the policy can be compiled for. */
static int check_target(const struct ujs_policy *p, const struct ujs_arch *target,
			char *err, size_t errlen)
{
	if (!strcmp(target->name, "x32"))
		return ujs_fail(err, errlen,
				"%s: x32 is not a target architecture: compile for x86_64 with SCMP_ARCH_X32 listed",
				policy_file(p));
	if (p->n_archs && !ujs_policy_lists(p, target))
		return ujs_fail(err, errlen,
				"%s: the target architecture %s (%s) is not in \"architectures\"",
				policy_file(p), target->name, target->oci_name);
	return 0;
}

/*
 * The sections for @target: itself first, then the compat architectures
 * the policy lists. x32 has no section of its own: it is x86_64 with the
 * number bit, handled in the x86_64 section.
 */
static size_t plan_sections(const struct ujs_policy *p,
			    const struct ujs_arch *target, struct section *secs)
{
	const struct ujs_arch *compat[UJS_MAX_ARCHS];
	size_t n_compat, i, n = 0;
	bool x86_64 = !strcmp(target->name, "x86_64");

	secs[n++] = make_section(target);
	secs[0].kill_x32 = x86_64;
	n_compat = ujs_arch_compat(target, compat, UJS_MAX_ARCHS);
	for (i = 0; i < n_compat; i++) {
		if (!compat[i] || !ujs_policy_lists(p, compat[i]))
			continue;
		if (x86_64 && compat[i]->audit_arch == target->audit_arch) {
			secs[0].x32 = compat[i];
			secs[0].kill_x32 = false;
			continue;
		}
		secs[n++] = make_section(compat[i]);
	}
	return n;
}

/* `ld [arch]` and one `jeq` per section; anything else is killed. */
static void emit_dispatch(struct ujs_ir *ir, struct section *secs, size_t n)
{
	int kill = ujs_ir_ret_label(ir, SECCOMP_RET_KILL_PROCESS);
	size_t i;

	ujs_ir_load(ir, UJS_SD_ARCH);
	for (i = 0; i < n; i++) {
		int next = i + 1 == n ? kill : ujs_ir_new_label(ir);

		secs[i].label = ujs_ir_new_label(ir);
		ujs_ir_jump(ir, BPF_JEQ, secs[i].audit_arch, secs[i].label, next);
		if (i + 1 < n)
			ujs_ir_bind(ir, next);
	}
}

/* What the parser guarantees, checked again for hand-built policies. */
static int check_rule(const struct ujs_policy *p, const struct ujs_rule *r,
		      char *err, size_t errlen)
{
	const char *where = r->where ? r->where : "rule";
	size_t j;

	for (j = 0; j < r->n_args; j++) {
		const struct ujs_arg_cmp *c = &r->args[j];

		if (c->index >= N_SYSCALL_ARGS)
			return ujs_fail(err, errlen,
					"%s: %s %s: argument index %u is out of range (0..5)",
					policy_file(p), where, r->name, c->index);
		if ((unsigned int)c->op > UJS_CMP_MASKED_EQ)
			return ujs_fail(err, errlen,
					"%s: %s %s: unknown comparison %d",
					policy_file(p), where, r->name, (int)c->op);
	}
	return 0;
}

static int check_rules(const struct ujs_policy *p, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < p->n_rules; i++)
		if (check_rule(p, &p->rules[i], err, errlen))
			return -1;
	return 0;
}

/*
 * A 32-bit ABI's check block compares low words only: each value must
 * have a 32-bit form, as libseccomp requires too.
 */
static int check_block_values(const struct gen *g, const struct check_block *b,
			      char *err, size_t errlen)
{
	size_t i, j;

	if (!b->layout.narrow)
		return 0;
	for (i = 0; i < b->n_rules; i++) {
		const struct ujs_rule *r = &g->p->rules[b->rules[i]];

		for (j = 0; j < r->n_args; j++) {
			const struct ujs_arg_cmp *c = &r->args[j];
			bool masked = c->op == UJS_CMP_MASKED_EQ;
			uint64_t bad = !ujs_arg_fits32(c->value) ? c->value : c->value_two;

			if (ujs_arg_fits32(c->value) && (!masked || ujs_arg_fits32(c->value_two)))
				continue;
			return ujs_fail(err, errlen,
					"%s: %s %s: arg%u value %#llx does not fit the 32-bit arguments "
					"of %s (-2147483648..4294967295)", policy_file(g->p),
					r->where ? r->where : "rule", r->name, c->index,
					(unsigned long long)bad, b->arch->name);
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */

static int generate(struct gen *g, const struct ujs_arch *target, char *err,
		    size_t errlen)
{
	struct section secs[UJS_MAX_ARCHS];
	size_t n_secs, i;

	if (check_target(g->p, target, err, errlen))
		return -1;
	n_secs = plan_sections(g->p, target, secs);
	emit_dispatch(&g->ir, secs, n_secs);
	for (i = 0; i < n_secs; i++)
		if (!emit_section(g, &secs[i]))
			return ujs_fail(err, errlen, "out of memory");
	for (i = 0; i < g->n_blocks; i++)
		if (check_block_values(g, &g->blocks[i], err, errlen))
			return -1;
	for (i = 0; i < g->n_blocks; i++)
		emit_check_block(g, &g->blocks[i]);
	return 0;
}

/* Self-check: what the kernel would refuse is our bug. */
static int self_check(struct ujs_program *out, char *err, size_t errlen)
{
	char why[256];

	if (!ujs_bpf_validate(out->insns, out->len, why, sizeof(why)))
		return 0;
	ujs_program_free(out);
	return ujs_fail(err, errlen, "internal error: compiled program is invalid: %s",
			why);
}

int ujs_compile(const struct ujs_policy *p, const struct ujs_arch *target,
		struct ujs_program *out, char *err, size_t errlen)
{
	struct gen g = { .p = p };
	int ret;

	memset(out, 0, sizeof(*out));
	if (!target)
		target = ujs_arch_native();
	if (!target)
		return ujs_fail(err, errlen, "no native architecture table");
	ret = check_rules(p, err, errlen) || generate(&g, target, err, errlen) ||
	      ujs_ir_assemble(&g.ir, policy_file(p), out, err, errlen);
	gen_free(&g);
	if (ret)
		return -1;
	out->audit_arch = target->audit_arch;
	return self_check(out, err, errlen);
}

void ujs_program_free(struct ujs_program *prog)
{
	free(prog->insns);
	prog->insns = NULL;
	prog->len = 0;
}
