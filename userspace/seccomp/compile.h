/* SPDX-License-Identifier: GPL-2.0 */
/* Policy -> classic BPF seccomp program. */
#ifndef UJS_COMPILE_H
#define UJS_COMPILE_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "policy.h"

struct ujs_program {
	struct sock_filter *insns;
	size_t len;
	uint32_t audit_arch;	/* of the target */
};

/*
 * Compile @p for @target (NULL = native). Layout: architecture check
 * first (unlisted architectures, and x32 on x86_64 unless listed, get
 * SECCOMP_RET_KILL_PROCESS); then a search tree over the syscall numbers
 * in which every syscall allowed by number alone reaches RET ALLOW without
 * reading an argument (the kernel's constant-action cache keeps it);
 * argument checks only on the paths of syscalls that have them.
 *
 * Arguments: on a 64-bit ABI all 64 bits are compared. The kernel passes a
 * 32-bit ABI's (i386, arm, mips) zero-extended, so there only the low word
 * is, against the value's 32-bit form (-1 matches 0xffffffff), and a value
 * that has none (ujs_arg_fits32) fails the compile. Caveat on 64-bit ABIs:
 * an int argument's high 32 bits are the caller's to set and the callee
 * ignores them, so "arg == -1" does not catch 0x00000000ffffffff there;
 * mask such arguments (SCMP_CMP_MASKED_EQ with 0xffffffff) to compare
 * what the callee sees.
 */
int ujs_compile(const struct ujs_policy *p, const struct ujs_arch *target,
		struct ujs_program *out, char *err, size_t errlen);
void ujs_program_free(struct ujs_program *prog);

/* @v as a 32-bit argument: its high word all zeros, or all ones with bit 31 set. */
static inline bool ujs_arg_fits32(uint64_t v)
{
	return v <= UINT32_MAX || v >= 0xffffffff80000000ULL;
}

/*
 * Print the rules the kernel cannot cache (argument checks, actions other
 * than ALLOW), one per line with their JSON path; returns how many.
 */
size_t ujs_report_uncacheable(const struct ujs_policy *p,
			      const struct ujs_arch *target, FILE *out);

#endif
