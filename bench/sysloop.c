// SPDX-License-Identifier: GPL-2.0
/*
 * sysloop: a syscall-heavy workload for bench/utrace_bench.sh, N getppid
 * calls (default 100000) made through syscall(2), nothing else.
 *
 *   sysloop [N]
 */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;

	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}
