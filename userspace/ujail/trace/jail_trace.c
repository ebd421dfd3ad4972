// SPDX-License-Identifier: GPL-2.0
/* --trace FILE: see jail_trace.h. */
#include <stdio.h>
#include <sys/prctl.h>

#include "jail.h"
#include "trace/jail_trace.h"
#include "utrace/bpf_count.h"
#include "utrace/filter.h"
#include "utrace/run.h"
#include "utrace/session.h"
#include "utrace/trace.h"

/* Opened before the fork; the service (a copy of this memory) begins it. */
static struct utrace_session trace_session;

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
	enum utrace_backend backend = UTRACE_BACKEND_AUTO;
	char err[1024];
	int status, ret;

	/* Holds ptrace over the jail: nothing may ptrace us either. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	/* options.c checked the option's word; the environment's is checked here. */
	if (o->trace_backend)
		utrace_backend_parse(o->trace_backend, &backend, err, sizeof(err));
	if ((!o->trace_backend && utrace_backend_from_env(&backend, err, sizeof(err))) ||
	    utrace_output_check(o->trace, err, sizeof(err)) ||
	    utrace_session_open(&trace_session, backend, NULL, "ujail: --trace", err,
				sizeof(err))) {
		fprintf(stderr, "ujail: --trace %s\n", err);
		return JAIL_EXIT_SETUP;
	}
	/* A cast: jail_run() takes the options read-only. */
	ret = utrace_run(&ro, &trace_session, traced_jail, (void *)o, &status);
	utrace_session_close(&trace_session);
	if (ret)
		return ret == 127 ? JAIL_EXIT_SETUP : ret;
	utrace_exit_like(status);
}

int jail_trace_arm(char *err, size_t errlen)
{
	if (trace_session.backend != UTRACE_BACKEND_EBPF)
		return 0;
	return utrace_bpf_arm_self(trace_session.bpf, err, errlen);
}

int jail_trace_begin(char *err, size_t errlen)
{
	if (trace_session.backend == UTRACE_BACKEND_EBPF)
		return 0;
	return utrace_filter_install(&trace_session.filter, err, errlen);
}

int jail_trace_keep_fd(void)
{
	return utrace_session_keep_fd(&trace_session);
}
