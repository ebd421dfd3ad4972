/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The service: the jail's PID 2 (or a --join member), started by the stub
 * (init.h) or by join.c with CLONE_VM | CLONE_VFORK; it reads the plan only.
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
 * In the service's parent (the stub, or ujail --join), once the service
 * started: close our ends of its status and notify channels and become
 * "ujail-keeper init" over @service. Returns only on failure, with errno;
 * the descriptors closed are still in @p (CLONE_VM: the stub must not
 * clear the outer ujail's copies).
 */
void jail_service_hand_over(const struct jail_plan *p, pid_t service);

/* Close every descriptor from 3 up but those in @keep (-1 entries ignored). */
void jail_close_fds_except(const int *keep, size_t n);

#endif
