/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Classic BPF seccomp programs offline: the checks the kernel applies when
 * a filter is loaded (bpf_check_classic() then seccomp_check_filter()), an
 * interpreter, the kernel's constant-action analysis and a disassembler.
 */
#include <linux/audit.h>
#include <stdarg.h>
#include <string.h>

#include "bpf.h"
#include "program.h"
#include "syscalls.h"

#define SD_SIZE		((uint32_t)sizeof(struct seccomp_data))
#define SD_NR		((uint32_t)offsetof(struct seccomp_data, nr))
#define SD_ARCH		((uint32_t)offsetof(struct seccomp_data, arch))
#define SD_IP		((uint32_t)offsetof(struct seccomp_data, instruction_pointer))
#define SD_ARGS		((uint32_t)offsetof(struct seccomp_data, args))

/* Longest line format_insn() produces, annotations included. */
#define INSN_TEXT_MAX 160

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

/* ------------------------------------------------------------------ */
/* Disassembly of one instruction (shared by the dump and the messages) */

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

	if (k >= SD_SIZE || (k & 3)) {
		snprintf(buf, n, "0x%x", k);
		return;
	}
	if (k == SD_NR) {
		snprintf(buf, n, "nr");
		return;
	}
	if (k == SD_ARCH) {
		snprintf(buf, n, "arch");
		return;
	}
	/* The low half of a u64 is the first word on little-endian. */
	half = ((k & 4) == 0) == little ? "lo" : "hi";
	if (k < SD_ARGS)
		snprintf(buf, n, "instruction_pointer.%s", half);
	else
		snprintf(buf, n, "args[%u].%s", (k - SD_ARGS) / 8, half);
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

/* One instruction as text; @ctx (may be NULL) adds names to operands. */
static void format_insn(char *buf, size_t n, const struct sock_filter *f,
			size_t pc, const struct insn_ctx *ctx)
{
	const char *m;
	char ret[32];

	switch (BPF_CLASS(f->code)) {
	case BPF_LD:
	case BPF_LDX:
		format_load(buf, n, f, ctx);
		return;
	case BPF_ST:
	case BPF_STX:
		if (f->code == BPF_ST || f->code == BPF_STX) {
			snprintf(buf, n, "%-3s M[%u]",
				 f->code == BPF_ST ? "st" : "stx", f->k);
			return;
		}
		break;
	case BPF_ALU:
		m = alu_mnemonic(BPF_OP(f->code));
		if (!m)
			break;
		if (BPF_OP(f->code) == BPF_NEG)
			snprintf(buf, n, "%s", m);
		else if (BPF_SRC(f->code) == BPF_X)
			snprintf(buf, n, "%-3s x", m);
		else
			snprintf(buf, n, "%-3s #0x%x", m, f->k);
		return;
	case BPF_JMP:
		format_jump(buf, n, f, pc, ctx);
		return;
	case BPF_RET:
		if (BPF_RVAL(f->code) == BPF_A) {
			snprintf(buf, n, "%-3s a", "ret");
			return;
		}
		if (BPF_RVAL(f->code) == BPF_K) {
			format_ret(ret, sizeof(ret), f->k);
			snprintf(buf, n, "%-3s %s", "ret", ret);
			return;
		}
		break;
	case BPF_MISC:
		if (BPF_MISCOP(f->code) == BPF_TAX) {
			snprintf(buf, n, "tax");
			return;
		}
		if (BPF_MISCOP(f->code) == BPF_TXA) {
			snprintf(buf, n, "txa");
			return;
		}
		break;
	}
	snprintf(buf, n, "unknown opcode 0x%04x", f->code);
}

/* ------------------------------------------------------------------ */
/* Validation                                                          */

/* "insn PC (TEXT): what" for the instruction @f at @pc. */
__attribute__((format(printf, 5, 6)))
static int insn_fail(char *err, size_t errlen, const struct sock_filter *f,
		     size_t pc, const char *fmt, ...)
{
	char text[INSN_TEXT_MAX], what[192];
	va_list ap;

	if (!err || !errlen)
		return -1;	/* nobody reads it: spare the formatting */
	format_insn(text, sizeof(text), f, pc, NULL);
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "insn %zu (%s): %s", pc, text, what);
	return -1;
}

/* bpf_check_classic()'s chk_code_allowed(): every classic opcode. */
static bool classic_code_known(uint16_t code)
{
	switch (code) {
	case BPF_ALU | BPF_ADD | BPF_K:
	case BPF_ALU | BPF_ADD | BPF_X:
	case BPF_ALU | BPF_SUB | BPF_K:
	case BPF_ALU | BPF_SUB | BPF_X:
	case BPF_ALU | BPF_MUL | BPF_K:
	case BPF_ALU | BPF_MUL | BPF_X:
	case BPF_ALU | BPF_DIV | BPF_K:
	case BPF_ALU | BPF_DIV | BPF_X:
	case BPF_ALU | BPF_MOD | BPF_K:
	case BPF_ALU | BPF_MOD | BPF_X:
	case BPF_ALU | BPF_AND | BPF_K:
	case BPF_ALU | BPF_AND | BPF_X:
	case BPF_ALU | BPF_OR | BPF_K:
	case BPF_ALU | BPF_OR | BPF_X:
	case BPF_ALU | BPF_XOR | BPF_K:
	case BPF_ALU | BPF_XOR | BPF_X:
	case BPF_ALU | BPF_LSH | BPF_K:
	case BPF_ALU | BPF_LSH | BPF_X:
	case BPF_ALU | BPF_RSH | BPF_K:
	case BPF_ALU | BPF_RSH | BPF_X:
	case BPF_ALU | BPF_NEG:
	case BPF_LD | BPF_W | BPF_ABS:
	case BPF_LD | BPF_H | BPF_ABS:
	case BPF_LD | BPF_B | BPF_ABS:
	case BPF_LD | BPF_W | BPF_LEN:
	case BPF_LD | BPF_W | BPF_IND:
	case BPF_LD | BPF_H | BPF_IND:
	case BPF_LD | BPF_B | BPF_IND:
	case BPF_LD | BPF_IMM:
	case BPF_LD | BPF_MEM:
	case BPF_LDX | BPF_W | BPF_LEN:
	case BPF_LDX | BPF_B | BPF_MSH:
	case BPF_LDX | BPF_IMM:
	case BPF_LDX | BPF_MEM:
	case BPF_ST:
	case BPF_STX:
	case BPF_MISC | BPF_TAX:
	case BPF_MISC | BPF_TXA:
	case BPF_RET | BPF_K:
	case BPF_RET | BPF_A:
	case BPF_JMP | BPF_JA:
	case BPF_JMP | BPF_JEQ | BPF_K:
	case BPF_JMP | BPF_JEQ | BPF_X:
	case BPF_JMP | BPF_JGE | BPF_K:
	case BPF_JMP | BPF_JGE | BPF_X:
	case BPF_JMP | BPF_JGT | BPF_K:
	case BPF_JMP | BPF_JGT | BPF_X:
	case BPF_JMP | BPF_JSET | BPF_K:
	case BPF_JMP | BPF_JSET | BPF_X:
		return true;
	default:
		return false;
	}
}

static bool is_cond_jump(uint16_t code)
{
	return BPF_CLASS(code) == BPF_JMP && BPF_OP(code) != BPF_JA;
}

static bool is_mem_access(uint16_t code)
{
	return code == (BPF_LD | BPF_MEM) || code == (BPF_LDX | BPF_MEM) ||
	       code == BPF_ST || code == BPF_STX;
}

/* The per-instruction part of bpf_check_classic(). */
static int check_classic_insn(const struct sock_filter *insns, size_t len,
			      size_t pc, char *err, size_t errlen)
{
	const struct sock_filter *f = &insns[pc];
	uint16_t code = f->code;

	if (!classic_code_known(code))
		return fail(err, errlen, "insn %zu: unknown opcode 0x%04x",
			    pc, code);
	if ((code == (BPF_ALU | BPF_DIV | BPF_K) ||
	     code == (BPF_ALU | BPF_MOD | BPF_K)) && f->k == 0)
		return insn_fail(err, errlen, f, pc, "division by constant 0");
	if ((code == (BPF_ALU | BPF_LSH | BPF_K) ||
	     code == (BPF_ALU | BPF_RSH | BPF_K)) && f->k >= 32)
		return insn_fail(err, errlen, f, pc,
				 "shift by %u, must be below 32", f->k);
	if (is_mem_access(code) && f->k >= BPF_MEMWORDS)
		return insn_fail(err, errlen, f, pc,
				 "scratch memory index %u, there are only M[0..%d]",
				 f->k, BPF_MEMWORDS - 1);
	if (code == (BPF_JMP | BPF_JA) && f->k >= len - pc - 1)
		return insn_fail(err, errlen, f, pc,
				 "jump past the last instruction %zu", len - 1);
	if (is_cond_jump(code) &&
	    (pc + f->jt + 1 >= len || pc + f->jf + 1 >= len))
		return insn_fail(err, errlen, f, pc,
				 "jump past the last instruction %zu", len - 1);
	return 0;
}

/*
 * check_load_and_stores(): M[k] must be written on every path before it
 * is read. Jumps pass the set of written cells to their targets; the
 * instruction after a jump only gets what jumps to it.
 */
static int check_scratch_memory(const struct sock_filter *insns, size_t len,
				char *err, size_t errlen)
{
	uint16_t masks[BPF_MAXINSNS];
	uint16_t valid = 0;
	size_t pc;

	memset(masks, 0xff, len * sizeof(masks[0]));
	for (pc = 0; pc < len; pc++) {
		const struct sock_filter *f = &insns[pc];

		valid &= masks[pc];
		switch (f->code) {
		case BPF_ST:
		case BPF_STX:
			valid |= 1U << f->k;
			break;
		case BPF_LD | BPF_MEM:
		case BPF_LDX | BPF_MEM:
			if (!(valid & (1U << f->k)))
				return insn_fail(err, errlen, f, pc,
						 "reads M[%u] before it is written on every path",
						 f->k);
			break;
		case BPF_JMP | BPF_JA:
			masks[pc + 1 + f->k] &= valid;
			valid = 0xffff;
			break;
		default:
			if (is_cond_jump(f->code)) {
				masks[pc + 1 + f->jt] &= valid;
				masks[pc + 1 + f->jf] &= valid;
				valid = 0xffff;
			}
			break;
		}
	}
	return 0;
}

/* seccomp_check_filter(): what seccomp allows of classic BPF. */
static int check_seccomp_insn(const struct sock_filter *f, size_t pc,
			      char *err, size_t errlen)
{
	switch (f->code) {
	case BPF_LD | BPF_W | BPF_ABS:
		if (f->k >= SD_SIZE)
			return insn_fail(err, errlen, f, pc,
					 "offset %u is beyond struct seccomp_data (%u bytes)",
					 f->k, SD_SIZE);
		if (f->k & 3)
			return insn_fail(err, errlen, f, pc,
					 "offset %u is not 4-byte aligned", f->k);
		return 0;
	case BPF_LD | BPF_H | BPF_ABS:
	case BPF_LD | BPF_B | BPF_ABS:
	case BPF_LD | BPF_W | BPF_IND:
	case BPF_LD | BPF_H | BPF_IND:
	case BPF_LD | BPF_B | BPF_IND:
	case BPF_LDX | BPF_B | BPF_MSH:
		return insn_fail(err, errlen, f, pc,
				 "seccomp allows only 32-bit loads at constant offsets");
	case BPF_ALU | BPF_MOD | BPF_K:
	case BPF_ALU | BPF_MOD | BPF_X:
		return insn_fail(err, errlen, f, pc, "seccomp does not allow mod");
	default:
		/* The rest of the classic set is allowed as it is. */
		return 0;
	}
}

int ujs_bpf_validate(const struct sock_filter *insns, size_t len,
		     char *err, size_t errlen)
{
	uint16_t last;
	size_t pc;

	if (!insns || len == 0)
		return fail(err, errlen, "empty program");
	if (len > BPF_MAXINSNS)
		return fail(err, errlen,
			    "%zu instructions, more than the kernel's limit of %d",
			    len, BPF_MAXINSNS);
	for (pc = 0; pc < len; pc++)
		if (check_classic_insn(insns, len, pc, err, errlen))
			return -1;
	last = insns[len - 1].code;
	if (last != (BPF_RET | BPF_K) && last != (BPF_RET | BPF_A))
		return fail(err, errlen,
			    "insn %zu: the last instruction must be a ret", len - 1);
	if (check_scratch_memory(insns, len, err, errlen))
		return -1;
	for (pc = 0; pc < len; pc++)
		if (check_seccomp_insn(&insns[pc], pc, err, errlen))
			return -1;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Interpreter                                                         */

struct machine {
	uint32_t a, x;
	uint32_t mem[BPF_MEMWORDS];
};

/* The word of @data at @k (validated: aligned, in range), host order. */
static uint32_t load_word(const struct seccomp_data *data, uint32_t k)
{
	uint32_t w;

	memcpy(&w, (const uint8_t *)data + k, sizeof(w));
	return w;
}

/*
 * One ALU operation. Division by a zero X ends the program with 0 in the
 * kernel (its classic -> eBPF conversion); reported through @div_zero.
 * Shifts by X use the low 5 bits, as the JITs and the interpreter do.
 */
static uint32_t alu(uint16_t code, uint32_t a, uint32_t operand, bool *div_zero)
{
	switch (BPF_OP(code)) {
	case BPF_ADD: return a + operand;
	case BPF_SUB: return a - operand;
	case BPF_MUL: return a * operand;
	case BPF_DIV:
		if (operand == 0) {
			*div_zero = true;
			return 0;
		}
		return a / operand;
	case BPF_MOD:
		if (operand == 0) {
			*div_zero = true;
			return 0;
		}
		return a % operand;
	case BPF_AND: return a & operand;
	case BPF_OR:  return a | operand;
	case BPF_XOR: return a ^ operand;
	case BPF_LSH: return a << (operand & 31);
	case BPF_RSH: return a >> (operand & 31);
	case BPF_NEG: return -a;
	default:      return a;
	}
}

static bool jump_taken(uint16_t code, uint32_t a, uint32_t operand)
{
	switch (BPF_OP(code)) {
	case BPF_JEQ:  return a == operand;
	case BPF_JGT:  return a > operand;
	case BPF_JGE:  return a >= operand;
	case BPF_JSET: return (a & operand) != 0;
	default:       return false;
	}
}

/* Executes the non-jump, non-ret instruction @f on @m. */
static void execute(struct machine *m, const struct sock_filter *f,
		    const struct seccomp_data *data)
{
	switch (f->code) {
	case BPF_LD | BPF_W | BPF_ABS:
		m->a = load_word(data, f->k);
		break;
	case BPF_LD | BPF_W | BPF_LEN:
		m->a = SD_SIZE;
		break;
	case BPF_LDX | BPF_W | BPF_LEN:
		m->x = SD_SIZE;
		break;
	case BPF_LD | BPF_IMM:
		m->a = f->k;
		break;
	case BPF_LDX | BPF_IMM:
		m->x = f->k;
		break;
	case BPF_LD | BPF_MEM:
		m->a = m->mem[f->k];
		break;
	case BPF_LDX | BPF_MEM:
		m->x = m->mem[f->k];
		break;
	case BPF_ST:
		m->mem[f->k] = m->a;
		break;
	case BPF_STX:
		m->mem[f->k] = m->x;
		break;
	case BPF_MISC | BPF_TAX:
		m->x = m->a;
		break;
	case BPF_MISC | BPF_TXA:
		m->a = m->x;
		break;
	}
}

int ujs_bpf_run(const struct sock_filter *insns, size_t len,
		const struct seccomp_data *data, uint32_t *ret,
		char *err, size_t errlen)
{
	struct machine m = { 0 };
	size_t pc = 0;

	if (ujs_bpf_validate(insns, len, err, errlen))
		return -1;
	/* Validated: jumps go forward and stay inside, the last insn is a ret. */
	for (;;) {
		const struct sock_filter *f = &insns[pc];
		bool div_zero = false;

		switch (BPF_CLASS(f->code)) {
		case BPF_RET:
			*ret = BPF_RVAL(f->code) == BPF_A ? m.a : f->k;
			return 0;
		case BPF_JMP:
			if (BPF_OP(f->code) == BPF_JA)
				pc += f->k;
			else if (jump_taken(f->code, m.a, BPF_SRC(f->code) == BPF_X
							  ? m.x : f->k))
				pc += f->jt;
			else
				pc += f->jf;
			break;
		case BPF_ALU:
			m.a = alu(f->code, m.a,
				  BPF_SRC(f->code) == BPF_X ? m.x : f->k,
				  &div_zero);
			if (div_zero) {
				*ret = 0;
				return 0;
			}
			break;
		default:
			execute(&m, f, data);
			break;
		}
		pc++;
	}
}

/* ------------------------------------------------------------------ */
/* Constant-action analysis                                            */

/*
 * seccomp_is_const_allow() of Linux 6.12, run on the program as loaded
 * (the kernel runs it on the original, unrewritten instructions). Its
 * uretprobe exception does not depend on the program and is left out:
 * this answers whether the program itself is constant.
 */
bool ujs_bpf_const_allow(const struct sock_filter *insns, size_t len,
			 uint32_t arch, uint32_t nr)
{
	uint32_t reg = 0;
	size_t pc;

	/* The kernel only analyses filters that passed its checks. */
	if (ujs_bpf_validate(insns, len, NULL, 0))
		return false;
	for (pc = 0; pc < len; pc++) {
		const struct sock_filter *f = &insns[pc];

		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (f->k == SD_NR)
				reg = nr;
			else if (f->k == SD_ARCH)
				reg = arch;
			else
				return false;	/* depends on more than nr/arch */
			break;
		case BPF_RET | BPF_K:
			return f->k == SECCOMP_RET_ALLOW;
		case BPF_JMP | BPF_JA:
			pc += f->k;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
		case BPF_JMP | BPF_JGE | BPF_K:
		case BPF_JMP | BPF_JGT | BPF_K:
		case BPF_JMP | BPF_JSET | BPF_K:
			pc += jump_taken(f->code, reg, f->k) ? f->jt : f->jf;
			break;
		case BPF_ALU | BPF_AND | BPF_K:
			reg &= f->k;
			break;
		default:
			return false;	/* an instruction it does not emulate */
		}
	}
	return false;
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
		if (f->code == (BPF_LD | BPF_W | BPF_ABS) && f->k == SD_NR)
			after->a = A_NR;
		else if (f->code == (BPF_LD | BPF_W | BPF_ABS) && f->k == SD_ARCH)
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
	char text[INSN_TEXT_MAX];
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
		} else if (is_cond_jump(f->code)) {
			flow_into(ctx, reached, len, pc + 1 + f->jt, &taken);
			flow_into(ctx, reached, len, pc + 1 + f->jf, &after);
		} else {
			flow_into(ctx, reached, len, pc + 1, &after);
		}
	}
}
