/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Classic BPF seccomp programs offline: the checks the kernel applies when
 * a filter is loaded (bpf_check_classic() then seccomp_check_filter()), an
 * interpreter and the kernel's constant-action analysis. The disassembler
 * is in bpf_dump.c.
 */
#include <stdarg.h>
#include <string.h>

#include "bpf.h"
#include "bpf_insn.h"
#include "errmsg.h"

/* ------------------------------------------------------------------ */
/* Validation                                                          */

/* "insn PC (TEXT): what" for the instruction @f at @pc. */
__attribute__((format(printf, 5, 6)))
static int insn_fail(char *err, size_t errlen, const struct sock_filter *f,
		     size_t pc, const char *fmt, ...)
{
	char text[UJS_BPF_INSN_TEXT_MAX], what[192];
	va_list ap;

	if (!err || !errlen)
		return -1;	/* nobody reads it: spare the formatting */
	ujs_bpf_format_insn(text, sizeof(text), f, pc);
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
		return ujs_fail(err, errlen, "insn %zu: unknown opcode 0x%04x",
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
	if (ujs_bpf_is_cond_jump(code) &&
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
			if (ujs_bpf_is_cond_jump(f->code)) {
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
		if (f->k >= UJS_SD_SIZE)
			return insn_fail(err, errlen, f, pc,
					 "offset %u is beyond struct seccomp_data (%u bytes)",
					 f->k, UJS_SD_SIZE);
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
		return ujs_fail(err, errlen, "empty program");
	if (len > BPF_MAXINSNS)
		return ujs_fail(err, errlen,
				"%zu instructions, more than the kernel's limit of %d",
				len, BPF_MAXINSNS);
	for (pc = 0; pc < len; pc++)
		if (check_classic_insn(insns, len, pc, err, errlen))
			return -1;
	last = insns[len - 1].code;
	if (last != (BPF_RET | BPF_K) && last != (BPF_RET | BPF_A))
		return ujs_fail(err, errlen,
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
		m->a = UJS_SD_SIZE;
		break;
	case BPF_LDX | BPF_W | BPF_LEN:
		m->x = UJS_SD_SIZE;
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

/* The second operand of an ALU or jump instruction: X or the constant. */
static uint32_t operand(const struct machine *m, const struct sock_filter *f)
{
	return BPF_SRC(f->code) == BPF_X ? m->x : f->k;
}

/* How many instructions the jump @f skips. */
static size_t jump_offset(const struct machine *m, const struct sock_filter *f)
{
	if (BPF_OP(f->code) == BPF_JA)
		return f->k;
	return jump_taken(f->code, m->a, operand(m, f)) ? f->jt : f->jf;
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
			pc += jump_offset(&m, f);
			break;
		case BPF_ALU:
			m.a = alu(f->code, m.a, operand(&m, f), &div_zero);
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
			if (f->k == UJS_SD_NR)
				reg = nr;
			else if (f->k == UJS_SD_ARCH)
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

