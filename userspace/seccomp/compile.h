/* SPDX-License-Identifier: GPL-2.0 */
/* Policy -> classic BPF seccomp program. */
#ifndef UJS_COMPILE_H
#define UJS_COMPILE_H

#include <linux/filter.h>
#include <stddef.h>
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
 */
int ujs_compile(const struct ujs_policy *p, const struct ujs_arch *target,
		struct ujs_program *out, char *err, size_t errlen);
void ujs_program_free(struct ujs_program *prog);

/*
 * Print the rules the kernel cannot cache (argument checks, actions other
 * than ALLOW), one per line with their JSON path; returns how many.
 */
size_t ujs_report_uncacheable(const struct ujs_policy *p,
			      const struct ujs_arch *target, FILE *out);

#endif
