/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ujail-keeper: what stays resident of a jail while its service runs.
 * ujail plans and builds the jail with its full weight (json-c, libcap,
 * the policy compiler); then both of its long-lived processes exec this
 * small static program, so a running jail costs tens of KB instead of a
 * copy of ujail per process. The command line is ujail's internal
 * interface, not a user's:
 *
 *   ujail-keeper watch NAME STUB STATUS_FD TIMEOUT PIDFILE|"" [IFINDEX|"" [CGROUP|"" [RECORD]]]
 *	in place of the outer ujail: forwards signals to the stub, sends
 *	SIGKILL TIMEOUT seconds after a SIGTERM, writes PIDFILE (the
 *	service's host pid) when the service reports its start on
 *	STATUS_FD, removes it at the end, and exits with the jail's status;
 *	once the stub ended, it ends the jail's CGROUP (keeper_cgroup_end)
 *	and deletes the host's interface IFINDEX (--veth); last it removes
 *	the jail's RECORD (registry.h), whose lock it inherited.
 *   ujail-keeper init NAME SERVICE [NOTIFY_FD PROGRAM_FD]
 *	as the jail's PID 1: forwards signals to SERVICE, reaps every
 *	process, and once SERVICE ended waits for the members that joined
 *	the jail (ujail --join, members.c), then kills the rest and exits with its
 *	status; with NOTIFY_FD (seccomp notify mode) it also gets the
 *	filter's listener there and answers each denial with the errno of
 *	the compiled program in PROGRAM_FD.
 *
 * ujail blocks keeper_signals() before the exec: what arrives in between
 * stays pending across it and is read from a signalfd afterwards.
 */
#ifndef UJAIL_KEEPER_H
#define UJAIL_KEEPER_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>
#include <sys/wait.h>

/* Exit status when the keeper itself cannot do its job. */
#define KEEPER_EXIT_SETUP 1

/* The signals passed on to the service, and SIGCHLD. */
static inline void keeper_signals(sigset_t *set)
{
	static const int forwarded[] = {
		SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGCHLD,
	};

	sigemptyset(set);
	for (unsigned int i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaddset(set, forwarded[i]);
}

/* 128 + signal for a killed process, else its exit code. */
static inline int keeper_exit_code(int wait_status)
{
	return WIFSIGNALED(wait_status) ? 128 + WTERMSIG(wait_status) :
	       WEXITSTATUS(wait_status);
}

struct keeper_watch {
	const char *name;
	pid_t stub;
	int status_fd;			/* -1: none */
	unsigned int term_timeout;	/* seconds from SIGTERM to SIGKILL */
	const char *pidfile;		/* NULL: none */
	int host_ifindex;		/* --veth's host end, deleted at the end; 0: none */
	const char *cgroup;		/* the jail's cgroup directory, or NULL */
	const char *record;		/* the jail's record (--join), or NULL */
};

struct keeper_init {
	const char *name;
	pid_t service;
	int notify_fd;			/* -1: no seccomp supervision */
	int program_fd;
};

/*
 * End cgroup @path (cgroup_end.c): SIGKILL all in it (cgroup.kill, or each
 * pid of cgroup.procs before Linux 5.14), wait until it is empty, remove
 * it and any cgroup below. 0, or -1 with the reason in @err.
 */
int keeper_cgroup_end(const char *path, char *err, size_t errlen);

int keeper_watch_run(const struct keeper_watch *w);

/*
 * As the jail's PID 1, once its own service ended: wait until the members
 * that joined it (ujail --join) have ended too, forwarding the signals
 * read from @sigfd to them and reaping orphans. Returns at once when we
 * are not PID 1.
 */
void keeper_wait_members(const char *name, int sigfd);

/*
 * Delete interface @ifindex of our network namespace (RTM_DELLINK), so
 * that it is gone when we return: the kernel removes a veth pair with the
 * jail's namespace, but asynchronously. Gone already is fine.
 */
void keeper_delete_link(const char *name, int ifindex);
int keeper_init_run(const struct keeper_init *in);

#endif
