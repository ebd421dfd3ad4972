/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The compiler's intermediate code (internal to compile*.c): BPF nodes
 * whose jumps name labels, bound to nodes added later (every jump goes
 * forward), and their layout into a program within the 8-bit jump
 * offsets (compile_ir.c). compile.c builds it from a policy, with the
 * argument comparisons of compile_args.c.
 */
#ifndef UJS_COMPILE_IR_H
#define UJS_COMPILE_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf_insn.h"
#include "compile.h"

#define UJS_NO_LABEL (-1)

struct ujs_ir_node {
	uint16_t code;
	uint32_t k;
	int label[2];		/* jt (or ja target) and jf, as labels */
	int dest[2];		/* the nodes those labels resolve to */
};

struct ujs_ir_label {
	int node;		/* bound to this node, or -1 */
	int alias;		/* or the same place as this label, or -1 */
};

/* The RET returning @k, one per value. */
struct ujs_ir_ret {
	uint32_t k;
	int label;
};

struct ujs_ir {
	struct ujs_ir_node *nodes;
	size_t n_nodes, cap_nodes;
	struct ujs_ir_label *labels;
	size_t n_labels, cap_labels;
	int *pending;		/* labels bound to the next node added */
	size_t n_pending, cap_pending;
	struct ujs_ir_ret *rets;
	size_t n_rets, cap_rets;
	bool oom;		/* an allocation failed: the code is incomplete */
};

/* Makes room for @need elements in *@arr; false when out of memory. */
bool ujs_grow_array(void **arr, size_t *cap, size_t need, size_t size);

int ujs_ir_new_label(struct ujs_ir *ir);
/* @label names the next node added. */
void ujs_ir_bind(struct ujs_ir *ir, int label);
/* @label names the same place as @to. */
void ujs_ir_alias(struct ujs_ir *ir, int label, int to);
int ujs_ir_add(struct ujs_ir *ir, uint16_t code, uint32_t k, int jt, int jf);
/* The label of the RET returning @k, shared by all that return @k. */
int ujs_ir_ret_label(struct ujs_ir *ir, uint32_t k);

static inline void ujs_ir_load(struct ujs_ir *ir, uint32_t offset)
{
	ujs_ir_add(ir, BPF_LD | BPF_W | BPF_ABS, offset, UJS_NO_LABEL, UJS_NO_LABEL);
}

static inline void ujs_ir_and(struct ujs_ir *ir, uint32_t mask)
{
	ujs_ir_add(ir, BPF_ALU | BPF_AND | BPF_K, mask, UJS_NO_LABEL, UJS_NO_LABEL);
}

/* Conditional jump on A against @k; both targets explicit. */
static inline void ujs_ir_jump(struct ujs_ir *ir, uint16_t op, uint32_t k,
			       int jt, int jf)
{
	ujs_ir_add(ir, BPF_JMP | op | BPF_K, k, jt, jf);
}

static inline void ujs_ir_ja(struct ujs_ir *ir, int target)
{
	ujs_ir_add(ir, BPF_JMP | BPF_JA, 0, target, UJS_NO_LABEL);
}

/*
 * After the last node: the RETs appended, the labels resolved and the
 * program laid out into @out; @file names the policy in messages.
 */
int ujs_ir_assemble(struct ujs_ir *ir, const char *file,
		    struct ujs_program *out, char *err, size_t errlen);
void ujs_ir_free(struct ujs_ir *ir);

/* What the compiler's files share. */

/*
 * How a section's arguments lie in seccomp_data: the word order, and
 * whether the ABI's arguments are 32 bits (i386, arm, mips: the kernel
 * passes them zero-extended, so only the low word is compared).
 */
struct ujs_arg_layout {
	bool little;
	bool narrow;
};

/* The comparisons of @r, all holding -> @action, any failing -> @next. */
void ujs_emit_rule_checks(struct ujs_ir *ir, const struct ujs_rule *r,
			  struct ujs_arg_layout layout, int action, int next);
/* @p's "architectures" has @a. */
bool ujs_policy_lists(const struct ujs_policy *p, const struct ujs_arch *a);

#endif
