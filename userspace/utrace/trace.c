// SPDX-License-Identifier: GPL-2.0
/* The tracer; see trace.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seccomp/errmsg.h"
#include "utrace/trace.h"

#define TRACE_OPTIONS (PTRACE_O_TRACESECCOMP | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | \
		       PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL)

static const int forwarded[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGWINCH,
};

static volatile pid_t forward_to;
/* SIGCHLD as our caller left it (SIG_IGN would reap our child for us). */
static struct sigaction caller_sigchld;

static void forward(int sig, siginfo_t *info, void *ctx)
{
	(void)ctx;
	/* si_code > 0: sent by the kernel (the terminal); the program has it too. */
	if (info->si_code <= 0 && forward_to > 0)
		kill(forward_to, sig);
}

static void forwarded_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaddset(set, forwarded[i]);
}

void utrace_block_signals(sigset_t *old)
{
	sigset_t set;

	forwarded_set(&set);
	sigprocmask(SIG_BLOCK, &set, old);
}

void utrace_forward_signals(pid_t pid, const sigset_t *old)
{
	struct sigaction sa = { .sa_sigaction = forward, .sa_flags = SA_SIGINFO | SA_RESTART };

	forward_to = pid;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaction(forwarded[i], &sa, NULL);
	sigprocmask(SIG_SETMASK, old, NULL);
}

/*
 * Attach to @pid with the options the tracer needs (also the stopped
 * child of a fork). 0 or -1 with @err.
 */
static int seize_tracee(pid_t pid, char *err, size_t errlen)
{
	if (ptrace(PTRACE_SEIZE, pid, NULL, (void *)(long)TRACE_OPTIONS) < 0)
		return ujs_fail(err, errlen, "ptrace(PTRACE_SEIZE) of pid %d: %s", (int)pid,
				strerror(errno));
	return 0;
}

__attribute__((noreturn))
static void child_run(int (*child)(void *), void *arg, const sigset_t *old, int go,
		      bool seized, pid_t tracer)
{
	char byte;

	/*
	 * Not traced: as PTRACE_O_EXITKILL would, die with the tracer; the
	 * check closes the window before the prctl().
	 */
	if (!seized && (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != tracer))
		_exit(127);
	/* EOF without the byte: the tracer could not attach. */
	if (read(go, &byte, 1) != 1)
		_exit(127);
	close(go);
	sigaction(SIGCHLD, &caller_sigchld, NULL);
	sigprocmask(SIG_SETMASK, old, NULL);
	_exit(child(arg));
}

pid_t utrace_spawn(int (*child)(void *), void *arg, const sigset_t *old, bool seize,
		   char *err, size_t errlen)
{
	pid_t tracer = getpid(), pid;
	int go[2];

	const struct sigaction dfl = { .sa_handler = SIG_DFL };

	if (pipe2(go, O_CLOEXEC) < 0)
		return ujs_fail(err, errlen, "pipe: %s", strerror(errno));
	sigaction(SIGCHLD, &dfl, &caller_sigchld);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(go[0]);
		close(go[1]);
		return ujs_fail(err, errlen, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(go[1]);
		child_run(child, arg, old, go[0], seize, tracer);
	}
	close(go[0]);
	if ((seize && seize_tracee(pid, err, errlen)) || write(go[1], "g", 1) != 1) {
		close(go[1]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	close(go[1]);
	return pid;
}

static int count_call(struct utrace_tracer *t, pid_t pid)
{
	struct __ptrace_syscall_info info;

	/* For valgrind, which does not know that the kernel fills it. */
	memset(&info, 0, sizeof(info));
	/* ESRCH: killed (SIGKILL) in the stop; its call never ran. */
	if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(info), &info) <= 0 ||
	    info.op != PTRACE_SYSCALL_INFO_SECCOMP)
		return 0;
	return utrace_count_add(&t->counts, info.arch, (uint32_t)info.seccomp.nr);
}

static bool is_stop_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

/* One ptrace stop of @pid: count it, then let it go on. */
static int handle_stop(struct utrace_tracer *t, pid_t pid, int status)
{
	int sig = WSTOPSIG(status), event = (unsigned int)status >> 16, inject = 0;

	t->stops++;
	switch (event) {
	case PTRACE_EVENT_SECCOMP:
		if (count_call(t, pid))
			return -1;
		break;
	case PTRACE_EVENT_STOP:
		/* A group-stop (SEIZE reports them so): stay stopped, like the untraced. */
		if (is_stop_signal(sig)) {
			ptrace(PTRACE_LISTEN, pid, NULL, NULL);
			return 0;
		}
		break;
	case 0:
		inject = sig;	/* a signal on its way: deliver it */
		break;
	default:
		break;		/* fork, vfork, clone, exec: the new ones are traced too */
	}
	ptrace(PTRACE_CONT, pid, NULL, (void *)(long)inject);
	return 0;
}

int utrace_follow(struct utrace_tracer *t, char *err, size_t errlen)
{
	for (;;) {
		int status;
		pid_t pid = waitpid(-1, &status, __WALL);

		if (pid < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ECHILD)
				return 0;
			return ujs_fail(err, errlen, "waitpid: %s", strerror(errno));
		}
		if (WIFSTOPPED(status)) {
			if (handle_stop(t, pid, status))
				return ujs_fail(err, errlen, "counting calls: out of memory");
		} else if (pid == t->main && (WIFEXITED(status) || WIFSIGNALED(status))) {
			t->main_status = status;
			t->main_done = true;
		}
	}
}

void utrace_exit_like(int wait_status)
{
	if (WIFSIGNALED(wait_status)) {
		int sig = WTERMSIG(wait_status);
		const struct rlimit no_core = { 0, 0 };
		sigset_t set;

		/* The same death for our parent to see, without a core of ours. */
		setrlimit(RLIMIT_CORE, &no_core);
		signal(sig, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(sig);
		_exit(128 + sig);
	}
	_exit(WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : 1);
}
