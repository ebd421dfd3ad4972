/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Handing a started jail over to ujail-keeper (keeper/keeper.h): the
 * outer ujail becomes "ujail-keeper watch", the stub "ujail-keeper init".
 * The keeper is opened by the outer ujail while it still sees the host,
 * and exec'd from that descriptor, also from inside the jail's root.
 */
#ifndef UJAIL_JAIL_KEEPER_H
#define UJAIL_JAIL_KEEPER_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Open the keeper: $UJAIL_KEEPER, else ../lib/ujail/ujail-keeper beside
 * @self_exe. Returns an O_PATH descriptor (close-on-exec), or -1 and @err.
 */
int jail_keeper_open(const char *self_exe, char *err, size_t errlen);

/* What "ujail-keeper watch" is told of the jail it watches. */
struct jail_watch {
	const char *name;
	pid_t stub;
	int status_fd;
	unsigned int term_timeout;
	const char *pidfile;	/* or NULL */
	int host_ifindex;	/* --veth: the pair's end on the host, deleted
				 * when the jail ends; or 0 */
	const char *cgroup;	/* the jail's, or NULL */
	int record_fd;		/* the jail's locked record (registry.h), kept
				 * across the exec; or -1 */
	const char *record;	/* its path */
};

/* Become "ujail-keeper watch"; returns only on failure, with errno. */
void jail_keeper_exec_watch(int keeper_fd, const struct jail_watch *w);

/*
 * Become "ujail-keeper init" for @service; @notify_fd and @program_fd
 * (seccomp notify mode) or both -1. Returns only on failure, with errno.
 */
void jail_keeper_exec_init(int keeper_fd, const char *name, pid_t service,
			   int notify_fd, int program_fd);

#endif
