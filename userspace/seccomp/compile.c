/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Policy -> classic BPF seccomp program.
 *
 * Code is generated into an IR of nodes whose jumps name labels, in this
 * order: the architecture dispatch; per architecture section a balanced
 * search tree over the syscall numbers (only instructions the kernel's
 * seccomp_is_const_allow() emulates, so syscalls allowed by number alone
 * get cached); the argument check blocks, one per distinct list of rules
 * (x86_64, x32 and i386 numbers of a syscall share theirs); one RET node
 * per distinct action. Everything jumps forward.
 *
 * The layout then places the nodes from the last to the first, so that
 * every jump target is already placed at a known distance. A RET is
 * placed right after the last jump to it and shared by the jumps above
 * while they reach it (jt/jf are 8 bits), then copied again; a jump
 * more than 255 instructions from another target gets a `ja` (32-bit
 * offset) right after it, shared the same way. Nothing placed moves
 * again, so one pass is enough.
 */
#include <linux/audit.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bpf.h"
#include "compile.h"
#include "program.h"

#define SD_NR		((uint32_t)offsetof(struct seccomp_data, nr))
#define SD_ARCH		((uint32_t)offsetof(struct seccomp_data, arch))
#define SD_ARGS		((uint32_t)offsetof(struct seccomp_data, args))
#define N_SYSCALL_ARGS	6
#define JUMP_MAX	255	/* jt/jf are 8 bits */
#define NO_LABEL	(-1)

__attribute__((format(printf, 3, 4)))
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Makes room for @need elements in *@arr; false when out of memory. */
static bool grow(void **arr, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 16;
	void *n;

	if (need <= *cap)
		return true;
	while (ncap < need)
		ncap *= 2;
	n = realloc(*arr, ncap * size);
	if (!n)
		return false;
	*arr = n;
	*cap = ncap;
	return true;
}

/* ------------------------------------------------------------------ */
/* IR                                                                  */

struct node {
	uint16_t code;
	uint32_t k;
	int label[2];		/* jt (or ja target) and jf, as labels */
	int dest[2];		/* the nodes those labels resolve to */
};

struct label {
	int node;		/* bound to this node, or -1 */
	int alias;		/* or the same place as this label, or -1 */
};

struct ret_entry {
	uint32_t k;
	int label;
};

/*
 * The argument checks of one syscall: its rules in file order. Syscalls
 * with the same rules share one block (x86_64 and x32 numbers of a name,
 * i386 and x86_64 ones), when the argument words lie the same way.
 */
struct check_block {
	size_t *rules;		/* indexes into the policy's rules */
	size_t n_rules;
	bool little;
	int label;
};

struct cg {
	struct node *nodes;
	size_t n_nodes, cap_nodes;
	struct label *labels;
	size_t n_labels, cap_labels;
	int *pending;		/* labels bound to the next node added */
	size_t n_pending, cap_pending;
	struct ret_entry *rets;
	size_t n_rets, cap_rets;
	struct check_block *blocks;
	size_t n_blocks, cap_blocks;
	bool oom;
};

static int new_label(struct cg *cg)
{
	if (!grow((void **)&cg->labels, &cg->cap_labels, cg->n_labels + 1,
		  sizeof(*cg->labels))) {
		cg->oom = true;
		return NO_LABEL;
	}
	cg->labels[cg->n_labels] = (struct label){ .node = -1, .alias = -1 };
	return (int)cg->n_labels++;
}

/* @label names the next node added. */
static void bind_label(struct cg *cg, int label)
{
	if (label == NO_LABEL)
		return;
	if (!grow((void **)&cg->pending, &cg->cap_pending, cg->n_pending + 1,
		  sizeof(*cg->pending))) {
		cg->oom = true;
		return;
	}
	cg->pending[cg->n_pending++] = label;
}

/* @label names the same place as @to. */
static void alias_label(struct cg *cg, int label, int to)
{
	if (label != NO_LABEL)
		cg->labels[label].alias = to;
}

static int add_node(struct cg *cg, uint16_t code, uint32_t k, int jt, int jf)
{
	struct node *nd;
	size_t i;

	if (!grow((void **)&cg->nodes, &cg->cap_nodes, cg->n_nodes + 1,
		  sizeof(*cg->nodes))) {
		cg->oom = true;
		return -1;
	}
	nd = &cg->nodes[cg->n_nodes];
	*nd = (struct node){
		.code = code, .k = k,
		.label = { jt, jf }, .dest = { -1, -1 },
	};
	for (i = 0; i < cg->n_pending; i++)
		cg->labels[cg->pending[i]].node = (int)cg->n_nodes;
	cg->n_pending = 0;
	return (int)cg->n_nodes++;
}

static void emit_load(struct cg *cg, uint32_t offset)
{
	add_node(cg, BPF_LD | BPF_W | BPF_ABS, offset, NO_LABEL, NO_LABEL);
}

static void emit_and(struct cg *cg, uint32_t mask)
{
	add_node(cg, BPF_ALU | BPF_AND | BPF_K, mask, NO_LABEL, NO_LABEL);
}

/* Conditional jump on A against @k; both targets explicit. */
static void emit_jump(struct cg *cg, uint16_t op, uint32_t k, int jt, int jf)
{
	add_node(cg, BPF_JMP | op | BPF_K, k, jt, jf);
}

static void emit_ja(struct cg *cg, int target)
{
	add_node(cg, BPF_JMP | BPF_JA, 0, target, NO_LABEL);
}

/* The label of the RET returning @k, one per value. */
static int ret_label(struct cg *cg, uint32_t k)
{
	size_t i;
	int label;

	for (i = 0; i < cg->n_rets; i++)
		if (cg->rets[i].k == k)
			return cg->rets[i].label;
	label = new_label(cg);
	if (label == NO_LABEL ||
	    !grow((void **)&cg->rets, &cg->cap_rets, cg->n_rets + 1,
		  sizeof(*cg->rets))) {
		cg->oom = true;
		return NO_LABEL;
	}
	cg->rets[cg->n_rets++] = (struct ret_entry){ .k = k, .label = label };
	return label;
}

/* One RET node per action: the targets the layout places copies of. */
static void emit_shared_rets(struct cg *cg)
{
	size_t i;

	for (i = 0; i < cg->n_rets; i++) {
		bind_label(cg, cg->rets[i].label);
		add_node(cg, BPF_RET | BPF_K, cg->rets[i].k, NO_LABEL, NO_LABEL);
	}
}

static void cg_free(struct cg *cg)
{
	size_t i;

	for (i = 0; i < cg->n_blocks; i++)
		free(cg->blocks[i].rules);
	free(cg->blocks);
	free(cg->nodes);
	free(cg->labels);
	free(cg->pending);
	free(cg->rets);
}

/* ------------------------------------------------------------------ */
/* Argument comparisons                                                */

/* Where the two words of args[@index] are, by the section's endianness. */
struct arg_words {
	uint32_t lo, hi;
};

static struct arg_words arg_words(unsigned int index, bool little)
{
	uint32_t base = SD_ARGS + 8 * index;

	return little ? (struct arg_words){ base, base + 4 }
		      : (struct arg_words){ base + 4, base };
}

/* arg == v (@eq) or arg != v: both halves equal. */
static void emit_cmp_eq(struct cg *cg, struct arg_words w, uint64_t v,
			bool eq, int pass, int fail_)
{
	int lo = new_label(cg);
	int yes = eq ? pass : fail_, no = eq ? fail_ : pass;

	emit_load(cg, w.hi);
	emit_jump(cg, BPF_JEQ, (uint32_t)(v >> 32), lo, no);
	bind_label(cg, lo);
	emit_load(cg, w.lo);
	emit_jump(cg, BPF_JEQ, (uint32_t)v, yes, no);
}

/*
 * Unsigned 64-bit order: the high words decide unless equal, then the
 * low words do. @above: arg > v or arg >= v (@or_equal) pass; otherwise
 * arg < v or arg <= v pass, written as the negation of >= and >.
 */
static void emit_cmp_order(struct cg *cg, struct arg_words w, uint64_t v,
			   bool above, bool or_equal, int pass, int fail_)
{
	uint32_t vh = (uint32_t)(v >> 32), vl = (uint32_t)v;
	int hi_equal = new_label(cg), lo = new_label(cg);
	int greater = above ? pass : fail_, less = above ? fail_ : pass;
	/* For < and <=, the low-word test is the negated >= and >. */
	uint16_t lo_op = above == or_equal ? BPF_JGE : BPF_JGT;

	emit_load(cg, w.hi);
	emit_jump(cg, BPF_JGT, vh, greater, hi_equal);
	bind_label(cg, hi_equal);
	emit_jump(cg, BPF_JEQ, vh, lo, less);
	bind_label(cg, lo);
	emit_load(cg, w.lo);
	emit_jump(cg, lo_op, vl, greater, less);
}

/* One half of (arg & mask) == want; nothing when the mask is 0. */
static void emit_masked_half(struct cg *cg, uint32_t offset, uint32_t mask,
			     uint32_t want, int pass, int fail_)
{
	emit_load(cg, offset);
	if (mask != 0xffffffffU)
		emit_and(cg, mask);
	emit_jump(cg, BPF_JEQ, want, pass, fail_);
}

static void emit_cmp_masked(struct cg *cg, struct arg_words w, uint64_t mask,
			    uint64_t want, int pass, int fail_)
{
	uint32_t mh = (uint32_t)(mask >> 32), ml = (uint32_t)mask;
	int lo;

	/* Bits wanted outside the mask: never equal. */
	if (want & ~mask) {
		emit_ja(cg, fail_);
		return;
	}
	if (!mh && !ml) {
		emit_ja(cg, pass);
		return;
	}
	if (!ml) {
		emit_masked_half(cg, w.hi, mh, (uint32_t)(want >> 32), pass, fail_);
		return;
	}
	if (mh) {
		lo = new_label(cg);
		emit_masked_half(cg, w.hi, mh, (uint32_t)(want >> 32), lo, fail_);
		bind_label(cg, lo);
	}
	emit_masked_half(cg, w.lo, ml, (uint32_t)want, pass, fail_);
}

static void emit_cmp(struct cg *cg, const struct ujs_arg_cmp *c, bool little,
		     int pass, int fail_)
{
	struct arg_words w = arg_words(c->index, little);

	switch (c->op) {
	case UJS_CMP_EQ:
		emit_cmp_eq(cg, w, c->value, true, pass, fail_);
		break;
	case UJS_CMP_NE:
		emit_cmp_eq(cg, w, c->value, false, pass, fail_);
		break;
	case UJS_CMP_GT:
		emit_cmp_order(cg, w, c->value, true, false, pass, fail_);
		break;
	case UJS_CMP_GE:
		emit_cmp_order(cg, w, c->value, true, true, pass, fail_);
		break;
	case UJS_CMP_LT:
		emit_cmp_order(cg, w, c->value, false, false, pass, fail_);
		break;
	case UJS_CMP_LE:
		emit_cmp_order(cg, w, c->value, false, true, pass, fail_);
		break;
	case UJS_CMP_MASKED_EQ:
		emit_cmp_masked(cg, w, c->value, c->value_two, pass, fail_);
		break;
	}
}

/* ------------------------------------------------------------------ */
/* Sections: one per architecture the filter answers for               */

struct section {
	uint32_t audit_arch;
	const struct ujs_arch *arch;	/* numbers come from here */
	const struct ujs_arch *x32;	/* x86_64 with x32 listed: these too */
	bool kill_x32;			/* x86_64 without x32: kill the bit */
	bool little;
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
	if (!grow((void **)&sc->rules, cap, sc->n_rules + 1, sizeof(*sc->rules)))
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
		       size_t n, bool little)
{
	size_t i;

	if (b->little != little || b->n_rules != n)
		return false;
	for (i = 0; i < n; i++)
		if (b->rules[i] != group[i].rule)
			return false;
	return true;
}

/* The label of the check block for @group, shared when one exists. */
static int block_label(struct cg *cg, const struct nr_rule *group, size_t n,
		       bool little)
{
	struct check_block *b;
	size_t i;

	for (i = 0; i < cg->n_blocks; i++)
		if (same_rules(&cg->blocks[i], group, n, little))
			return cg->blocks[i].label;
	if (!grow((void **)&cg->blocks, &cg->cap_blocks, cg->n_blocks + 1,
		  sizeof(*cg->blocks))) {
		cg->oom = true;
		return NO_LABEL;
	}
	b = &cg->blocks[cg->n_blocks];
	b->rules = calloc(n, sizeof(*b->rules));
	if (!b->rules) {
		cg->oom = true;
		return NO_LABEL;
	}
	for (i = 0; i < n; i++)
		b->rules[i] = group[i].rule;
	b->n_rules = n;
	b->little = little;
	b->label = new_label(cg);
	cg->n_blocks++;
	return b->label;
}

/*
 * Where the tree sends a syscall: straight to the RET of its first rule
 * when that rule has no argument checks, else to its check block.
 */
static int group_target(struct cg *cg, const struct ujs_policy *p,
			const struct section *sec, const struct nr_rule *group,
			size_t n)
{
	const struct ujs_rule *r = &p->rules[group->rule];

	if (r->n_args == 0)
		return ret_label(cg, ujs_action_ret(r->action));
	return block_label(cg, group, n, sec->little);
}

/* The number line of the section as intervals of equal decisions. */
static bool build_intervals(struct cg *cg, const struct ujs_policy *p,
			    const struct section *sec, struct section_code *sc)
{
	int deflt = ret_label(cg, ujs_action_ret(p->default_action));
	size_t i;

	sc->iv = calloc(2 * sc->n_rules + 3, sizeof(*sc->iv));
	if (!sc->iv)
		return false;
	push_interval(sc, 0, deflt);
	for (i = 0; i < sc->n_rules; i += group_len(sc, i)) {
		uint32_t nr = sc->rules[i].nr;

		if (sec->kill_x32 && nr >= UJS_X32_SYSCALL_BIT)
			continue;
		push_interval(sc, nr, group_target(cg, p, sec, &sc->rules[i],
						   group_len(sc, i)));
		if (nr != UINT32_MAX)
			push_interval(sc, nr + 1, deflt);
	}
	if (sec->kill_x32)
		push_interval(sc, UJS_X32_SYSCALL_BIT,
			      ret_label(cg, SECCOMP_RET_KILL_PROCESS));
	return true;
}

/*
 * Emits the search over intervals @lo..@hi (at least two) at @label:
 * `jge` splits in the middle; a lone number between two runs of the same
 * decision is one `jeq`. Left half first, so its jump is short. Only
 * instructions seccomp_is_const_allow() emulates.
 */
static void emit_tree(struct cg *cg, const struct interval *iv, size_t lo,
		      size_t hi, int label)
{
	size_t mid = (lo + hi + 1) / 2;
	int left, right;

	bind_label(cg, label);
	if (hi - lo == 2 && iv[lo].label == iv[hi].label &&
	    iv[hi].start - iv[lo + 1].start == 1) {
		emit_jump(cg, BPF_JEQ, iv[lo + 1].start, iv[lo + 1].label,
			  iv[lo].label);
		return;
	}
	left = mid - 1 == lo ? iv[lo].label : new_label(cg);
	right = mid == hi ? iv[hi].label : new_label(cg);
	emit_jump(cg, BPF_JGE, iv[mid].start, right, left);
	if (mid - 1 > lo)
		emit_tree(cg, iv, lo, mid - 1, left);
	if (hi > mid)
		emit_tree(cg, iv, mid, hi, right);
}

/* The rules of one syscall in file order; first whose checks hold wins. */
static void emit_check_block(struct cg *cg, const struct ujs_policy *p,
			     const struct check_block *b)
{
	int deflt = ret_label(cg, ujs_action_ret(p->default_action));
	int entry = b->label;
	size_t i, j;

	for (i = 0; i < b->n_rules; i++) {
		const struct ujs_rule *r = &p->rules[b->rules[i]];
		int action = ret_label(cg, ujs_action_ret(r->action));
		int next;

		if (r->n_args == 0) {
			/* Unconditional: the rules after it are unreachable. */
			alias_label(cg, entry, action);
			return;
		}
		next = new_label(cg);
		bind_label(cg, entry);
		for (j = 0; j < r->n_args; j++) {
			int pass = j + 1 == r->n_args ? action : new_label(cg);

			emit_cmp(cg, &r->args[j], b->little, pass, next);
			if (j + 1 < r->n_args)
				bind_label(cg, pass);
		}
		entry = next;
	}
	alias_label(cg, entry, deflt);
}

static void section_code_free(struct section_code *sc)
{
	free(sc->rules);
	free(sc->iv);
}

/* `ld [nr]` and the tree; the check blocks come after all sections. */
static bool emit_section(struct cg *cg, const struct ujs_policy *p,
			 const struct section *sec)
{
	struct section_code sc = { 0 };
	bool ok = false;

	if (!collect_rules(p, sec, &sc) || !build_intervals(cg, p, sec, &sc))
		goto out;
	if (sc.n_iv == 1) {
		/* One decision for every number: no need to look. */
		alias_label(cg, sec->label, sc.iv[0].label);
	} else {
		bind_label(cg, sec->label);
		emit_load(cg, SD_NR);
		emit_tree(cg, sc.iv, 0, sc.n_iv - 1, new_label(cg));
	}
	ok = true;
out:
	section_code_free(&sc);
	return ok;
}

static bool policy_lists(const struct ujs_policy *p, const struct ujs_arch *a)
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
		.little = (arch->audit_arch & __AUDIT_ARCH_LE) != 0,
		.label = NO_LABEL,
	};
}

/*
 * The sections for @target: itself first, then the compat architectures
 * the policy lists. x32 has no section of its own: it is x86_64 with the
 * number bit, handled in the x86_64 section.
 */
static int plan_sections(const struct ujs_policy *p,
			 const struct ujs_arch *target, struct section *secs,
			 size_t *n, char *err, size_t errlen)
{
	const char *file = p->file ? p->file : "policy";
	const struct ujs_arch *compat[UJS_MAX_ARCHS];
	size_t n_compat, i;
	bool x86_64 = !strcmp(target->name, "x86_64");

	if (!strcmp(target->name, "x32"))
		return fail(err, errlen,
			    "%s: x32 is not a target architecture: compile for x86_64 with SCMP_ARCH_X32 listed",
			    file);
	if (p->n_archs && !policy_lists(p, target))
		return fail(err, errlen,
			    "%s: the target architecture %s (%s) is not in \"architectures\"",
			    file, target->name, target->oci_name);
	*n = 0;
	secs[(*n)++] = make_section(target);
	secs[0].kill_x32 = x86_64;
	n_compat = ujs_arch_compat(target, compat, UJS_MAX_ARCHS);
	for (i = 0; i < n_compat; i++) {
		if (!compat[i] || !policy_lists(p, compat[i]))
			continue;
		if (x86_64 && compat[i]->audit_arch == target->audit_arch) {
			secs[0].x32 = compat[i];
			secs[0].kill_x32 = false;
			continue;
		}
		secs[(*n)++] = make_section(compat[i]);
	}
	return 0;
}

/* `ld [arch]` and one `jeq` per section; anything else is killed. */
static void emit_dispatch(struct cg *cg, struct section *secs, size_t n)
{
	int kill = ret_label(cg, SECCOMP_RET_KILL_PROCESS);
	size_t i;

	emit_load(cg, SD_ARCH);
	for (i = 0; i < n; i++) {
		int next = i + 1 == n ? kill : new_label(cg);

		secs[i].label = new_label(cg);
		emit_jump(cg, BPF_JEQ, secs[i].audit_arch, secs[i].label, next);
		if (i + 1 < n)
			bind_label(cg, next);
	}
}

static int check_rules(const struct ujs_policy *p, char *err, size_t errlen)
{
	const char *file = p->file ? p->file : "policy";
	size_t i, j;

	for (i = 0; i < p->n_rules; i++) {
		const struct ujs_rule *r = &p->rules[i];

		for (j = 0; j < r->n_args; j++) {
			const struct ujs_arg_cmp *c = &r->args[j];

			if (c->index >= N_SYSCALL_ARGS)
				return fail(err, errlen,
					    "%s: %s %s: argument index %u is out of range (0..5)",
					    file, r->where ? r->where : "rule",
					    r->name, c->index);
			if ((unsigned int)c->op > UJS_CMP_MASKED_EQ)
				return fail(err, errlen,
					    "%s: %s %s: unknown comparison %d",
					    file, r->where ? r->where : "rule",
					    r->name, (int)c->op);
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Layout                                                              */

static int resolve(const struct cg *cg, int label)
{
	size_t hops;

	for (hops = 0; label != NO_LABEL && hops <= cg->n_labels; hops++) {
		if (cg->labels[label].node >= 0)
			return cg->labels[label].node;
		label = cg->labels[label].alias;
	}
	return -1;
}

static bool is_cond_jump(uint16_t code)
{
	return BPF_CLASS(code) == BPF_JMP && BPF_OP(code) != BPF_JA;
}

static bool is_ja(uint16_t code)
{
	return code == (BPF_JMP | BPF_JA);
}

/* Turns every jump's labels into node ids. */
static int resolve_jumps(struct cg *cg, char *err, size_t errlen)
{
	size_t i;
	int s, n_targets;

	for (i = 0; i < cg->n_nodes; i++) {
		struct node *nd = &cg->nodes[i];

		n_targets = is_cond_jump(nd->code) ? 2 : is_ja(nd->code);
		for (s = 0; s < n_targets; s++) {
			int d = resolve(cg, nd->label[s]);

			if (d < 0 || (size_t)d <= i)
				return fail(err, errlen,
					    "internal error: node %zu jumps to an unbound or earlier label",
					    i);
			nd->dest[s] = d;
		}
	}
	return 0;
}

/*
 * The program is laid out from its end: every jump goes forward, so when
 * a node is placed everything it jumps to already is, at a known
 * distance. The RETs of the IR are not placed as such: a copy goes right
 * after the last jump to it and serves the jumps above while in reach,
 * then another copy comes. A conditional jump too far from any other
 * target gets a `ja` right after it, shared the same way. These islands
 * never move once placed, so one pass is enough.
 */
struct layout {
	struct sock_filter *rev;	/* rev[i]: the i-th instruction from the end */
	size_t n, cap;
	int *at;		/* by node id: its index in rev, or -1 */
	int *island_at;		/* by node id: its nearest island, or -1 */
};

static bool layout_push(struct layout *lay, struct sock_filter f)
{
	if (lay->n >= UJS_PROG_MAX_INSNS + 1)
		return false;	/* too long: reported by the caller */
	if (!grow((void **)&lay->rev, &lay->cap, lay->n + 1, sizeof(*lay->rev)))
		return false;
	lay->rev[lay->n++] = f;
	return true;
}

/* Index in rev of the nearest place that does what node @id does, or -1. */
static int nearest(const struct layout *lay, int id)
{
	return lay->island_at[id] > lay->at[id] ? lay->island_at[id]
						: lay->at[id];
}

/* Offset to @to from the instruction placed after @extra more ones. */
static size_t distance(const struct layout *lay, int to, size_t extra)
{
	return lay->n + extra - (size_t)to - 1;
}

static bool in_reach(const struct layout *lay, int to, size_t extra)
{
	return to >= 0 && distance(lay, to, extra) <= JUMP_MAX;
}

static bool is_ret(const struct cg *cg, int id)
{
	return BPF_CLASS(cg->nodes[id].code) == BPF_RET;
}

/* A copy of RET @id, or a `ja` to node @id, usable from above. */
static bool place_island(const struct cg *cg, struct layout *lay, int id)
{
	const struct node *target = &cg->nodes[id];
	struct sock_filter f = { .code = target->code, .k = target->k };

	if (!is_ret(cg, id))
		f = (struct sock_filter){
			.code = BPF_JMP | BPF_JA,
			.k = (uint32_t)distance(lay, lay->at[id], 0),
		};
	if (!layout_push(lay, f))
		return false;
	lay->island_at[id] = (int)lay->n - 1;
	return true;
}

static bool place_cond_jump(const struct cg *cg, struct layout *lay,
			    const struct node *nd)
{
	struct sock_filter f = { .code = nd->code, .k = nd->k };
	int s;

	/* Up to two islands may come between: decide with that margin. */
	for (s = 0; s < 2; s++)
		if (!in_reach(lay, nearest(lay, nd->dest[s]), 2) &&
		    !place_island(cg, lay, nd->dest[s]))
			return false;
	f.jt = (uint8_t)distance(lay, nearest(lay, nd->dest[0]), 0);
	f.jf = (uint8_t)distance(lay, nearest(lay, nd->dest[1]), 0);
	return layout_push(lay, f);
}

/* Continues at node @dest: a copy when it is a RET, else a `ja`. */
static bool place_ja(const struct cg *cg, struct layout *lay, int dest)
{
	struct sock_filter f = { .code = BPF_JMP | BPF_JA };

	if (is_ret(cg, dest))
		return place_island(cg, lay, dest);	/* jumping to a RET is returning */
	f.k = (uint32_t)distance(lay, lay->at[dest], 0);
	return layout_push(lay, f);
}

static bool place_node(const struct cg *cg, struct layout *lay, int id)
{
	const struct node *nd = &cg->nodes[id];
	struct sock_filter f = { .code = nd->code, .k = nd->k };

	if (is_cond_jump(nd->code) && nd->dest[0] != nd->dest[1]) {
		if (!place_cond_jump(cg, lay, nd))
			return false;
	} else if (is_cond_jump(nd->code) || is_ja(nd->code)) {
		/* A ja, or a test whose both ways lead to the same place. */
		if (!place_ja(cg, lay, nd->dest[0]))
			return false;
	} else {
		if (!layout_push(lay, f))
			return false;
	}
	lay->at[id] = (int)lay->n - 1;
	return true;
}

/* Instructions the program has before islands and RETs. */
static size_t count_placed(const struct cg *cg)
{
	size_t i, n = 0;

	for (i = 0; i < cg->n_nodes; i++)
		n += !is_ret(cg, (int)i);
	return n;
}

static int layout_program(const struct ujs_policy *p, const struct cg *cg,
			  struct ujs_program *out, char *err, size_t errlen)
{
	struct layout lay = { 0 };
	size_t i, needed = count_placed(cg);
	bool placed = true;
	int ret = -1;

	lay.at = malloc(cg->n_nodes * sizeof(*lay.at));
	lay.island_at = malloc(cg->n_nodes * sizeof(*lay.island_at));
	if (!lay.at || !lay.island_at) {
		fail(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0; i < cg->n_nodes; i++)
		lay.at[i] = lay.island_at[i] = -1;
	for (i = cg->n_nodes; i-- > 0 && placed && needed <= UJS_PROG_MAX_INSNS;) {
		/* RETs are placed as copies next to their users. */
		if (!is_ret(cg, (int)i))
			placed = place_node(cg, &lay, (int)i);
	}
	if (needed > UJS_PROG_MAX_INSNS || lay.n > UJS_PROG_MAX_INSNS) {
		fail(err, errlen,
		     "%s: the program needs more than the kernel's limit of %d instructions (at least %zu): use fewer argument rules or syscalls",
		     p->file ? p->file : "policy", UJS_PROG_MAX_INSNS,
		     needed > lay.n ? needed : lay.n);
		goto out;
	}
	out->insns = placed ? calloc(lay.n, sizeof(*out->insns)) : NULL;
	if (!out->insns) {
		fail(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0; i < lay.n; i++)
		out->insns[i] = lay.rev[lay.n - 1 - i];
	out->len = lay.n;
	ret = 0;
out:
	free(lay.rev);
	free(lay.at);
	free(lay.island_at);
	return ret;
}

/* ------------------------------------------------------------------ */

static int generate(const struct ujs_policy *p, const struct ujs_arch *target,
		    struct cg *cg, char *err, size_t errlen)
{
	struct section secs[UJS_MAX_ARCHS];
	size_t n_secs = 0, i;

	if (plan_sections(p, target, secs, &n_secs, err, errlen))
		return -1;
	emit_dispatch(cg, secs, n_secs);
	for (i = 0; i < n_secs; i++)
		if (!emit_section(cg, p, &secs[i]))
			return fail(err, errlen, "out of memory");
	for (i = 0; i < cg->n_blocks; i++)
		emit_check_block(cg, p, &cg->blocks[i]);
	emit_shared_rets(cg);
	if (cg->oom)
		return fail(err, errlen, "out of memory");
	if (cg->n_pending)
		return fail(err, errlen, "internal error: label after the last instruction");
	return resolve_jumps(cg, err, errlen);
}

int ujs_compile(const struct ujs_policy *p, const struct ujs_arch *target,
		struct ujs_program *out, char *err, size_t errlen)
{
	struct cg cg = { 0 };
	char why[256];
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (!target)
		target = ujs_arch_native();
	if (!target)
		return fail(err, errlen, "no native architecture table");
	if (check_rules(p, err, errlen) || generate(p, target, &cg, err, errlen) ||
	    layout_program(p, &cg, out, err, errlen))
		goto out;
	out->audit_arch = target->audit_arch;
	/* Self-check: what the kernel would refuse is our bug. */
	if (ujs_bpf_validate(out->insns, out->len, why, sizeof(why))) {
		fail(err, errlen, "internal error: compiled program is invalid: %s",
		     why);
		ujs_program_free(out);
		goto out;
	}
	ret = 0;
out:
	cg_free(&cg);
	return ret;
}

void ujs_program_free(struct ujs_program *prog)
{
	free(prog->insns);
	prog->insns = NULL;
	prog->len = 0;
}

/* ------------------------------------------------------------------ */
/* Report                                                              */

/* True when @name is a syscall on an architecture the filter covers. */
static bool covered(const struct ujs_policy *p, const struct ujs_arch *target,
		    const char *name)
{
	const struct ujs_arch *compat[UJS_MAX_ARCHS];
	size_t n, i;

	if (ujs_syscall_nr(target, name) >= 0)
		return true;
	n = ujs_arch_compat(target, compat, UJS_MAX_ARCHS);
	for (i = 0; i < n; i++)
		if (compat[i] && policy_lists(p, compat[i]) &&
		    ujs_syscall_nr(compat[i], name) >= 0)
			return true;
	return false;
}

/*
 * Whether a rule before @i of the same syscall decides unconditionally
 * (@decided: rule @i is never reached) or checks arguments (@checked).
 */
static void earlier_rules(const struct ujs_policy *p, size_t i,
			  bool *decided, bool *checked)
{
	size_t j;

	*decided = *checked = false;
	for (j = 0; j < i; j++) {
		if (strcmp(p->rules[j].name, p->rules[i].name))
			continue;
		if (p->rules[j].n_args)
			*checked = true;
		else
			*decided = true;
	}
}

size_t ujs_report_uncacheable(const struct ujs_policy *p,
			      const struct ujs_arch *target, FILE *out)
{
	size_t i, count = 0;

	if (!target)
		target = ujs_arch_native();
	for (i = 0; i < p->n_rules; i++) {
		const struct ujs_rule *r = &p->rules[i];
		const char *where = r->where ? r->where : "rule";
		bool decided, checked;

		if (target && !covered(p, target, r->name))
			continue;
		earlier_rules(p, i, &decided, &checked);
		if (decided)
			continue;	/* never reached */
		if (r->n_args)
			fprintf(out, "%s %s: argument check\n", where, r->name);
		else if (r->action.kind != UJS_ACT_ALLOW)
			fprintf(out, "%s %s: action %s\n", where, r->name,
				ujs_action_name(r->action.kind));
		else if (checked)
			fprintf(out, "%s %s: reached after argument checks\n",
				where, r->name);
		else
			continue;
		count++;
	}
	return count;
}
