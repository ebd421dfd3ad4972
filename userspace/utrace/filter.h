/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracee's seccomp filter: SECCOMP_RET_TRACE for every call, so the
 * tracer stops once per syscall (PTRACE_EVENT_SECCOMP), at its entry;
 * or, for --coverage, SECCOMP_RET_ALLOW for the calls a previous policy
 * already has and RET_TRACE for the rest. Built with the project's policy
 * compiler (userspace/seccomp).
 */
#ifndef UTRACE_FILTER_H
#define UTRACE_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "seccomp/compile.h"
#include "seccomp/policy.h"

struct utrace_filter {
	struct ujs_program prog;
};

/*
 * @seen: NULL (trace everything), or a policy of plain SCMP_ACT_ALLOW
 * names whose calls are let through on the architectures it lists.
 * 0, or -1 with @err.
 */
int utrace_filter_build(struct utrace_filter *f, const struct ujs_policy *seen,
			char *err, size_t errlen);

/*
 * Check that @seen is such a policy (what utrace writes): -1 with @err
 * naming the first rule that is not.
 */
int utrace_seen_check(const struct ujs_policy *seen, char *err, size_t errlen);

/*
 * Whether the filter built with @seen lets the call @nr of @audit_arch
 * run without a stop: its name is listed, on an architecture listed (the
 * native one when none is).
 */
bool utrace_seen_covers(const struct ujs_policy *seen, uint32_t audit_arch, uint32_t nr);

/*
 * Install @f in the calling thread. Without no_new_privs when the caller
 * may (CAP_SYS_ADMIN), so that set-user-ID programs keep their meaning;
 * else no_new_privs is set first, as the kernel requires. 0 or -1 with @err.
 */
int utrace_filter_install(const struct utrace_filter *f, char *err, size_t errlen);

void utrace_filter_free(struct utrace_filter *f);

#endif
