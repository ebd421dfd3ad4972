/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracer: follows a process and everything it forks, vforks and
 * clones (PTRACE_SEIZE with the fork, vfork, clone, exec and seccomp
 * events), counts the PTRACE_EVENT_SECCOMP stops that the tracing filter
 * (filter.h) causes, one per syscall, and passes signals on.
 */
#ifndef UTRACE_TRACE_H
#define UTRACE_TRACE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "utrace/counts.h"
#include "utrace/filter.h"

struct utrace_tracer {
	pid_t main;			/* the traced program (our child) */
	int main_status;		/* its wait status, once main_done */
	bool main_done;
	struct utrace_counts counts;
	unsigned long stops;		/* every ptrace stop, for --summary */
};

/*
 * Signals the tracer passes on to the traced program; block them (into
 * @old) before the program is forked, so none is lost before
 * utrace_forward_signals().
 */
void utrace_block_signals(sigset_t *old);

/*
 * From now on, the signals of utrace_block_signals() sent to the tracer by
 * a process go to @pid (those from the terminal reach the program on
 * their own); unblocks them.
 */
void utrace_forward_signals(pid_t pid, const sigset_t *old);

/*
 * Fork; the child waits until it is traced (@seize: with ptrace; else it
 * gets SIGKILL when the tracer dies), restores @old, and exits with what
 * @child(@arg) returns (if it returns: it may exec). Returns the child's
 * pid, or -1 with @err (nothing is left running).
 */
pid_t utrace_spawn(int (*child)(void *), void *arg, const sigset_t *old, bool seize,
		   char *err, size_t errlen);

/*
 * Follow every traced process until none is left; @t->main must be set.
 * Without ptrace (the ebpf backend) this waits for the child and, the
 * caller being a child subreaper, for every descendant orphaned on the
 * way. 0, or -1 with @err (out of memory, or waitpid failed).
 */
int utrace_follow(struct utrace_tracer *t, char *err, size_t errlen);

/* Exit as the program did: its exit status, or the same signal. */
__attribute__((noreturn))
void utrace_exit_like(int wait_status);

#endif
