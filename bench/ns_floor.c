// SPDX-License-Identifier: GPL-2.0
/*
 * ns_floor: the kernel's floor for a jail's start-up, to read ujail's and
 * bubblewrap's times against: new namespaces, one fork, one exec of the
 * command, one wait; no mounts, no staging, no supervisor.
 *
 *   ns_floor [-N] [-U] [-C] -- command [argument]...
 *
 * The namespaces are mnt, pid, ipc and uts; -N adds net, -U user, -C
 * cgroup. Built static, so that no dynamic loading is counted. Exits with
 * the command's status (128+signal if it was killed).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The namespace flags; the index of the command in argv, or -1. */
static int parse_args(int argc, char **argv, int *flags)
{
	int i;

	*flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS;
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-N"))
			*flags |= CLONE_NEWNET;
		else if (!strcmp(argv[i], "-U"))
			*flags |= CLONE_NEWUSER;
		else if (!strcmp(argv[i], "-C"))
			*flags |= CLONE_NEWCGROUP;
		else
			return -1;
	}
	return i + 1 < argc ? i + 1 : -1;
}

int main(int argc, char **argv)
{
	int flags, status, first = parse_args(argc, argv, &flags);
	pid_t pid;

	if (first < 0) {
		fprintf(stderr, "usage: ns_floor [-N] [-U] [-C] -- command [argument]...\n");
		return 2;
	}
	if (unshare(flags) < 0) {
		perror("ns_floor: unshare");
		return 1;
	}
	pid = fork();	/* the child is PID 1 of the new pid namespace */
	if (pid < 0) {
		perror("ns_floor: fork");
		return 1;
	}
	if (pid == 0) {
		execv(argv[first], argv + first);
		perror("ns_floor: execv");
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("ns_floor: waitpid");
		return 1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
