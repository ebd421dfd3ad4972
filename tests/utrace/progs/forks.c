// SPDX-License-Identifier: GPL-2.0
/*
 * utrace's process case, each with its own call so the counts tell who
 * made them: a fork()ed child makes 11 getpgrp calls and exits 3; a
 * vfork()ed child execs this program again ("forks exec"), which makes
 * 13 getsid(0) calls and exits 4; the parent makes 7 getppid calls and
 * exits with 10 * first status + second (34) when both came back.
 * Architectures without getpgrp (aarch64, the generic syscall table) make
 * getpgid(0) calls in the child instead.
 */
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef SYS_getpgrp
#define CHILD_CALL() syscall(SYS_getpgrp)
#else
#define CHILD_CALL() syscall(SYS_getpgid, 0)
#endif

static int status_of(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	char *again[] = { argv[0], "exec", NULL };
	int a, b;
	pid_t pid;

	if (argc > 1 && !strcmp(argv[1], "exec")) {
		for (int i = 0; i < 13; i++)
			syscall(SYS_getsid, 0);
		return 4;
	}
	pid = fork();
	if (pid == 0) {
		for (int i = 0; i < 11; i++)
			CHILD_CALL();
		_exit(3);
	}
	a = status_of(pid);
	pid = vfork();
	if (pid == 0) {
		execv("/proc/self/exe", again);
		_exit(127);
	}
	b = status_of(pid);
	for (int i = 0; i < 7; i++)
		syscall(SYS_getppid);
	return a == 3 && b == 4 ? 10 * a + b : 1;
}
