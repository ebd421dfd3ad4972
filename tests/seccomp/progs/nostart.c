/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A dynamic program with its own _start (linked -nostartfiles): it never
 * calls __libc_start_main, so the preload shim would not run in it, and
 * ujail-seccomp run must refuse it.
 */
#include <sys/syscall.h>
#include <unistd.h>

void _start(void)
{
	static const char msg[] = "nostart ran\n";

	syscall(SYS_write, 1, msg, sizeof(msg) - 1);
	syscall(SYS_exit_group, 0);
	for (;;)
		;
}
