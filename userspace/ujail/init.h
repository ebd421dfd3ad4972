/* SPDX-License-Identifier: GPL-2.0 */
/* The jail's PID 1 and its child, the service. */
#ifndef UJAIL_INIT_H
#define UJAIL_INIT_H

#include <stddef.h>

struct jail_plan;

/*
 * The stub, entry point of clone(): builds the root, starts the service,
 * reaps every process, forwards signals to the service, and returns the
 * service's status (128 + signal when killed) once it ended, after killing
 * whatever is left in the jail. 1 when the jail could not be set up.
 */
int jail_stub_main(void *plan);

/* The service: drop everything, execve(). Exits 1 (setup) or 127 (exec). */
__attribute__((noreturn))
void jail_service_exec(struct jail_plan *p);

/* Close every descriptor from 3 up but those in @keep (-1 entries ignored). */
void jail_close_fds_except(const int *keep, size_t n);

#endif
