// SPDX-License-Identifier: GPL-2.0
/* --trace FILE: see jail_trace.h. */
#include <stdio.h>
#include <sys/prctl.h>

#include "filter.h"
#include "jail.h"
#include "jail_trace.h"
#include "run.h"
#include "trace.h"

/* Built before the fork; the service (same memory) installs it. */
static struct utrace_filter trace_filter;

static int traced_jail(void *arg)
{
	return jail_run(arg);
}

int jail_trace_run(const struct jail_opts *o)
{
	struct utrace_run_opts ro = {
		.output = o->trace, .name = o->argv[0],
		.out = { .default_action = { .kind = UJS_ACT_KILL_PROCESS } },
	};
	char err[1024];
	int status, ret;

	/* Holds ptrace over the jail: nothing may ptrace us either. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	if (utrace_output_check(o->trace, err, sizeof(err)) ||
	    utrace_filter_build(&trace_filter, NULL, err, sizeof(err))) {
		fprintf(stderr, "ujail: --trace %s\n", err);
		return JAIL_EXIT_SETUP;
	}
	/* A cast: jail_run() takes the options read-only. */
	ret = utrace_run(&ro, traced_jail, (void *)o, &status);
	utrace_filter_free(&trace_filter);
	if (ret)
		return ret == 127 ? JAIL_EXIT_SETUP : ret;
	utrace_exit_like(status);
}

int jail_trace_install(char *err, size_t errlen)
{
	return utrace_filter_install(&trace_filter, err, errlen);
}
