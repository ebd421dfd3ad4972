/* SPDX-License-Identifier: GPL-2.0 */
/* The jail's PID 1, the stub: it starts the service (service.h). */
#ifndef UJAIL_INIT_H
#define UJAIL_INIT_H

struct jail_plan;

/*
 * The stub, entry point of clone(CLONE_VM | CLONE_VFORK): builds the
 * root, starts the service, and becomes "ujail-keeper init", which reaps,
 * forwards signals and exits with the service's status. Returns 1 when
 * the jail could not be set up (after a message).
 */
int jail_stub_main(void *plan);

#endif
