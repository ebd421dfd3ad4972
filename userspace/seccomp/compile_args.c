/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The argument comparisons of a rule as IR (see compile_ir.h). Arguments
 * are 64 bits, BPF loads 32: each comparison is made of the two halves,
 * where the section's endianness puts them.
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

static void emit_cmp(struct ujs_ir *ir, const struct ujs_arg_cmp *c, bool little,
		     int pass, int fail)
{
	struct arg_words w = arg_words(c->index, little);

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
			     bool little, int action, int next)
{
	size_t j;

	for (j = 0; j < r->n_args; j++) {
		int pass = j + 1 == r->n_args ? action : ujs_ir_new_label(ir);

		emit_cmp(ir, &r->args[j], little, pass, next);
		if (j + 1 < r->n_args)
			ujs_ir_bind(ir, pass);
	}
}
