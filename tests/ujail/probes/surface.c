/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The probe's attacks on the kernel's surface that ujail's baseline closes
 * (ujail.8, THE BASELINE): each prints "ok" or the errno name, as probe.c.
 * Raw syscall numbers and structures: musl has no <linux/io_uring.h> and
 * the build's headers may predate Landlock's scoping.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "surface.h"

#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#define UFFD_USER_MODE_ONLY 1
#define KEYCTL_GET_KEYRING_ID 0
#define KEY_SPEC_SESSION_KEYRING (-3)

/* A child in a new user namespace through clone() (flags in a register). */
static int clone_user(void)
{
	long pid = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);

	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid((pid_t)pid, NULL, 0);
	return probe_report(pid);
}

/* clone3() (flags in memory, where seccomp cannot read them): a plain child. */
static int clone3_plain(void)
{
	uint64_t args[8] = { 0 };	/* struct clone_args, version 0 */
	long pid;

	args[4] = SIGCHLD;		/* exit_signal */
	pid = syscall(SYS_clone3, args, sizeof(args));
	if (pid == 0)
		syscall(SYS_exit_group, 0);
	if (pid > 0)
		waitpid((pid_t)pid, NULL, 0);
	return probe_report(pid);
}

static int io_uring(void)
{
	unsigned char params[120] = { 0 };	/* struct io_uring_params */
	long fd = syscall(SYS_io_uring_setup, 1, params);

	probe_report(fd);
	if (fd >= 0)
		close((int)fd);
	return 0;
}

static socklen_t abstract_addr(struct sockaddr_un *sa, const char *name)
{
	size_t len = strnlen(name, sizeof(sa->sun_path) - 1);

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path + 1, name, len);	/* sun_path[0] = 0: abstract */
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len);
}

/* A host-side listener on the abstract name @name: "listening", then accepts. */
static int abstract_listen(const char *name)
{
	struct sockaddr_un sa;
	socklen_t len = abstract_addr(&sa, name);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, len) < 0 || listen(fd, 8) < 0)
		return probe_report(-1);
	puts("listening");
	fflush(stdout);
	for (;;) {
		int c = accept(fd, NULL, NULL);

		if (c >= 0)
			close(c);
	}
}

static int abstract_connect(const char *name)
{
	struct sockaddr_un sa;
	socklen_t len = abstract_addr(&sa, name);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	if (fd < 0)
		return probe_report(-1);
	probe_report(connect(fd, (struct sockaddr *)&sa, len));
	close(fd);
	return 0;
}

/*
 * From the host: a user namespace below the one process @pid is in, as its
 * root (an owner must be mapped there). The baseline's limit refuses it.
 */
static int nest_userns(const char *pid)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/ns/user", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWUSER) < 0 || setresgid(0, 0, 0) < 0 ||
	    setresuid(0, 0, 0) < 0) {
		printf("setup: ");
		return probe_report(-1);
	}
	return probe_report(unshare(CLONE_NEWUSER));
}

static int landlock_abi(void)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, 1U);

	if (abi < 0)
		return probe_report(-1);
	printf("%ld\n", abi);
	return 0;
}

static int one_arg(const char *cmd, const char *arg)
{
	if (!strcmp(cmd, "abstract-listen"))
		return abstract_listen(arg);
	if (!strcmp(cmd, "abstract-connect"))
		return abstract_connect(arg);
	if (!strcmp(cmd, "nest-userns"))
		return nest_userns(arg);
	/* personality HEX: 0xffffffff only asks. */
	if (!strcmp(cmd, "personality"))
		return probe_report(personality((unsigned long)strtoul(arg, NULL, 16)) == -1 ? -1 : 0);
	return -1;
}

int surface_probe(const char *cmd, const char *arg)
{
	if (!strcmp(cmd, "unshare-user"))
		return probe_report(unshare(CLONE_NEWUSER));
	if (!strcmp(cmd, "clone-user"))
		return clone_user();
	if (!strcmp(cmd, "clone3"))
		return clone3_plain();
	if (!strcmp(cmd, "io-uring"))
		return io_uring();
	/* An unknown command: EINVAL where bpf() is allowed (6.4+ checks per command). */
	if (!strcmp(cmd, "bpf"))
		return probe_report(syscall(SYS_bpf, 0x7fff, NULL, 0));
	/* No attribute: EFAULT where perf_event_open() is allowed. */
	if (!strcmp(cmd, "perf-event-open"))
		return probe_report(syscall(SYS_perf_event_open, NULL, 0, -1, -1, 0));
	/* User faults only: open to any user where the kernel has userfaultfd. */
	if (!strcmp(cmd, "userfaultfd"))
		return probe_report(syscall(SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY));
	if (!strcmp(cmd, "keyctl"))
		return probe_report(syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID,
					    KEY_SPEC_SESSION_KEYRING, 0));
	if (!strcmp(cmd, "landlock-abi"))
		return landlock_abi();
	return one_arg(cmd, arg);
}
