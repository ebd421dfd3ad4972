// SPDX-License-Identifier: GPL-2.0
/* ujail-keeper: the resident part of a jail; see keeper.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "keeper/keeper.h"

static int usage(void)
{
	dprintf(STDERR_FILENO,
		"ujail-keeper: the resident part of a jail, started by ujail(8) only:\n"
		"  ujail-keeper watch NAME STUB STATUS_FD TIMEOUT PIDFILE|\"\" [IFINDEX|\"\" [CGROUP|\"\" [RECORD]]]\n"
		"  ujail-keeper init NAME SERVICE [NOTIFY_FD PROGRAM_FD]\n");
	return 2;
}

/* A decimal number in [min, max], or -1. */
static long number(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	return v;
}

/* An inherited descriptor: given as a number and open. */
static int inherited_fd(const char *s)
{
	long fd = number(s, 0, INT_MAX);

	return fd >= 0 && fcntl((int)fd, F_GETFD) >= 0 ? (int)fd : -1;
}

static int watch_main(int argc, char **argv)
{
	struct keeper_watch w = { .name = argv[2] };
	long stub, timeout, ifindex = 0;

	if (argc < 7 || argc > 10)
		return usage();
	if (argc >= 8 && *argv[7] && (ifindex = number(argv[7], 1, INT_MAX)) < 0)
		return usage();
	w.host_ifindex = (int)ifindex;
	stub = number(argv[3], 1, INT_MAX);
	w.status_fd = inherited_fd(argv[4]);
	/* UINT_MAX is -1 as a 32-bit long (mipsel): cap it at LONG_MAX there. */
	timeout = number(argv[5], 0, UINT_MAX > LONG_MAX ? LONG_MAX : (long)UINT_MAX);
	if (stub < 0 || w.status_fd < 0 || timeout < 0)
		return usage();
	w.stub = (pid_t)stub;
	w.term_timeout = (unsigned int)timeout;
	w.pidfile = *argv[6] ? argv[6] : NULL;
	w.cgroup = argc >= 9 && *argv[8] ? argv[8] : NULL;
	w.record = argc == 10 && *argv[9] ? argv[9] : NULL;
	return keeper_watch_run(&w);
}

static int init_main(int argc, char **argv)
{
	struct keeper_init in = { .name = argv[2], .notify_fd = -1, .program_fd = -1 };
	long service;

	if (argc != 4 && argc != 6)
		return usage();
	service = number(argv[3], 1, INT_MAX);
	if (service < 0)
		return usage();
	in.service = (pid_t)service;
	if (argc == 6) {
		in.notify_fd = inherited_fd(argv[4]);
		in.program_fd = inherited_fd(argv[5]);
		if (in.notify_fd < 0 || in.program_fd < 0)
			return usage();
	}
	return keeper_init_run(&in);
}

int main(int argc, char **argv)
{
	/* exec made us dumpable again: nothing in the jail may ptrace us. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	if (argc < 3)
		return usage();
	if (!strcmp(argv[1], "watch"))
		return watch_main(argc, argv);
	if (!strcmp(argv[1], "init"))
		return init_main(argc, argv);
	return usage();
}
