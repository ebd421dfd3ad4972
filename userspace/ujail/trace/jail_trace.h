/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --trace FILE: the jail runs under utrace's tracer (userspace/utrace), as
 * procd's "/etc/init.d/SERVICE trace" runs a service under utrace. This
 * process becomes the tracer; a forked copy runs the jail as usual, and
 * its service installs the tracing filter (or marks itself for the eBPF
 * counter, --trace-backend) last before execve(), so only the service and
 * what it starts are counted, not ujail's own set-up or the keepers. When every traced process is gone the policy (OCI, the
 * calls by count) is written to FILE, and ujail exits as the jail did.
 */
#ifndef UJAIL_JAIL_TRACE_H
#define UJAIL_JAIL_TRACE_H

#include <stddef.h>

#include "options/options.h"

/*
 * Run the jail of @o (o->trace set) under the tracer; ujail's exit status.
 * The service reaches the tracer through the plan's hook (plan/trace_hook.h).
 */
int jail_trace_run(const struct jail_opts *o);

#endif
