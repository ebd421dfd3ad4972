/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The baseline every jail gets, whatever its options (ujail.8, THE
 * BASELINE), unless --no-baseline, "no_baseline": true or
 * UJAIL_BASELINE=off relaxes it:
 *  - a seccomp filter that denies with an errno the calls no daemon needs
 *    and that open kernel attack surface (new user namespaces, io_uring,
 *    open_by_handle_at, bpf, ...); installed by the service before any -S
 *    policy, which is stacked on it;
 *  - with -f, nested user namespaces refused by the kernel's own limit
 *    (userns.h);
 *  - Landlock scoping (ABI 6, Linux 6.12+) where the kernel has it:
 *    abstract unix sockets and signals limited to the jail's service.
 * The filter is compiled on the host by the seccomp compiler; the service
 * installs it while it still holds CAP_SYS_ADMIN, so no_new_privs is not
 * forced on it (a root service without -c keeps set-uid programs working).
 */
#ifndef UJAIL_BASELINE_H
#define UJAIL_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options/options.h"
#include "seccomp/compile.h"

struct jail_baseline {
	bool on;
	const char *off_by;		/* what turned it off, for -d 1 */
	struct ujs_program filter;	/* compiled for the native architecture */
	int landlock_abi;		/* the kernel's, or -errno of the probe */
	uint64_t scopes;		/* Landlock scopes to apply (0: none) */
};

/*
 * On the host: is the baseline on (options, then $UJAIL_BASELINE), and
 * if so compile its filter and probe Landlock. @signals: scope signals
 * too (the jail's service; a --join member is confined by the jail's
 * pid namespace and must be able to signal the service); @abstract:
 * scope abstract unix sockets. 0, or -1 with @err.
 */
int jail_baseline_plan(struct jail_baseline *b, const struct jail_opts *o,
		       bool signals, bool abstract, char *err, size_t errlen);

/*
 * In the service, while it holds CAP_SYS_ADMIN in its user namespace and
 * before -S's filter: the Landlock scopes, then the filter. 0, or -1
 * with @err.
 */
int jail_baseline_apply(const struct jail_baseline *b, char *err, size_t errlen);

/* The -d 1 line: what is on, or why not. */
void jail_baseline_describe(const struct jail_baseline *b, char *buf, size_t len);

void jail_baseline_free(struct jail_baseline *b);

/*
 * The calls the filter answers ENOSYS (clone3, io_uring_*...), NULL-ended:
 * a -S policy that does not name them gets the same answer instead of its
 * default (jail_seccomp.h), so that a killing default does not turn the
 * baseline's fallback into a death (the kernel takes the strictest action).
 */
extern const char *const jail_baseline_enosys[];


#endif
