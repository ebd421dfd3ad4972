/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pty_run CMD...: run CMD with a new pty as its controlling terminal and
 * stdin/stdout/stderr (as a login shell would have), copy what it prints
 * to our stdout, and exit with its status. Lets the tests check that a
 * jailed service cannot push input into its caller's terminal.
 */
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int master, slave, status;
	char buf[4096];
	ssize_t n;
	pid_t pid;

	if (argc < 2 || openpty(&master, &slave, NULL, NULL, NULL) < 0) {
		perror("pty_run: openpty");
		return 125;
	}
	pid = fork();
	if (pid == 0) {
		setsid();
		ioctl(slave, TIOCSCTTY, 0);
		dup2(slave, 0);
		dup2(slave, 1);
		dup2(slave, 2);
		close(master);
		close(slave);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	close(slave);
	while ((n = read(master, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0 && write(1, buf, (size_t)n) < 0)
			break;
	waitpid(pid, &status, 0);
	/* Anything pushed into the terminal's input would be readable here. */
	n = read(master, buf, sizeof(buf));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
