/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running a service in a jail. Three processes:
 *  - the outer ujail (jail.c): checks and prepares everything on the host,
 *    creates the jail, then becomes "ujail-keeper watch" (keeper/), which
 *    forwards signals, writes the pid file and returns the service's
 *    status;
 *  - the stub (exec/init.c): PID 1 of the jail's pid namespace, builds the
 *    root, starts the service, then becomes "ujail-keeper init", which
 *    reaps and forwards signals;
 *  - the service (exec/service.c): PID 2, drops everything, then execve().
 * The stub and the service are started with CLONE_VM | CLONE_VFORK: no
 * copy of ujail's memory is made, and each parent waits until its child
 * has exec'd (or died), so only one of the three runs on the shared
 * memory at a time.
 * All decisions that need the host are taken by the outer process before
 * anything is created, into a struct jail_plan (plan/plan.h) the others
 * only read.
 */
#ifndef UJAIL_JAIL_H
#define UJAIL_JAIL_H

#include "exec/exit_status.h"
#include "options/options.h"
#include "plan/trace_hook.h"

/*
 * Run the jail described by @o; returns ujail's exit status. @trace: the
 * tracer's hook for the service (--trace, trace/), or NULL.
 */
int jail_run(const struct jail_opts *o, const struct jail_trace_hook *trace);

#endif
