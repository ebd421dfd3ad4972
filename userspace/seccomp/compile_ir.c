/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The compiler's intermediate code and its layout; see compile_ir.h.
 *
 * The layout places the nodes from the last to the first, so that every
 * jump target is already placed at a known distance. A RET is placed
 * right after the last jump to it and shared by the jumps above while
 * they reach it (jt/jf are 8 bits), then copied again; a jump more than
 * 255 instructions from another target gets a `ja` (32-bit offset) right
 * after it, shared the same way. Nothing placed moves again, so one pass
 * is enough.
 */
#include <stdlib.h>
#include <string.h>

#include "compile_ir.h"
#include "errmsg.h"
#include "program.h"

#define JUMP_MAX	255	/* jt/jf are 8 bits */

bool ujs_grow_array(void **arr, size_t *cap, size_t need, size_t size)
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
/* Building                                                            */

int ujs_ir_new_label(struct ujs_ir *ir)
{
	if (!ujs_grow_array((void **)&ir->labels, &ir->cap_labels,
			    ir->n_labels + 1, sizeof(*ir->labels))) {
		ir->oom = true;
		return UJS_NO_LABEL;
	}
	ir->labels[ir->n_labels] = (struct ujs_ir_label){ .node = -1, .alias = -1 };
	return (int)ir->n_labels++;
}

void ujs_ir_bind(struct ujs_ir *ir, int label)
{
	if (label == UJS_NO_LABEL)
		return;
	if (!ujs_grow_array((void **)&ir->pending, &ir->cap_pending,
			    ir->n_pending + 1, sizeof(*ir->pending))) {
		ir->oom = true;
		return;
	}
	ir->pending[ir->n_pending++] = label;
}

void ujs_ir_alias(struct ujs_ir *ir, int label, int to)
{
	if (label != UJS_NO_LABEL)
		ir->labels[label].alias = to;
}

int ujs_ir_add(struct ujs_ir *ir, uint16_t code, uint32_t k, int jt, int jf)
{
	size_t i;

	if (!ujs_grow_array((void **)&ir->nodes, &ir->cap_nodes,
			    ir->n_nodes + 1, sizeof(*ir->nodes))) {
		ir->oom = true;
		return -1;
	}
	ir->nodes[ir->n_nodes] = (struct ujs_ir_node){
		.code = code, .k = k,
		.label = { jt, jf }, .dest = { -1, -1 },
	};
	for (i = 0; i < ir->n_pending; i++)
		ir->labels[ir->pending[i]].node = (int)ir->n_nodes;
	ir->n_pending = 0;
	return (int)ir->n_nodes++;
}

int ujs_ir_ret_label(struct ujs_ir *ir, uint32_t k)
{
	size_t i;
	int label;

	for (i = 0; i < ir->n_rets; i++)
		if (ir->rets[i].k == k)
			return ir->rets[i].label;
	label = ujs_ir_new_label(ir);
	if (label == UJS_NO_LABEL ||
	    !ujs_grow_array((void **)&ir->rets, &ir->cap_rets, ir->n_rets + 1,
			    sizeof(*ir->rets))) {
		ir->oom = true;
		return UJS_NO_LABEL;
	}
	ir->rets[ir->n_rets++] = (struct ujs_ir_ret){ .k = k, .label = label };
	return label;
}

/* One RET node per action: the targets the layout places copies of. */
static void emit_shared_rets(struct ujs_ir *ir)
{
	size_t i;

	for (i = 0; i < ir->n_rets; i++) {
		ujs_ir_bind(ir, ir->rets[i].label);
		ujs_ir_add(ir, BPF_RET | BPF_K, ir->rets[i].k, UJS_NO_LABEL,
			   UJS_NO_LABEL);
	}
}

void ujs_ir_free(struct ujs_ir *ir)
{
	free(ir->nodes);
	free(ir->labels);
	free(ir->pending);
	free(ir->rets);
}

/* ------------------------------------------------------------------ */
/* Labels to nodes                                                     */

static int resolve(const struct ujs_ir *ir, int label)
{
	size_t hops;

	for (hops = 0; label != UJS_NO_LABEL && hops <= ir->n_labels; hops++) {
		if (ir->labels[label].node >= 0)
			return ir->labels[label].node;
		label = ir->labels[label].alias;
	}
	return -1;
}

/* Turns every jump's labels into node ids. */
static int resolve_jumps(struct ujs_ir *ir, char *err, size_t errlen)
{
	size_t i;
	int s, n_targets;

	for (i = 0; i < ir->n_nodes; i++) {
		struct ujs_ir_node *nd = &ir->nodes[i];

		n_targets = ujs_bpf_is_cond_jump(nd->code) ? 2 : ujs_bpf_is_ja(nd->code);
		for (s = 0; s < n_targets; s++) {
			int d = resolve(ir, nd->label[s]);

			if (d < 0 || (size_t)d <= i)
				return ujs_fail(err, errlen,
						"internal error: node %zu jumps to an unbound or earlier label",
						i);
			nd->dest[s] = d;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Layout                                                              */

/*
 * The program as laid out so far, from its end. The RETs of the IR are
 * not placed as such: a copy goes right after the last jump to it and
 * serves the jumps above while in reach, then another copy comes. A
 * conditional jump too far from any other target gets a `ja` right after
 * it, shared the same way.
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
	if (!ujs_grow_array((void **)&lay->rev, &lay->cap, lay->n + 1,
			    sizeof(*lay->rev)))
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

static bool is_ret(const struct ujs_ir *ir, int id)
{
	return BPF_CLASS(ir->nodes[id].code) == BPF_RET;
}

/* A copy of RET @id, or a `ja` to node @id, usable from above. */
static bool place_island(const struct ujs_ir *ir, struct layout *lay, int id)
{
	const struct ujs_ir_node *target = &ir->nodes[id];
	struct sock_filter f = { .code = target->code, .k = target->k };

	if (!is_ret(ir, id))
		f = (struct sock_filter){
			.code = BPF_JMP | BPF_JA,
			.k = (uint32_t)distance(lay, lay->at[id], 0),
		};
	if (!layout_push(lay, f))
		return false;
	lay->island_at[id] = (int)lay->n - 1;
	return true;
}

static bool place_cond_jump(const struct ujs_ir *ir, struct layout *lay,
			    const struct ujs_ir_node *nd)
{
	struct sock_filter f = { .code = nd->code, .k = nd->k };
	int s;

	/* Up to two islands may come between: decide with that margin. */
	for (s = 0; s < 2; s++)
		if (!in_reach(lay, nearest(lay, nd->dest[s]), 2) &&
		    !place_island(ir, lay, nd->dest[s]))
			return false;
	f.jt = (uint8_t)distance(lay, nearest(lay, nd->dest[0]), 0);
	f.jf = (uint8_t)distance(lay, nearest(lay, nd->dest[1]), 0);
	return layout_push(lay, f);
}

/* Continues at node @dest: a copy when it is a RET, else a `ja`. */
static bool place_ja(const struct ujs_ir *ir, struct layout *lay, int dest)
{
	struct sock_filter f = { .code = BPF_JMP | BPF_JA };

	if (is_ret(ir, dest))
		return place_island(ir, lay, dest);	/* jumping to a RET is returning */
	f.k = (uint32_t)distance(lay, lay->at[dest], 0);
	return layout_push(lay, f);
}

static bool place_node(const struct ujs_ir *ir, struct layout *lay, int id)
{
	const struct ujs_ir_node *nd = &ir->nodes[id];
	struct sock_filter f = { .code = nd->code, .k = nd->k };
	bool cond = ujs_bpf_is_cond_jump(nd->code);

	if (cond && nd->dest[0] != nd->dest[1]) {
		if (!place_cond_jump(ir, lay, nd))
			return false;
	} else if (cond || ujs_bpf_is_ja(nd->code)) {
		/* A ja, or a test whose both ways lead to the same place. */
		if (!place_ja(ir, lay, nd->dest[0]))
			return false;
	} else {
		if (!layout_push(lay, f))
			return false;
	}
	lay->at[id] = (int)lay->n - 1;
	return true;
}

/* Every node from the last; false when out of memory or too long. */
static bool place_all(const struct ujs_ir *ir, struct layout *lay)
{
	size_t i;

	for (i = ir->n_nodes; i-- > 0;) {
		/* RETs are placed as copies next to their users. */
		if (!is_ret(ir, (int)i) && !place_node(ir, lay, (int)i))
			return false;
	}
	return true;
}

/* Instructions the program has before islands and RETs. */
static size_t count_placed(const struct ujs_ir *ir)
{
	size_t i, n = 0;

	for (i = 0; i < ir->n_nodes; i++)
		n += !is_ret(ir, (int)i);
	return n;
}

static bool layout_alloc(struct layout *lay, size_t n_nodes)
{
	size_t i;

	lay->at = malloc(n_nodes * sizeof(*lay->at));
	lay->island_at = malloc(n_nodes * sizeof(*lay->island_at));
	if (!lay->at || !lay->island_at)
		return false;
	for (i = 0; i < n_nodes; i++)
		lay->at[i] = lay->island_at[i] = -1;
	return true;
}

static void layout_free(struct layout *lay)
{
	free(lay->rev);
	free(lay->at);
	free(lay->island_at);
}

/* The instructions in program order. */
static bool copy_program(const struct layout *lay, struct ujs_program *out)
{
	size_t i;

	out->insns = calloc(lay->n, sizeof(*out->insns));
	if (!out->insns)
		return false;
	for (i = 0; i < lay->n; i++)
		out->insns[i] = lay->rev[lay->n - 1 - i];
	out->len = lay->n;
	return true;
}

static int layout_program(const struct ujs_ir *ir, const char *file,
			  struct ujs_program *out, char *err, size_t errlen)
{
	struct layout lay = { 0 };
	size_t needed = count_placed(ir);
	bool placed;
	int ret = -1;

	if (!layout_alloc(&lay, ir->n_nodes)) {
		layout_free(&lay);
		return ujs_fail(err, errlen, "out of memory");
	}
	/* Too long before any island: not worth placing. */
	placed = needed <= UJS_PROG_MAX_INSNS && place_all(ir, &lay);
	if (needed > UJS_PROG_MAX_INSNS || lay.n > UJS_PROG_MAX_INSNS)
		ujs_fail(err, errlen,
			 "%s: the program needs more than the kernel's limit of %d instructions (at least %zu): use fewer argument rules or syscalls",
			 file, UJS_PROG_MAX_INSNS, needed > lay.n ? needed : lay.n);
	else if (!placed || !copy_program(&lay, out))
		ujs_fail(err, errlen, "out of memory");
	else
		ret = 0;
	layout_free(&lay);
	return ret;
}

int ujs_ir_assemble(struct ujs_ir *ir, const char *file,
		    struct ujs_program *out, char *err, size_t errlen)
{
	emit_shared_rets(ir);
	if (ir->oom)
		return ujs_fail(err, errlen, "out of memory");
	if (ir->n_pending)
		return ujs_fail(err, errlen, "internal error: label after the last instruction");
	if (resolve_jumps(ir, err, errlen))
		return -1;
	return layout_program(ir, file, out, err, errlen);
}
