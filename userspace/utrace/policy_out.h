/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The policy utrace writes: the names of the calls seen, most frequent
 * first, then those every program needs when it gets there (return from a
 * signal handler, exit), allowed; everything else gets the default action. OCI seccomp
 * JSON (what procd reads) or procd's 2015 format. What is written is
 * parsed back with the project's policy parser before it replaces the
 * file, so a policy utrace writes always loads.
 */
#ifndef UTRACE_POLICY_OUT_H
#define UTRACE_POLICY_OUT_H

#include <stdbool.h>
#include <stddef.h>

#include "seccomp/policy.h"
#include "utrace/counts.h"

enum utrace_format {
	UTRACE_FORMAT_OCI,
	UTRACE_FORMAT_LEGACY,
};

struct utrace_out {
	enum utrace_format format;
	struct ujs_action default_action;
	bool default_errno;		/* default_action.data was given */
	/* --coverage: the previous policy, its names come first; or NULL. */
	const struct ujs_policy *seen;
};

/* "oci" or "legacy"; -1 with @err otherwise. */
int utrace_format_parse(const char *text, enum utrace_format *f, char *err, size_t errlen);

/*
 * ACTION or ACTION:ERRNO (SCMP_ACT_ERRNO:13) into @o, checked against
 * the format by rendering an example policy. -1 with @err.
 */
int utrace_default_parse(const char *text, struct utrace_out *o, char *err, size_t errlen);

/*
 * Write the policy of @c to @path (through a temporary file in the same
 * directory, renamed). Calls no table names are left out with a warning,
 * as are, in the 2015 format (which lists no architectures), the calls of
 * other architectures than the native one. 0 or -1 with @err.
 */
int utrace_policy_write(const char *path, const struct utrace_out *o,
			const struct utrace_counts *c, char *err, size_t errlen);

/* Check now that @path's directory takes a new file. 0 or -1 with @err. */
int utrace_output_check(const char *path, char *err, size_t errlen);

#endif
