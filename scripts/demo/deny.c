// SPDX-License-Identifier: GPL-2.0
/*
 * deny: run a command with some syscalls failed by SECCOMP_RET_LOG_ERRNO.
 * A stand-in for ujail's policy compiler in the demo:
 *
 *   deny [-e ERRNO] SYSCALL... -- COMMAND [ARG]...
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SECCOMP_RET_LOG_ERRNO
#define SECCOMP_RET_LOG_ERRNO 0x00070000U
#endif

#define MAX_DENIED 16

static const struct { const char *name; int nr; } known[] = {
	{ "mkdir", __NR_mkdir }, { "mkdirat", __NR_mkdirat },
	{ "unlink", __NR_unlink }, { "unlinkat", __NR_unlinkat },
	{ "socket", __NR_socket }, { "mount", __NR_mount },
	{ "reboot", __NR_reboot }, { "sethostname", __NR_sethostname },
	{ "getpriority", __NR_getpriority }, { "ptrace", __NR_ptrace },
};

static int syscall_nr(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(known[i].name, name))
			return known[i].nr;
	return -1;
}

static int install(const int *nrs, int count, int err)
{
	struct sock_filter insns[4 + 2 * MAX_DENIED + 1];
	struct sock_fprog prog = { .filter = insns };
	int n = 0, i;

	insns[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						  offsetof(struct seccomp_data, arch));
	insns[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						  AUDIT_ARCH_X86_64, 1, 0);
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						  offsetof(struct seccomp_data, nr));
	for (i = 0; i < count; i++) {
		insns[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							  nrs[i], 0, 1);
		insns[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
							  SECCOMP_RET_LOG_ERRNO | err);
	}
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = n;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

int main(int argc, char **argv)
{
	int nrs[MAX_DENIED], count = 0, err = EPERM, i = 1;

	if (i + 1 < argc && !strcmp(argv[i], "-e")) {
		err = atoi(argv[i + 1]);
		i += 2;
	}
	for (; i < argc && strcmp(argv[i], "--"); i++) {
		int nr = syscall_nr(argv[i]);

		if (nr < 0 || count == MAX_DENIED) {
			fprintf(stderr, "deny: unknown syscall '%s' (or too many)\n", argv[i]);
			return 2;
		}
		nrs[count++] = nr;
	}
	if (i + 1 >= argc) {
		fprintf(stderr, "usage: deny [-e ERRNO] SYSCALL... -- COMMAND [ARG]...\n");
		return 2;
	}
	if (install(nrs, count, err)) {
		perror("deny: seccomp");
		return 1;
	}
	execvp(argv[i + 1], argv + i + 1);
	perror(argv[i + 1]);
	return 127;
}
