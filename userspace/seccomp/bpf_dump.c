/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The disassembler: instructions as text, with seccomp_data fields by name
 * and syscall names next to the numbers compared once the arch is known.
 * Also the text of an instruction in the validator's messages.
 */
#include <linux/audit.h>
#include <string.h>

#include "bpf.h"
#include "bpf_insn.h"
#include "program.h"
#include "syscalls.h"

/* ------------------------------------------------------------------ */
/* One instruction                                                    */

/* What the disassembler knows when it reaches an instruction. */
enum a_source { A_OTHER, A_NR, A_ARCH };

struct insn_ctx {
	uint32_t arch;		/* AUDIT_ARCH_* established, 0 = unknown */
	enum a_source a;	/* what the accumulator holds */
};

static bool host_little_endian(void)
{
	const uint16_t probe = 1;

	return *(const uint8_t *)&probe == 1;
}

/* Name of the seccomp_data word at @k; halves of u64 fields by endianness. */
static void field_name(char *buf, size_t n, uint32_t k, bool little)
{
	const char *half;

	if (k >= UJS_SD_SIZE || (k & 3)) {
		snprintf(buf, n, "0x%x", k);
		return;
	}
	if (k == UJS_SD_NR) {
		snprintf(buf, n, "nr");
		return;
	}
	if (k == UJS_SD_ARCH) {
		snprintf(buf, n, "arch");
		return;
	}
	/* The low half of a u64 is the first word on little-endian. */
	half = ((k & 4) == 0) == little ? "lo" : "hi";
	if (k < UJS_SD_ARGS)
		snprintf(buf, n, "instruction_pointer.%s", half);
	else
		snprintf(buf, n, "args[%u].%s", (k - UJS_SD_ARGS) / 8, half);
}

static const char *arch_name(uint32_t audit_arch)
{
	const struct ujs_arch *const *all;
	size_t n, i;

	all = ujs_arch_all(&n);
	for (i = 0; i < n; i++) {
		/* x32 shares AUDIT_ARCH_X86_64; the arch is x86_64. */
		if (all[i]->audit_arch == audit_arch &&
		    strcmp(all[i]->name, "x32") != 0)
			return all[i]->name;
	}
	return NULL;
}

/* "ALLOW", "ERRNO(1)", "KILL_PROCESS", ... for a SECCOMP_RET_* value. */
static void format_ret(char *buf, size_t n, uint32_t k)
{
	uint32_t data = k & SECCOMP_RET_DATA;
	const char *name;
	bool with_data = data != 0;

	switch (k & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_KILL_PROCESS:
		name = "KILL_PROCESS";
		break;
	case SECCOMP_RET_KILL_THREAD:
		name = "KILL_THREAD";
		break;
	case SECCOMP_RET_TRAP:
		name = "TRAP";
		break;
	case SECCOMP_RET_ERRNO:
		name = "ERRNO";
		with_data = true;
		break;
	case SECCOMP_RET_LOG_ERRNO:
		name = "LOG_ERRNO";
		with_data = true;
		break;
	case SECCOMP_RET_USER_NOTIF:
		name = "USER_NOTIF";
		break;
	case SECCOMP_RET_TRACE:
		name = "TRACE";
		with_data = true;
		break;
	case SECCOMP_RET_LOG:
		name = "LOG";
		break;
	case SECCOMP_RET_ALLOW:
		name = "ALLOW";
		break;
	default:
		snprintf(buf, n, "#0x%08x", k);
		return;
	}
	if (with_data)
		snprintf(buf, n, "%s(%u)", name, data);
	else
		snprintf(buf, n, "%s", name);
}

static const char *alu_mnemonic(uint16_t op)
{
	switch (op) {
	case BPF_ADD: return "add";
	case BPF_SUB: return "sub";
	case BPF_MUL: return "mul";
	case BPF_DIV: return "div";
	case BPF_MOD: return "mod";
	case BPF_AND: return "and";
	case BPF_OR:  return "or";
	case BPF_XOR: return "xor";
	case BPF_LSH: return "lsh";
	case BPF_RSH: return "rsh";
	case BPF_NEG: return "neg";
	default:      return NULL;
	}
}

static const char *jmp_mnemonic(uint16_t op)
{
	switch (op) {
	case BPF_JA:   return "ja";
	case BPF_JEQ:  return "jeq";
	case BPF_JGT:  return "jgt";
	case BPF_JGE:  return "jge";
	case BPF_JSET: return "jset";
	default:       return NULL;
	}
}

/* " (x86_64)" or " (getpid)" after a comparison when @ctx tells which. */
static void compare_note(char *buf, size_t n, const struct sock_filter *f,
			 const struct insn_ctx *ctx)
{
	const char *name = NULL;

	buf[0] = '\0';
	if (!ctx || BPF_SRC(f->code) != BPF_K)
		return;
	if (ctx->a == A_ARCH && BPF_OP(f->code) == BPF_JEQ)
		name = arch_name(f->k);
	else if (ctx->a == A_NR && ctx->arch && BPF_OP(f->code) != BPF_JSET)
		name = ujs_syscall_name_audit(ctx->arch, f->k);
	if (name)
		snprintf(buf, n, " (%s)", name);
}

static void format_load(char *buf, size_t n, const struct sock_filter *f,
			const struct insn_ctx *ctx)
{
	bool little = ctx && ctx->arch ? (ctx->arch & __AUDIT_ARCH_LE) != 0
				       : host_little_endian();
	const char *m = BPF_CLASS(f->code) == BPF_LDX ? "ldx" : "ld";
	char field[48];

	switch (f->code) {
	case BPF_LD | BPF_W | BPF_ABS:
		field_name(field, sizeof(field), f->k, little);
		snprintf(buf, n, "%-3s [%s]", m, field);
		return;
	case BPF_LD | BPF_H | BPF_ABS:
		snprintf(buf, n, "%-3s [%u]", "ldh", f->k);
		return;
	case BPF_LD | BPF_B | BPF_ABS:
		snprintf(buf, n, "%-3s [%u]", "ldb", f->k);
		return;
	case BPF_LD | BPF_W | BPF_IND:
		snprintf(buf, n, "%-3s [x+%u]", m, f->k);
		return;
	case BPF_LD | BPF_H | BPF_IND:
		snprintf(buf, n, "%-3s [x+%u]", "ldh", f->k);
		return;
	case BPF_LD | BPF_B | BPF_IND:
		snprintf(buf, n, "%-3s [x+%u]", "ldb", f->k);
		return;
	case BPF_LD | BPF_W | BPF_LEN:
	case BPF_LDX | BPF_W | BPF_LEN:
		snprintf(buf, n, "%-3s #len", m);
		return;
	case BPF_LD | BPF_IMM:
	case BPF_LDX | BPF_IMM:
		snprintf(buf, n, "%-3s #0x%x", m, f->k);
		return;
	case BPF_LD | BPF_MEM:
	case BPF_LDX | BPF_MEM:
		snprintf(buf, n, "%-3s M[%u]", m, f->k);
		return;
	case BPF_LDX | BPF_B | BPF_MSH:
		snprintf(buf, n, "%-3s 4*([%u]&0xf)", "ldxb", f->k);
		return;
	default:
		snprintf(buf, n, "unknown opcode 0x%04x", f->code);
	}
}

static void format_jump(char *buf, size_t n, const struct sock_filter *f,
			size_t pc, const struct insn_ctx *ctx)
{
	const char *m = jmp_mnemonic(BPF_OP(f->code));
	char note[64];

	if (!m || (BPF_OP(f->code) == BPF_JA && BPF_SRC(f->code) != BPF_K)) {
		snprintf(buf, n, "unknown opcode 0x%04x", f->code);
		return;
	}
	if (BPF_OP(f->code) == BPF_JA) {
		snprintf(buf, n, "%-3s %zu", m, pc + 1 + f->k);
		return;
	}
	compare_note(note, sizeof(note), f, ctx);
	if (BPF_SRC(f->code) == BPF_X)
		snprintf(buf, n, "%-3s x -> %zu else %zu", m,
			 pc + 1 + f->jt, pc + 1 + f->jf);
	else
		snprintf(buf, n, "%-3s #0x%x%s -> %zu else %zu", m, f->k, note,
			 pc + 1 + f->jt, pc + 1 + f->jf);
}

static bool format_store(char *buf, size_t n, const struct sock_filter *f)
{
	if (f->code != BPF_ST && f->code != BPF_STX)
		return false;
	snprintf(buf, n, "%-3s M[%u]", f->code == BPF_ST ? "st" : "stx", f->k);
	return true;
}

static bool format_alu(char *buf, size_t n, const struct sock_filter *f)
{
	const char *m = alu_mnemonic(BPF_OP(f->code));

	if (!m)
		return false;
	if (BPF_OP(f->code) == BPF_NEG)
		snprintf(buf, n, "%s", m);
	else if (BPF_SRC(f->code) == BPF_X)
		snprintf(buf, n, "%-3s x", m);
	else
		snprintf(buf, n, "%-3s #0x%x", m, f->k);
	return true;
}

static bool format_return(char *buf, size_t n, const struct sock_filter *f)
{
	char ret[32];

	if (BPF_RVAL(f->code) == BPF_A) {
		snprintf(buf, n, "%-3s a", "ret");
		return true;
	}
	if (BPF_RVAL(f->code) != BPF_K)
		return false;
	format_ret(ret, sizeof(ret), f->k);
	snprintf(buf, n, "%-3s %s", "ret", ret);
	return true;
}

static bool format_misc(char *buf, size_t n, const struct sock_filter *f)
{
	if (BPF_MISCOP(f->code) == BPF_TAX)
		snprintf(buf, n, "tax");
	else if (BPF_MISCOP(f->code) == BPF_TXA)
		snprintf(buf, n, "txa");
	else
		return false;
	return true;
}

/* One instruction as text; @ctx (may be NULL) adds names to operands. */
static void format_insn(char *buf, size_t n, const struct sock_filter *f,
			size_t pc, const struct insn_ctx *ctx)
{
	bool known;

	switch (BPF_CLASS(f->code)) {
	case BPF_LD:
	case BPF_LDX:
		format_load(buf, n, f, ctx);
		return;
	case BPF_JMP:
		format_jump(buf, n, f, pc, ctx);
		return;
	case BPF_ST:
	case BPF_STX:
		known = format_store(buf, n, f);
		break;
	case BPF_ALU:
		known = format_alu(buf, n, f);
		break;
	case BPF_RET:
		known = format_return(buf, n, f);
		break;
	default:
		known = format_misc(buf, n, f);
		break;
	}
	if (!known)
		snprintf(buf, n, "unknown opcode 0x%04x", f->code);
}

void ujs_bpf_format_insn(char *buf, size_t n, const struct sock_filter *f,
			 size_t pc)
{
	format_insn(buf, n, f, pc, NULL);
}

/* ------------------------------------------------------------------ */
/* Disassembler                                                        */

/* Merges the state flowing into an instruction with what is known there. */
static void flow_into(struct insn_ctx *ctx, bool *reached, size_t len,
		      size_t target, const struct insn_ctx *in)
{
	if (target >= len)
		return;
	if (!reached[target]) {
		ctx[target] = *in;
		reached[target] = true;
		return;
	}
	if (ctx[target].arch != in->arch)
		ctx[target].arch = 0;
	if (ctx[target].a != in->a)
		ctx[target].a = A_OTHER;
}

/* What holds after @f, on the fall-through and on the jt side. */
static void step_ctx(const struct sock_filter *f, struct insn_ctx *after,
		     struct insn_ctx *taken)
{
	switch (BPF_CLASS(f->code)) {
	case BPF_LD:
		if (f->code == (BPF_LD | BPF_W | BPF_ABS) && f->k == UJS_SD_NR)
			after->a = A_NR;
		else if (f->code == (BPF_LD | BPF_W | BPF_ABS) && f->k == UJS_SD_ARCH)
			after->a = A_ARCH;
		else
			after->a = A_OTHER;
		break;
	case BPF_ALU:
		after->a = A_OTHER;
		break;
	case BPF_MISC:
		if (BPF_MISCOP(f->code) == BPF_TXA)
			after->a = A_OTHER;
		break;
	}
	*taken = *after;
	/* "jeq #AUDIT_ARCH_X" on the arch: the arch is X where it jumps. */
	if (f->code == (BPF_JMP | BPF_JEQ | BPF_K) && after->a == A_ARCH)
		taken->arch = f->k;
}

void ujs_bpf_dump(const struct sock_filter *insns, size_t len, FILE *out)
{
	struct insn_ctx ctx[BPF_MAXINSNS];
	bool reached[BPF_MAXINSNS] = { false };
	char text[UJS_BPF_INSN_TEXT_MAX];
	size_t pc;

	if (len > BPF_MAXINSNS) {
		fprintf(out, "(%zu instructions, more than the kernel's limit of %d)\n",
			len, BPF_MAXINSNS);
		len = BPF_MAXINSNS;
	}
	for (pc = 0; pc < len; pc++) {
		const struct sock_filter *f = &insns[pc];
		struct insn_ctx here, after, taken;

		/* The start, or unreachable code: nothing known. */
		here = reached[pc] ? ctx[pc] : (struct insn_ctx){ 0, A_OTHER };
		format_insn(text, sizeof(text), f, pc, &here);
		fprintf(out, "%4zu: %s\n", pc, text);

		after = here;
		step_ctx(f, &after, &taken);
		if (BPF_CLASS(f->code) == BPF_RET)
			continue;
		if (f->code == (BPF_JMP | BPF_JA)) {
			flow_into(ctx, reached, len, pc + 1 + (size_t)f->k, &after);
		} else if (ujs_bpf_is_cond_jump(f->code)) {
			flow_into(ctx, reached, len, pc + 1 + f->jt, &taken);
			flow_into(ctx, reached, len, pc + 1 + f->jf, &after);
		} else {
			flow_into(ctx, reached, len, pc + 1, &after);
		}
	}
}
