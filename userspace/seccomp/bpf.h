/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Classic BPF seccomp programs offline: validation as the kernel does it,
 * a simulator, the kernel's constant-action analysis, and a disassembler.
 */
#ifndef UJS_BPF_H
#define UJS_BPF_H

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The checks of the kernel's seccomp_check_filter()/bpf_check_classic(). */
int ujs_bpf_validate(const struct sock_filter *insns, size_t len,
		     char *err, size_t errlen);

/* Run the program on @data; the SECCOMP_RET_* value is stored in @ret. */
int ujs_bpf_run(const struct sock_filter *insns, size_t len,
		const struct seccomp_data *data, uint32_t *ret,
		char *err, size_t errlen);

/*
 * Mirror of the kernel's seccomp_is_const_allow() (5.11+): true when the
 * program allows (@arch, @nr) without looking at anything else, so the
 * kernel caches the decision.
 */
bool ujs_bpf_const_allow(const struct sock_filter *insns, size_t len,
			 uint32_t arch, uint32_t nr);

/*
 * Readable disassembly, one instruction per line with its index, jump
 * targets as absolute indexes, seccomp_data offsets by field name, and
 * syscall names next to comparisons with the number when the arch is known.
 */
void ujs_bpf_dump(const struct sock_filter *insns, size_t len, FILE *out);

#endif
