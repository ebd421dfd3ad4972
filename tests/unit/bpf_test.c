/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bpf.c and bpf_dump.c: the kernel's load checks, the interpreter, the
 * constant-action analysis and the disassembler, on hand-written programs.
 */
#include <errno.h>
#include <linux/audit.h>
#include <stdlib.h>
#include <string.h>

#include "bpf.h"
#include "program.h"
#include "syscalls.h"
#include "tap.h"
#include "test_util.h"

#define STMT(code, k) ((struct sock_filter)BPF_STMT(code, k))
#define JUMP(code, k, jt, jf) ((struct sock_filter)BPF_JUMP(code, k, jt, jf))
#define RET_K(k) STMT(BPF_RET | BPF_K, k)

#define OFF_NR   offsetof(struct seccomp_data, nr)
#define OFF_ARCH offsetof(struct seccomp_data, arch)
#define OFF_ARG(i) (offsetof(struct seccomp_data, args) + 8 * (i))

/* ------------------------------------------------------------------ */
/* Validator                                                           */

struct bad_case {
	const char *what;
	struct sock_filter insns[4];
	size_t len;
	const char *expect;	/* in the message, with the index */
};

static void test_validate_rejects(void)
{
	static const struct bad_case cases[] = {
		{ "unknown opcode", { STMT(0xffff, 0), RET_K(0) }, 2,
		  "insn 0: unknown opcode 0xffff" },
		{ "ld beyond seccomp_data", { STMT(BPF_LD | BPF_W | BPF_ABS, 64), RET_K(0) }, 2,
		  "insn 0 (ld  [0x40]): offset 64 is beyond" },
		{ "ld unaligned", { STMT(BPF_LD | BPF_W | BPF_ABS, 2), RET_K(0) }, 2,
		  "insn 0 (ld  [0x2]): offset 2 is not 4-byte aligned" },
		{ "ld ancillary", { STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_PROTOCOL), RET_K(0) }, 2,
		  "insn 0" },
		{ "ldh", { STMT(BPF_LD | BPF_H | BPF_ABS, 0), RET_K(0) }, 2,
		  "insn 0 (ldh [0]): seccomp allows only 32-bit loads" },
		{ "ldb", { STMT(BPF_LD | BPF_B | BPF_ABS, 0), RET_K(0) }, 2,
		  "insn 0 (ldb [0])" },
		{ "ld ind", { RET_K(0), STMT(BPF_LD | BPF_W | BPF_IND, 0), RET_K(0) }, 3,
		  "insn 1 (ld  [x+0])" },
		{ "ldxb msh", { STMT(BPF_LDX | BPF_B | BPF_MSH, 0), RET_K(0) }, 2,
		  "insn 0 (ldxb 4*([0]&0xf))" },
		{ "mod k", { STMT(BPF_ALU | BPF_MOD | BPF_K, 3), RET_K(0) }, 2,
		  "insn 0 (mod #0x3): seccomp does not allow mod" },
		{ "mod x", { STMT(BPF_ALU | BPF_MOD | BPF_X, 0), RET_K(0) }, 2,
		  "insn 0 (mod x)" },
		{ "div by constant 0", { STMT(BPF_LD | BPF_IMM, 1), STMT(BPF_ALU | BPF_DIV | BPF_K, 0), RET_K(0) }, 3,
		  "insn 1 (div #0x0): division by constant 0" },
		{ "lsh 32", { STMT(BPF_ALU | BPF_LSH | BPF_K, 32), RET_K(0) }, 2,
		  "insn 0 (lsh #0x20): shift by 32" },
		{ "rsh 40", { STMT(BPF_ALU | BPF_RSH | BPF_K, 40), RET_K(0) }, 2,
		  "insn 0" },
		{ "st M[16]", { STMT(BPF_ST, 16), RET_K(0) }, 2,
		  "insn 0 (st  M[16]): scratch memory index 16" },
		{ "ldx M[20]", { STMT(BPF_ST, 0), STMT(BPF_LDX | BPF_MEM, 20), RET_K(0) }, 3,
		  "insn 1" },
		{ "ja past the end", { STMT(BPF_JMP | BPF_JA, 1), RET_K(0) }, 2,
		  "insn 0 (ja  2): jump past the last instruction 1" },
		{ "jt past the end", { JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 2, 0), RET_K(0), RET_K(1) }, 3,
		  "insn 0 (jeq #0x0 -> 3 else 1): jump past" },
		{ "jf past the end", { JUMP(BPF_JMP | BPF_JGT | BPF_X, 0, 0, 7), RET_K(0) }, 2,
		  "insn 0" },
		{ "no final ret", { RET_K(0), STMT(BPF_LD | BPF_IMM, 0) }, 2,
		  "insn 1: the last instruction must be a ret" },
		{ "M read before write", { STMT(BPF_LD | BPF_MEM, 3), RET_K(0) }, 2,
		  "insn 0 (ld  M[3]): reads M[3] before it is written" },
		{ "M written on one path only",
		  { JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1), STMT(BPF_ST, 5),
		    STMT(BPF_LDX | BPF_MEM, 5), RET_K(0) }, 4,
		  "insn 2 (ldx M[5]): reads M[5]" },
	};
	char err[256];
	size_t i;

	for (i = 0; i < LEN(cases); i++) {
		int r = ujs_bpf_validate(cases[i].insns, cases[i].len, err, sizeof(err));

		ok(r == -1 && strstr(err, cases[i].expect),
		   "validate rejects %s: \"%s\"", cases[i].what, r ? err : "accepted");
	}
}

static void test_validate_limits(void)
{
	struct sock_filter *big = calloc(BPF_MAXINSNS + 1, sizeof(*big));
	struct sock_filter one = RET_K(SECCOMP_RET_ALLOW);
	char err[256];
	size_t i;

	for (i = 0; i <= BPF_MAXINSNS; i++)
		big[i] = RET_K(SECCOMP_RET_ALLOW);
	ok(ujs_bpf_validate(big, 0, err, sizeof(err)) == -1 &&
	   strstr(err, "empty"), "validate rejects an empty program: %s", err);
	ok(ujs_bpf_validate(big, BPF_MAXINSNS, err, sizeof(err)) == 0,
	   "validate accepts %d instructions", BPF_MAXINSNS);
	ok(ujs_bpf_validate(big, BPF_MAXINSNS + 1, err, sizeof(err)) == -1 &&
	   strstr(err, "4097 instructions, more than the kernel's limit of 4096"),
	   "validate rejects 4097 instructions: %s", err);
	ok(ujs_bpf_validate(&one, 1, err, sizeof(err)) == 0,
	   "validate accepts a lone ret");
	free(big);
}

static void test_validate_accepts(void)
{
	/* Every seccomp-legal form, M[] written on both paths of a branch. */
	const struct sock_filter prog[] = {
		STMT(BPF_LD | BPF_W | BPF_LEN, 0),
		STMT(BPF_LDX | BPF_W | BPF_LEN, 0),
		STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARG(5) + 4),
		STMT(BPF_ALU | BPF_DIV | BPF_X, 0),
		STMT(BPF_ALU | BPF_LSH | BPF_K, 31),
		JUMP(BPF_JMP | BPF_JSET | BPF_K, 1, 0, 2),
		STMT(BPF_ST, 15),
		STMT(BPF_JMP | BPF_JA, 1),
		STMT(BPF_STX, 15),
		STMT(BPF_LD | BPF_MEM, 15),
		STMT(BPF_MISC | BPF_TAX, 0),
		STMT(BPF_MISC | BPF_TXA, 0),
		STMT(BPF_ALU | BPF_NEG, 0),
		STMT(BPF_RET | BPF_A, 0),
	};
	char err[256] = "";

	ok(ujs_bpf_validate(prog, LEN(prog), err, sizeof(err)) == 0,
	   "validate accepts every seccomp-legal form %s", err);
}

/* ------------------------------------------------------------------ */
/* Interpreter                                                         */

static uint32_t run(const struct sock_filter *prog, size_t len,
		    const struct seccomp_data *d)
{
	char err[256];
	uint32_t ret = 0xdeadbeef;

	if (ujs_bpf_run(prog, len, d, &ret, err, sizeof(err))) {
		printf("# run: %s\n", err);
		return 0xdeadbeef;
	}
	return ret;
}

/* A = A op operand, returned by `ret a`; the operand in k or in X. */
static uint32_t alu_result(uint16_t op, uint32_t a, uint32_t operand, bool x)
{
	const struct sock_filter prog[] = {
		STMT(BPF_LDX | BPF_IMM, operand),
		STMT(BPF_LD | BPF_IMM, a),
		STMT(BPF_ALU | op | (x ? BPF_X : BPF_K), operand),
		STMT(BPF_RET | BPF_A, 0),
	};
	struct seccomp_data d = { 0 };

	return run(prog, LEN(prog), &d);
}

static void test_run_alu(void)
{
	static const struct {
		uint16_t op;
		uint32_t a, b, want;
	} cases[] = {
		{ BPF_ADD, 0xffffffff, 2, 1 },
		{ BPF_SUB, 1, 2, 0xffffffff },
		{ BPF_MUL, 0x10000, 0x10001, 0x10000 },
		{ BPF_DIV, 100, 7, 14 },
		{ BPF_AND, 0xf0f0, 0xff00, 0xf000 },
		{ BPF_OR, 0xf0f0, 0x0f00, 0xfff0 },
		{ BPF_XOR, 0xff, 0x0f, 0xf0 },
		{ BPF_LSH, 1, 31, 0x80000000 },
		{ BPF_RSH, 0x80000000, 31, 1 },
	};
	size_t i;

	for (i = 0; i < LEN(cases); i++) {
		ok(alu_result(cases[i].op, cases[i].a, cases[i].b, false) == cases[i].want &&
		   alu_result(cases[i].op, cases[i].a, cases[i].b, true) == cases[i].want,
		   "run: alu op 0x%02x on 0x%x, 0x%x = 0x%x (k and x)",
		   cases[i].op, cases[i].a, cases[i].b, cases[i].want);
	}
	ok(alu_result(BPF_NEG, 5, 0, false) == (uint32_t)-5, "run: neg");
	ok(alu_result(BPF_DIV, 5, 0, true) == 0,
	   "run: division by X = 0 ends the program with 0");
}

static void test_run_data_and_memory(void)
{
	const struct sock_filter prog[] = {
		/* M[0] = nr, M[1] = args[1] low word, X = M[1] */
		STMT(BPF_LD | BPF_W | BPF_ABS, OFF_NR),
		STMT(BPF_ST, 0),
		STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARG(1)),
		STMT(BPF_MISC | BPF_TAX, 0),
		STMT(BPF_STX, 1),
		STMT(BPF_LDX | BPF_MEM, 1),
		STMT(BPF_LD | BPF_MEM, 0),
		/* A = nr + args[1].lo; then jumps with X and K */
		STMT(BPF_ALU | BPF_ADD | BPF_X, 0),
		JUMP(BPF_JMP | BPF_JGT | BPF_X, 0, 0, 3),	/* A > X: nr != 0 */
		JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x100, 1, 0),
		RET_K(SECCOMP_RET_ERRNO | 1),
		RET_K(SECCOMP_RET_ERRNO | 2),
		STMT(BPF_LD | BPF_W | BPF_LEN, 0),
		JUMP(BPF_JMP | BPF_JEQ | BPF_K, sizeof(struct seccomp_data), 0, 1),
		STMT(BPF_MISC | BPF_TXA, 0),
		STMT(BPF_RET | BPF_A, 0),
	};
	struct seccomp_data d = { .nr = 0x100, .args = { 0, 0x1111111100000007ULL } };

	ok(run(prog, LEN(prog), &d) == (SECCOMP_RET_ERRNO | 2),
	   "run: scratch memory, tax, add x, jgt x, jset taken");
	d.nr = 0x200;
	ok(run(prog, LEN(prog), &d) == (SECCOMP_RET_ERRNO | 1),
	   "run: jset not taken");
	d.nr = 0;
	ok(run(prog, LEN(prog), &d) == 7,
	   "run: ld #len is 64, txa, ret a returns the low word of args[1]");
}

static void test_run_compares(void)
{
	const struct sock_filter prog[] = {
		STMT(BPF_LD | BPF_W | BPF_ABS, OFF_NR),
		JUMP(BPF_JMP | BPF_JGE | BPF_K, 10, 0, 3),
		JUMP(BPF_JMP | BPF_JEQ | BPF_K, 10, 0, 1),
		RET_K(SECCOMP_RET_ALLOW),
		RET_K(SECCOMP_RET_TRAP),
		RET_K(SECCOMP_RET_KILL_PROCESS),
	};
	struct seccomp_data d = { 0 };
	static const struct {
		int nr;
		uint32_t want;
	} cases[] = {
		{ 9, SECCOMP_RET_KILL_PROCESS }, { 10, SECCOMP_RET_ALLOW },
		{ 11, SECCOMP_RET_TRAP }, { -1, SECCOMP_RET_TRAP },
	};
	size_t i;

	for (i = 0; i < LEN(cases); i++) {
		d.nr = cases[i].nr;
		ok(run(prog, LEN(prog), &d) == cases[i].want,
		   "run: jge/jeq with nr %d (unsigned)", cases[i].nr);
	}
}

static void test_run_invalid(void)
{
	const struct sock_filter prog[] = { STMT(BPF_LD | BPF_MEM, 0), RET_K(0) };
	struct seccomp_data d = { 0 };
	char err[256] = "";
	uint32_t ret;

	ok(ujs_bpf_run(prog, LEN(prog), &d, &ret, err, sizeof(err)) == -1 &&
	   strstr(err, "insn 0"), "run refuses an invalid program: %s", err);
}

/* ------------------------------------------------------------------ */
/* Constant-action analysis                                            */

static void test_const_allow(void)
{
	const uint32_t x86 = AUDIT_ARCH_X86_64;
	/* The shape of a compiled filter: arch, tree, arg check. */
	const struct sock_filter tree[] = {
		STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARCH),
		JUMP(BPF_JMP | BPF_JEQ | BPF_K, x86, 0, 8),
		STMT(BPF_LD | BPF_W | BPF_ABS, OFF_NR),
		JUMP(BPF_JMP | BPF_JGE | BPF_K, 100, 1, 0),
		JUMP(BPF_JMP | BPF_JEQ | BPF_K, 39, 4, 5),
		JUMP(BPF_JMP | BPF_JGT | BPF_K, 200, 0, 1),
		STMT(BPF_JMP | BPF_JA, 2),
		STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARG(0)),
		JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
		RET_K(SECCOMP_RET_ALLOW),
		RET_K(SECCOMP_RET_ERRNO | 1),
	};
	const struct sock_filter masked[] = {
		STMT(BPF_LD | BPF_W | BPF_ABS, OFF_NR),
		STMT(BPF_ALU | BPF_AND | BPF_K, 0xff),
		JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x80, 1, 0),
		RET_K(SECCOMP_RET_ALLOW),
		RET_K(SECCOMP_RET_LOG),
	};
	const struct sock_filter add[] = {
		STMT(BPF_LD | BPF_W | BPF_ABS, OFF_NR),
		STMT(BPF_ALU | BPF_ADD | BPF_K, 1),
		RET_K(SECCOMP_RET_ALLOW),
	};
	const struct sock_filter jeq_x[] = {
		STMT(BPF_LDX | BPF_IMM, 5),
		RET_K(SECCOMP_RET_ALLOW),
	};
	const struct sock_filter len[] = {
		STMT(BPF_LD | BPF_W | BPF_LEN, 0),
		RET_K(SECCOMP_RET_ALLOW),
	};
	const struct sock_filter ret_a[] = {
		STMT(BPF_LD | BPF_IMM, SECCOMP_RET_ALLOW),
		STMT(BPF_RET | BPF_A, 0),
	};

	ok(ujs_bpf_const_allow(tree, LEN(tree), x86, 39),
	   "const_allow: jeq leaf to ret ALLOW");
	ok(ujs_bpf_const_allow(tree, LEN(tree), x86, 300),
	   "const_allow: jgt then ja to ret ALLOW");
	ok(!ujs_bpf_const_allow(tree, LEN(tree), x86, 40),
	   "const_allow: a path to ret ERRNO is not");
	ok(!ujs_bpf_const_allow(tree, LEN(tree), x86, 150),
	   "const_allow: a path loading args[0] is not");
	ok(!ujs_bpf_const_allow(tree, LEN(tree), AUDIT_ARCH_I386, 39),
	   "const_allow: another arch goes to ret ERRNO");
	ok(ujs_bpf_const_allow(masked, LEN(masked), x86, 0x101) &&
	   !ujs_bpf_const_allow(masked, LEN(masked), x86, 0x180),
	   "const_allow: and #k and jset are emulated");
	ok(!ujs_bpf_const_allow(add, LEN(add), x86, 1),
	   "const_allow: add is not emulated");
	ok(!ujs_bpf_const_allow(jeq_x, LEN(jeq_x), x86, 1),
	   "const_allow: ldx is not emulated");
	ok(!ujs_bpf_const_allow(len, LEN(len), x86, 1),
	   "const_allow: ld #len (seen unrewritten) is not emulated");
	ok(!ujs_bpf_const_allow(ret_a, LEN(ret_a), x86, 1),
	   "const_allow: ret a is not constant");
	ok(!ujs_bpf_const_allow(masked, 2, x86, 1),
	   "const_allow: an invalid program is not");
}

/* ------------------------------------------------------------------ */
/* Disassembler                                                        */

static char *dump(const struct sock_filter *prog, size_t len)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	ujs_bpf_dump(prog, len, f);
	fclose(f);
	return buf;
}

static void test_dump(void)
{
	const struct sock_filter prog[] = {
		STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARCH),
		JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 2, 0),
		JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_I386, 8, 0),
		RET_K(SECCOMP_RET_KILL_PROCESS),
		STMT(BPF_LD | BPF_W | BPF_ABS, OFF_NR),
		JUMP(BPF_JMP | BPF_JEQ | BPF_K, 39, 7, 0),
		JUMP(BPF_JMP | BPF_JEQ | BPF_K, 257, 0, 7),
		STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARG(2)),
		STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARG(2) + 4),
		JUMP(BPF_JMP | BPF_JSET | BPF_K, 1, 5, 3),
		STMT(BPF_JMP | BPF_JA, 5),
		STMT(BPF_LD | BPF_W | BPF_ABS, OFF_NR),
		JUMP(BPF_JMP | BPF_JEQ | BPF_K, 20, 0, 2),
		RET_K(SECCOMP_RET_ALLOW),
		RET_K(SECCOMP_RET_LOG_ERRNO | 13),
		RET_K(SECCOMP_RET_ERRNO | 1),
		RET_K(SECCOMP_RET_TRACE | 7),
	};
	const char *expect =
		"   0: ld  [arch]\n"
		"   1: jeq #0xc000003e (x86_64) -> 4 else 2\n"
		"   2: jeq #0x40000003 (i386) -> 11 else 3\n"
		"   3: ret KILL_PROCESS\n"
		"   4: ld  [nr]\n"
		"   5: jeq #0x27 (getpid) -> 13 else 6\n"
		"   6: jeq #0x101 (openat) -> 7 else 14\n"
		"   7: ld  [args[2].lo]\n"
		"   8: ld  [args[2].hi]\n"
		"   9: jset #0x1 -> 15 else 13\n"
		"  10: ja  16\n"
		"  11: ld  [nr]\n"
		"  12: jeq #0x14 (getpid) -> 13 else 15\n"
		"  13: ret ALLOW\n"
		"  14: ret LOG_ERRNO(13)\n"
		"  15: ret ERRNO(1)\n"
		"  16: ret TRACE(7)\n";
	/* Big-endian mips: args[0] high word first; 4020 is getpid. */
	const struct sock_filter mips_be[] = {
		STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARCH),
		JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_MIPS, 0, 3),
		STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARG(0)),
		STMT(BPF_LD | BPF_W | BPF_ABS, OFF_NR),
		JUMP(BPF_JMP | BPF_JEQ | BPF_K, 4020, 0, 0),
		RET_K(SECCOMP_RET_KILL_THREAD),
	};
	const char *expect_mips =
		"   0: ld  [arch]\n"
		"   1: jeq #0x8 (mips) -> 2 else 5\n"
		"   2: ld  [args[0].hi]\n"
		"   3: ld  [nr]\n"
		"   4: jeq #0xfb4 (getpid) -> 5 else 5\n"
		"   5: ret KILL_THREAD\n";
	char *text = dump(prog, LEN(prog));

	ok(!strcmp(text, expect), "dump of a known program");
	if (strcmp(text, expect))
		printf("# got:\n%s", text);
	free(text);
	text = dump(mips_be, LEN(mips_be));
	ok(!strcmp(text, expect_mips), "dump: big-endian halves and mips names");
	if (strcmp(text, expect_mips))
		printf("# got:\n%s", text);
	free(text);
}

int main(void)
{
	test_validate_rejects();
	test_validate_limits();
	test_validate_accepts();
	test_run_alu();
	test_run_data_and_memory();
	test_run_compares();
	test_run_invalid();
	test_const_allow();
	test_dump();
	return tap_done();
}
