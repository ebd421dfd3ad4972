/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The argument comparisons of a rule as IR (see compile_ir.h). On 64-bit
 * ABIs arguments are 64 bits and BPF loads 32: each comparison is made of
 * the two halves, where the section's endianness puts them. On 32-bit ABIs
 * (i386, arm, mips) the kernel passes each argument zero-extended, so only
 * the low word is compared, with the rule's value as its 32-bit form (-1
 * is 0xffffffff); compile.c refuses values that have none.
 */
#include "compile_ir.h"

/* Where the two words of args[@index] are, by the section's endianness. */
struct arg_words {
	uint32_t lo, hi;
};

static struct arg_words arg_words(unsigned int index, bool little)
{
	uint32_t base = UJS_SD_ARGS + 8 * index;

	return little ? (struct arg_words){ base, base + 4 }
		      : (struct arg_words){ base + 4, base };
}

/* arg == v (@eq) or arg != v: both halves equal. */
static void emit_cmp_eq(struct ujs_ir *ir, struct arg_words w, uint64_t v,
			bool eq, int pass, int fail)
{
	int lo = ujs_ir_new_label(ir);
	int yes = eq ? pass : fail, no = eq ? fail : pass;

	ujs_ir_load(ir, w.hi);
	ujs_ir_jump(ir, BPF_JEQ, (uint32_t)(v >> 32), lo, no);
	ujs_ir_bind(ir, lo);
	ujs_ir_load(ir, w.lo);
	ujs_ir_jump(ir, BPF_JEQ, (uint32_t)v, yes, no);
}

/*
 * Unsigned 64-bit order: the high words decide unless equal, then the
 * low words do. @above: arg > v or arg >= v (@or_equal) pass; otherwise
 * arg < v or arg <= v pass, written as the negation of >= and >.
 */
static void emit_cmp_order(struct ujs_ir *ir, struct arg_words w, uint64_t v,
			   bool above, bool or_equal, int pass, int fail)
{
	uint32_t vh = (uint32_t)(v >> 32), vl = (uint32_t)v;
	int hi_equal = ujs_ir_new_label(ir), lo = ujs_ir_new_label(ir);
	int greater = above ? pass : fail, less = above ? fail : pass;
	/* For < and <=, the low-word test is the negated >= and >. */
	uint16_t lo_op = above == or_equal ? BPF_JGE : BPF_JGT;

	ujs_ir_load(ir, w.hi);
	ujs_ir_jump(ir, BPF_JGT, vh, greater, hi_equal);
	ujs_ir_bind(ir, hi_equal);
	ujs_ir_jump(ir, BPF_JEQ, vh, lo, less);
	ujs_ir_bind(ir, lo);
	ujs_ir_load(ir, w.lo);
	ujs_ir_jump(ir, lo_op, vl, greater, less);
}

/* One half of (arg & mask) == want; nothing when the mask is 0. */
static void emit_masked_half(struct ujs_ir *ir, uint32_t offset, uint32_t mask,
			     uint32_t want, int pass, int fail)
{
	ujs_ir_load(ir, offset);
	if (mask != 0xffffffffU)
		ujs_ir_and(ir, mask);
	ujs_ir_jump(ir, BPF_JEQ, want, pass, fail);
}

static void emit_cmp_masked(struct ujs_ir *ir, struct arg_words w, uint64_t mask,
			    uint64_t want, int pass, int fail)
{
	uint32_t mh = (uint32_t)(mask >> 32), ml = (uint32_t)mask;
	int lo;

	/* Bits wanted outside the mask: never equal. */
	if (want & ~mask) {
		ujs_ir_ja(ir, fail);
		return;
	}
	if (!mh && !ml) {
		ujs_ir_ja(ir, pass);
		return;
	}
	if (!ml) {
		emit_masked_half(ir, w.hi, mh, (uint32_t)(want >> 32), pass, fail);
		return;
	}
	if (mh) {
		lo = ujs_ir_new_label(ir);
		emit_masked_half(ir, w.hi, mh, (uint32_t)(want >> 32), lo, fail);
		ujs_ir_bind(ir, lo);
	}
	emit_masked_half(ir, w.lo, ml, (uint32_t)want, pass, fail);
}

/* A 32-bit ABI's comparison: the low word against the value's low word. */
static void emit_cmp32(struct ujs_ir *ir, uint32_t lo, const struct ujs_arg_cmp *c,
		       int pass, int fail)
{
	uint32_t v = (uint32_t)c->value, want = (uint32_t)c->value_two;

	if (c->op == UJS_CMP_MASKED_EQ) {
		/* Bits wanted outside the mask: never equal; no mask: always. */
		if (want & ~v)
			ujs_ir_ja(ir, fail);
		else if (!v)
			ujs_ir_ja(ir, pass);
		else
			emit_masked_half(ir, lo, v, want, pass, fail);
		return;
	}
	ujs_ir_load(ir, lo);
	switch (c->op) {
	case UJS_CMP_EQ: ujs_ir_jump(ir, BPF_JEQ, v, pass, fail); break;
	case UJS_CMP_NE: ujs_ir_jump(ir, BPF_JEQ, v, fail, pass); break;
	case UJS_CMP_GT: ujs_ir_jump(ir, BPF_JGT, v, pass, fail); break;
	case UJS_CMP_GE: ujs_ir_jump(ir, BPF_JGE, v, pass, fail); break;
	case UJS_CMP_LT: ujs_ir_jump(ir, BPF_JGE, v, fail, pass); break;
	case UJS_CMP_LE: ujs_ir_jump(ir, BPF_JGT, v, fail, pass); break;
	case UJS_CMP_MASKED_EQ: break;
	}
}

static void emit_cmp(struct ujs_ir *ir, const struct ujs_arg_cmp *c,
		     struct ujs_arg_layout layout, int pass, int fail)
{
	struct arg_words w = arg_words(c->index, layout.little);

	if (layout.narrow) {
		emit_cmp32(ir, w.lo, c, pass, fail);
		return;
	}
	switch (c->op) {
	case UJS_CMP_EQ:
		emit_cmp_eq(ir, w, c->value, true, pass, fail);
		break;
	case UJS_CMP_NE:
		emit_cmp_eq(ir, w, c->value, false, pass, fail);
		break;
	case UJS_CMP_GT:
		emit_cmp_order(ir, w, c->value, true, false, pass, fail);
		break;
	case UJS_CMP_GE:
		emit_cmp_order(ir, w, c->value, true, true, pass, fail);
		break;
	case UJS_CMP_LT:
		emit_cmp_order(ir, w, c->value, false, false, pass, fail);
		break;
	case UJS_CMP_LE:
		emit_cmp_order(ir, w, c->value, false, true, pass, fail);
		break;
	case UJS_CMP_MASKED_EQ:
		emit_cmp_masked(ir, w, c->value, c->value_two, pass, fail);
		break;
	}
}

void ujs_emit_rule_checks(struct ujs_ir *ir, const struct ujs_rule *r,
			  struct ujs_arg_layout layout, int action, int next)
{
	size_t j;

	for (j = 0; j < r->n_args; j++) {
		int pass = j + 1 == r->n_args ? action : ujs_ir_new_label(ir);

		emit_cmp(ir, &r->args[j], layout, pass, next);
		if (j + 1 < r->n_args)
			ujs_ir_bind(ir, pass);
	}
}
