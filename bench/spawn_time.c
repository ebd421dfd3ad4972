// SPDX-License-Identifier: GPL-2.0
/*
 * spawn_time: run a command N times (fork, execvp, waitpid), one after the
 * other, and print the median and the 90th percentile of its start-to-exit
 * time in milliseconds: "median p90". With -c, also the median CPU time
 * of a run, user + system of the command and all its descendants, in
 * milliseconds: "median p90 cpu". The timer is their subreaper, so that
 * one the command does not wait for (bubblewrap's outer process leaves
 * its PID 1 to exit on its own) is counted too, once it ends. The command's
 * stdout and stderr go to /dev/null; any run that does not exit 0 is an
 * error (exit 1).
 *
 *   spawn_time [-c] [-n N] [-w WARMUP] -- command [argument]...
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
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

static double tv_ms(const struct timeval *tv)
{
	return tv->tv_sec * 1e3 + tv->tv_usec / 1e3;
}

static double median(double *t, long n)
{
	qsort(t, (size_t)n, sizeof(*t), cmp_double);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* CPU time of every reaped descendant so far, in ms. */
static double children_cpu_ms(void)
{
	struct rusage ru;

	getrusage(RUSAGE_CHILDREN, &ru);
	return tv_ms(&ru.ru_utime) + tv_ms(&ru.ru_stime);
}

/* Reap the orphans the command left to us, so that their CPU time counts. */
static void reap_orphans(void)
{
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
}

/* Start-to-exit time of one run; its CPU time (ms) in *cpu. */
static double run_once(char **argv, int devnull, double *cpu)
{
	double cpu0 = children_cpu_ms(), t0 = now_ms();
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

	reap_orphans();
	*cpu = children_cpu_ms() - cpu0;

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
	int opt, want_cpu = 0;
	double ignored;

	while ((opt = getopt(argc, argv, "+cn:w:")) != -1) {
		switch (opt) {
		case 'c':
			want_cpu = 1;
			break;
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
	double *cpu = calloc((size_t)n, sizeof(*cpu));

	if (devnull < 0 || !t || !cpu ||
	    (want_cpu && prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)) {
		perror("spawn_time");
		return 1;
	}
	for (long i = 0; i < warm; i++)
		run_once(argv + optind, devnull, &ignored);
	for (long i = 0; i < n; i++)
		t[i] = run_once(argv + optind, devnull, &cpu[i]);

	double med = median(t, n);
	long i90 = (long)(0.9 * (double)(n - 1) + 0.5);

	if (want_cpu)
		printf("%.3f %.3f %.3f\n", med, t[i90], median(cpu, n));
	else
		printf("%.3f %.3f\n", med, t[i90]);
	return 0;
usage:
	fprintf(stderr, "usage: spawn_time [-c] [-n N] [-w WARMUP] -- command [argument]...\n");
	return 2;
}
