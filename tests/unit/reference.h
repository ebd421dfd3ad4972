/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reference evaluator: a policy read the plain way, for checking
 * compiled programs (compile_test, the compiler's fuzz target). It models
 * each ABI: 64-bit arguments on 64-bit ones; on 32-bit ones (i386, arm,
 * mips) the kernel passes them zero-extended and a rule's value means its
 * 32-bit form.
 */
#ifndef UJS_TEST_REFERENCE_H
#define UJS_TEST_REFERENCE_H

#include <linux/seccomp.h>
#include <stdbool.h>
#include <stdint.h>

#include "policy.h"

/* A 32-bit ABI: the kernel passes arguments zero-extended. */
bool narrow_abi(uint32_t audit);

/* Which table decides (@audit, @nr); NULL: the filter kills it. */
const struct ujs_arch *ref_arch(const struct ujs_policy *p,
				const struct ujs_arch *target,
				uint32_t audit, uint32_t nr);

/* The SECCOMP_RET_* value the policy gives (@audit, @nr, @args). */
uint32_t ref_decide(const struct ujs_policy *p, const struct ujs_arch *target,
		    uint32_t audit, uint32_t nr, const uint64_t *args);

/* Allowed whatever the arguments: the first rule of @nr, or the default. */
bool ref_allowed_by_number(const struct ujs_policy *p,
			   const struct ujs_arch *target,
			   uint32_t audit, uint32_t nr);

/* seccomp_data as the target's kernel lays it out (word order by endianness). */
struct seccomp_data ref_seccomp_data(uint32_t audit, uint32_t nr,
				     const uint64_t *args);

#endif
