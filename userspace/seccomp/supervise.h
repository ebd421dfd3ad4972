/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runner as the supervisor of a filtered command (NOTIFY mode): it
 * takes the listener from the command, logs each LOG_ERRNO denial and
 * answers it with the errno of the policy; in every mode it forwards the
 * terminating signals to the command and waits for it.
 */
#ifndef UJS_SUPERVISE_H
#define UJS_SUPERVISE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "install.h"

struct ujs_supervisor {
	const char *name;		/* of the jail, in the log lines */
	/* The program as compiled, with its LOG_ERRNO returns. */
	const struct sock_filter *insns;
	size_t len;
	FILE *log;			/* the denial lines */
	/*
	 * For a jail's PID 1 (ujail): reap every child, not only the
	 * command, and return as soon as the command has ended, even if
	 * tasks it left still use the filter (the caller kills them).
	 */
	bool as_init;
};

/* The signals forwarded to the command, and SIGCHLD. */
void ujs_supervise_sigset(sigset_t *set);

/*
 * Supervise @child: @sigfd is a signalfd for ujs_supervise_sigset()
 * (blocked by the caller); @sock (or -1) is the socket the listener comes
 * on, closed by this function. Returns when the child has exited and no task of it uses the filter
 * any more, with the child's exit status (128 + signal when killed); -1
 * and a message if supervising fails (the child is then killed).
 */
int ujs_supervise(const struct ujs_supervisor *sv, pid_t child, int sigfd,
		  int sock, char *err, size_t errlen);

/* The longest task name (comm) the kernel keeps, without its NUL. */
#define UJS_COMM_MAX 15

/*
 * A task's name as the kernel's log_errno line (and audit) writes it: as
 * is when every byte is printable and neither a double quote nor a space,
 * else in upper-case hex, so that a task cannot name itself into a line
 * or field of its own. @comm is cut to what fits @len (2 * UJS_COMM_MAX + 1
 * holds any name).
 */
void ujs_log_comm(char *buf, size_t len, const char *comm);

/*
 * The line logged for a denial, without the newline. @comm as the task
 * named itself: it is written with ujs_log_comm().
 */
void ujs_denial_line(char *buf, size_t len, const char *jail, const char *comm,
		     pid_t pid, uint32_t audit_arch, uint32_t nr);

#endif
