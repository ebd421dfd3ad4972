// SPDX-License-Identifier: GPL-2.0
/* The counting backend of a run; see session.h. */
#include <stdio.h>
#include <string.h>

#include "seccomp/errmsg.h"
#include "utrace/session.h"

static int open_ebpf(struct utrace_session *s, enum utrace_backend want, const char *who,
		     char *err, size_t errlen)
{
	char why[512];

	s->bpf = utrace_bpf_open(why, sizeof(why));
	if (s->bpf) {
		s->backend = UTRACE_BACKEND_EBPF;
		return 0;
	}
	if (want == UTRACE_BACKEND_EBPF)
		return ujs_fail(err, errlen, "the ebpf backend: %s", why);
	fprintf(stderr, "%s: counting with ptrace stops, not eBPF: %s\n", who, why);
	return 1;
}

int utrace_session_open(struct utrace_session *s, enum utrace_backend want,
			const struct ujs_policy *seen, const char *who, char *err,
			size_t errlen)
{
	int ret;

	memset(s, 0, sizeof(*s));
	if (want != UTRACE_BACKEND_PTRACE) {
		ret = open_ebpf(s, want, who, err, errlen);
		if (ret <= 0)
			return ret;
	}
	s->backend = UTRACE_BACKEND_PTRACE;
	return utrace_filter_build(&s->filter, seen, err, errlen);
}

int utrace_session_begin(const struct utrace_session *s, char *err, size_t errlen)
{
	if (s->backend == UTRACE_BACKEND_EBPF)
		return utrace_bpf_arm_self(s->bpf, err, errlen);
	return utrace_filter_install(&s->filter, err, errlen);
}

int utrace_session_keep_fd(const struct utrace_session *s)
{
	return s->backend == UTRACE_BACKEND_EBPF ? utrace_bpf_arm_fd(s->bpf) : -1;
}

void utrace_session_close(struct utrace_session *s)
{
	utrace_bpf_close(s->bpf);
	utrace_filter_free(&s->filter);
	memset(s, 0, sizeof(*s));
}
