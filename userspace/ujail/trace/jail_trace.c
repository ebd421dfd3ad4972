// SPDX-License-Identifier: GPL-2.0
/* --trace FILE: see jail_trace.h. */
#include <stdio.h>
#include <sys/prctl.h>

#include "jail.h"
#include "seccomp/errmsg.h"
#include "trace/jail_trace.h"
#include "utrace/bpf_count.h"
#include "utrace/filter.h"
#include "utrace/run.h"
#include "utrace/session.h"
#include "utrace/trace.h"

/* What the forked copy that runs the jail needs: the options and the hook. */
struct traced_jail {
	const struct jail_opts *o;
	const struct jail_trace_hook *hook;
};

/* The hook's callbacks; @ctx is the session jail_trace_run() opened. */
static int trace_arm(void *ctx, char *err, size_t errlen)
{
	const struct utrace_session *s = ctx;

	if (s->backend != UTRACE_BACKEND_EBPF)
		return 0;
	return utrace_bpf_arm_self(s->bpf, err, errlen);
}

static int trace_begin(void *ctx, char *err, size_t errlen)
{
	const struct utrace_session *s = ctx;

	if (s->backend == UTRACE_BACKEND_EBPF)
		return 0;
	return utrace_filter_install(&s->filter, err, errlen);
}

static int trace_keep_fd(void *ctx)
{
	return utrace_session_keep_fd(ctx);
}

static int traced_jail(void *arg)
{
	const struct traced_jail *t = arg;

	return jail_run(t->o, t->hook);
}

/* The backend: --trace-backend, else $UTRACE_BACKEND; 0 or -1 with @err. */
static int choose_backend(const struct jail_opts *o, enum utrace_backend *backend,
			  char *err, size_t errlen)
{
	if (!o->trace_backend)
		return utrace_backend_from_env(backend, err, errlen);
	*backend = o->trace_backend_kind;	/* parsed by the option table */
	return 0;
}

int jail_trace_run(const struct jail_opts *o)
{
	struct utrace_run_opts ro = {
		.output = o->trace, .name = o->argv[0],
		.out = { .default_action = { .kind = UJS_ACT_KILL_PROCESS } },
	};
	enum utrace_backend backend = UTRACE_BACKEND_AUTO;
	/* The forked copy of this memory that runs the jail reaches them here. */
	struct utrace_session session = { 0 };
	const struct jail_trace_hook hook = {
		.ctx = &session, .arm = trace_arm, .begin = trace_begin,
		.keep_fd = trace_keep_fd,
	};
	struct traced_jail jail = { o, &hook };
	char err[ERR_MAX];
	int status, ret;

	/* Holds ptrace over the jail: nothing may ptrace us either. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	if (choose_backend(o, &backend, err, sizeof(err)) ||
	    utrace_output_check(o->trace, err, sizeof(err)) ||
	    utrace_session_open(&session, backend, NULL, "ujail: --trace", err, sizeof(err))) {
		fprintf(stderr, "ujail: --trace %s\n", err);
		return JAIL_EXIT_SETUP;
	}
	ret = utrace_run(&ro, &session, traced_jail, &jail, &status);
	utrace_session_close(&session);
	if (ret)
		return ret == 127 ? JAIL_EXIT_SETUP : ret;
	utrace_exit_like(status);
}
