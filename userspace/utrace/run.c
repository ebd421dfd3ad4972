// SPDX-License-Identifier: GPL-2.0
/* One traced run; see run.h. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#include "seccomp/errmsg.h"
#include "utrace/run.h"
#include "utrace/trace.h"

static int write_policy(const struct utrace_run_opts *ro, const struct utrace_tracer *t)
{
	char def[PATH_MAX], err[ERR_MAX];
	const char *path = ro->output;
	const char *slash = strrchr(ro->name, '/');

	if (!path) {
		snprintf(def, sizeof(def), "/tmp/%s.%d.json", slash ? slash + 1 : ro->name,
			 (int)t->main);
		path = def;
	}
	if (utrace_policy_write(path, &ro->out, &t->counts, err, sizeof(err))) {
		fprintf(stderr, "utrace: %s\n", err);
		return t->counts.total ? -1 : 0;
	}
	fprintf(stderr, "utrace: %s: policy of %llu calls written\n", path,
		(unsigned long long)t->counts.total);
	return 0;
}

/* Until every traced process is gone; then the counts, from the kernel for ebpf. */
static int follow(const struct utrace_run_opts *ro, const struct utrace_session *s,
		  struct utrace_tracer *t, char *err, size_t errlen)
{
	if (utrace_follow(t, err, errlen))
		return -1;
	if (s->backend == UTRACE_BACKEND_EBPF)
		return utrace_bpf_collect(s->bpf, ro->out.seen, &t->counts, err, errlen);
	return 0;
}

int utrace_run(const struct utrace_run_opts *ro, const struct utrace_session *s,
	       int (*child)(void *), void *arg, int *wait_status)
{
	struct utrace_tracer t = { .main = -1 };
	bool seize = s->backend == UTRACE_BACKEND_PTRACE;
	char err[ERR_MAX];
	sigset_t old;
	int ret = 0;

	/* Without ptrace, orphans of the program come to us to be waited for. */
	if (!seize && prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0) {
		perror("utrace: prctl(PR_SET_CHILD_SUBREAPER)");
		return 1;
	}
	utrace_block_signals(&old);
	t.main = utrace_spawn(child, arg, &old, seize, err, sizeof(err));
	if (t.main < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		fprintf(stderr, "utrace: %s\n", err);
		return 127;
	}
	utrace_forward_signals(t.main, &old);
	if (follow(ro, s, &t, err, sizeof(err))) {
		fprintf(stderr, "utrace: %s\n", err);
		ret = 1;
	} else {
		if (ro->summary)
			utrace_counts_print(stderr, &t.counts);
		if (write_policy(ro, &t) || !t.main_done)
			ret = 1;
		*wait_status = t.main_status;
	}
	utrace_counts_free(&t.counts);
	return ret;
}
