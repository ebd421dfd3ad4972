// SPDX-License-Identifier: GPL-2.0
/*
 * spawn_time: run a command N times (fork, execvp, waitpid), one after the
 * other, and print the median and the 90th percentile of its start-to-exit
 * time in milliseconds: "median p90". The command's stdout and stderr go
 * to /dev/null; any run that does not exit 0 is an error (exit 1).
 *
 *   spawn_time [-n N] [-w WARMUP] -- command [argument]...
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double run_once(char **argv, int devnull)
{
	double t0 = now_ms();
	pid_t pid = fork();
	int status;

	if (pid < 0) {
		perror("spawn_time: fork");
		exit(1);
	}
	if (pid == 0) {
		dup2(devnull, STDOUT_FILENO);
		dup2(devnull, STDERR_FILENO);
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("spawn_time: waitpid");
			exit(1);
		}
	}
	double t = now_ms() - t0;

	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "spawn_time: %s: exit status 0x%x\n", argv[0],
			(unsigned)status);
		exit(1);
	}
	return t;
}

int main(int argc, char **argv)
{
	long n = 200, warm = 5;
	int opt;

	while ((opt = getopt(argc, argv, "+n:w:")) != -1) {
		switch (opt) {
		case 'n':
			n = strtol(optarg, NULL, 10);
			break;
		case 'w':
			warm = strtol(optarg, NULL, 10);
			break;
		default:
			goto usage;
		}
	}
	if (optind >= argc || n < 1 || warm < 0)
		goto usage;

	int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	double *t = calloc((size_t)n, sizeof(*t));

	if (devnull < 0 || !t) {
		perror("spawn_time");
		return 1;
	}
	for (long i = 0; i < warm; i++)
		run_once(argv + optind, devnull);
	for (long i = 0; i < n; i++)
		t[i] = run_once(argv + optind, devnull);
	qsort(t, (size_t)n, sizeof(*t), cmp_double);

	double med = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
	long i90 = (long)(0.9 * (double)(n - 1) + 0.5);

	printf("%.3f %.3f\n", med, t[i90]);
	return 0;
usage:
	fprintf(stderr, "usage: spawn_time [-n N] [-w WARMUP] -- command [argument]...\n");
	return 2;
}
