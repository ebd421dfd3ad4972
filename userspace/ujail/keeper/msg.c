// SPDX-License-Identifier: GPL-2.0
/* ujail-keeper's messages and signals; see msg.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "keeper/keeper.h"
#include "keeper/msg.h"

void keeper_msg(const char *name, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	dprintf(STDERR_FILENO, "ujail: %s: %s\n", name, line);
}

int keeper_signalfd(const char *name)
{
	sigset_t set;
	int fd;

	keeper_signals(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
	fd = signalfd(-1, &set, SFD_CLOEXEC);
	if (fd < 0)
		keeper_msg(name, "signalfd: %s", strerror(errno));
	return fd;
}
