// SPDX-License-Identifier: GPL-2.0
/*
 * A known syscall sequence for utrace's tests: exactly 7 getppid calls
 * through the x86_64 ABI and, with -i, 3 through the i386 one (int $0x80);
 * then exits with STATUS (default 0).
 *   known [-i] [STATUS]
 *   known -p      exit 0 when this kernel runs i386 calls (probe, untraced)
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define I386_GETPPID 64

static long i386_getppid(void)
{
	long ret = I386_GETPPID;

#if defined(__x86_64__)
	__asm__ volatile("int $0x80" : "+a"(ret) : : "memory", "r8", "r9", "r10", "r11");
#endif
	return ret;
}

/* Without IA32 emulation, int $0x80 is a general protection fault. */
static int probe_i386(void)
{
	pid_t pid = fork();
	int status;

	if (pid == 0)
		_exit(i386_getppid() == getppid() ? 0 : 1);
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	int i386 = argc > 1 && !strcmp(argv[1], "-i");
	pid_t parent;
	int bad = 0;

	if (argc > 1 && !strcmp(argv[1], "-p"))
		return probe_i386();
	parent = getppid();		/* 1 */
	for (int i = 0; i < 6; i++)	/* 2..7 */
		bad |= syscall(SYS_getppid) != parent;
	for (int i = 0; i < 3 && i386; i++)
		bad |= i386_getppid() != parent;
	if (bad)
		return 99;
	return argc > 1 + i386 ? atoi(argv[1 + i386]) : 0;
}
