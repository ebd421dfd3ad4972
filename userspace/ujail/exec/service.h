/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The service: the jail's PID 2 (or a --join member), started by the stub
 * (init.h) or by join.c through jail_service_run(); it reads the plan only.
 */
#ifndef UJAIL_SERVICE_H
#define UJAIL_SERVICE_H

#include <stddef.h>
#include <sys/types.h>

struct jail_plan;

/* The service: drop everything, execve(). Exits 1 (setup) or 127 (exec). */
__attribute__((noreturn))
void jail_service_exec(struct jail_plan *p);

/*
 * Start the service and hand it over; what the stub and ujail --join
 * share. The child (CLONE_VM | CLONE_VFORK: we wait until it has exec'd
 * or died) unblocks the keeper's signals, runs @enter(@arg) (joining the
 * jail, for a member; NULL: nothing), then jail_service_exec(). @into:
 * the cgroup to start it in (clone3), or NULL. Then our ends of its
 * status and notify channels are closed and we become "ujail-keeper init"
 * over it. Returns only on failure, after a message, with the service
 * killed and reaped: JAIL_EXIT_SETUP. The descriptors closed are still in
 * @p (CLONE_VM: the stub must not clear the outer ujail's copies).
 */
struct jail_cgroup;
int jail_service_run(struct jail_plan *p, struct jail_cgroup *into,
		     void (*enter)(struct jail_plan *p, void *arg), void *arg);

/* Close every descriptor from 3 up but those in @keep (-1 entries ignored). */
void jail_close_fds_except(const int *keep, size_t n);

#endif
