/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the BPF tools (bpf.c, bpf_dump.c) and the compiler share about
 * instructions (internal): the seccomp_data words, the jump kinds, and
 * one instruction as text for messages.
 */
#ifndef UJS_BPF_INSN_H
#define UJS_BPF_INSN_H

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UJS_SD_SIZE	((uint32_t)sizeof(struct seccomp_data))
#define UJS_SD_NR	((uint32_t)offsetof(struct seccomp_data, nr))
#define UJS_SD_ARCH	((uint32_t)offsetof(struct seccomp_data, arch))
#define UJS_SD_IP	((uint32_t)offsetof(struct seccomp_data, instruction_pointer))
#define UJS_SD_ARGS	((uint32_t)offsetof(struct seccomp_data, args))

/* A jump with two targets (jt, jf). */
static inline bool ujs_bpf_is_cond_jump(uint16_t code)
{
	return BPF_CLASS(code) == BPF_JMP && BPF_OP(code) != BPF_JA;
}

/* `ja`: one target, a 32-bit offset. */
static inline bool ujs_bpf_is_ja(uint16_t code)
{
	return code == (BPF_JMP | BPF_JA);
}

/* Longest line the disassembler writes, annotations included. */
#define UJS_BPF_INSN_TEXT_MAX 160

/* The instruction @f at @pc as text, without what comes before it. */
void ujs_bpf_format_insn(char *buf, size_t n, const struct sock_filter *f,
			 size_t pc);

#endif
