// SPDX-License-Identifier: GPL-2.0
/*
 * utrace's signal cases:
 *   sigwait term    waits for SIGTERM (announced by "ready PID" on stdout),
 *                   exits 42 when it comes
 *   sigwait kill N  kills itself with signal N
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void on_term(int sig)
{
	(void)sig;
	_exit(42);
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "kill")) {
		signal(atoi(argv[2]), SIG_DFL);
		raise(atoi(argv[2]));
		return 1;
	}
	if (argc > 1 && !strcmp(argv[1], "term")) {
		signal(SIGTERM, on_term);
		printf("ready %d\n", (int)getpid());
		fflush(stdout);
		for (;;)
			pause();
	}
	return 2;
}
