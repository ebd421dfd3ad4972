/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One traced run, from fork to written policy: what utrace does for its
 * command and ujail --trace for a jail.
 */
#ifndef UTRACE_RUN_H
#define UTRACE_RUN_H

#include <stdbool.h>

#include "utrace/policy_out.h"
#include "utrace/session.h"

struct utrace_run_opts {
	const char *output;	/* the policy file; NULL: /tmp/NAME.PID.json */
	const char *name;	/* NAME of the default file */
	struct utrace_out out;
	bool summary;		/* the counts table on stderr */
};

/*
 * Run @child(@arg) in a forked process (see utrace_spawn()), which calls
 * utrace_session_begin(@s) last before its execve(), and count what it
 * and all it starts call, passing signals on, until every one of them is
 * gone; then write the policy. Returns 0 with the traced process's wait status in
 * @wait_status, or the exit status to end with after a message on stderr
 * (127: not started; 1: tracing or writing failed).
 */
int utrace_run(const struct utrace_run_opts *ro, const struct utrace_session *s,
	       int (*child)(void *), void *arg, int *wait_status);

#endif
