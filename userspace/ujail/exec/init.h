/* SPDX-License-Identifier: GPL-2.0 */
/* The jail's PID 1 and its child, the service. */
#ifndef UJAIL_INIT_H
#define UJAIL_INIT_H

#include <stddef.h>

struct jail_plan;

/*
 * The stub, entry point of clone(CLONE_VM | CLONE_VFORK): builds the
 * root, starts the service, and becomes "ujail-keeper init", which reaps,
 * forwards signals and exits with the service's status. Returns 1 when
 * the jail could not be set up (after a message).
 */
int jail_stub_main(void *plan);

/* The service: drop everything, execve(). Exits 1 (setup) or 127 (exec). */
__attribute__((noreturn))
void jail_service_exec(struct jail_plan *p);

/* Close every descriptor from 3 up but those in @keep (-1 entries ignored). */
void jail_close_fds_except(const int *keep, size_t n);

#endif
