/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How calls are counted, chosen once per run: the ebpf backend (in the
 * kernel, no stops; bpf_count.h) or the ptrace backend (one stop per call
 * through a SECCOMP_RET_TRACE filter; filter.h, trace.h). "auto" takes
 * ebpf when the counter loads and says on stderr why not when it falls
 * back to ptrace.
 */
#ifndef UTRACE_SESSION_H
#define UTRACE_SESSION_H

#include <stddef.h>

#include "utrace/backend.h"
#include "utrace/bpf_count.h"
#include "utrace/filter.h"

struct utrace_session {
	enum utrace_backend backend;	/* EBPF or PTRACE once open */
	struct utrace_filter filter;	/* ptrace */
	struct utrace_bpf *bpf;		/* ebpf */
};

/*
 * Make ready to count with @want. @seen: as utrace_filter_build()'s (the
 * ebpf backend counts every call; the policy writer merges). With auto,
 * a failed ebpf load is reported on stderr, after @who, and ptrace is
 * used. 0, or -1 with @err.
 */
int utrace_session_open(struct utrace_session *s, enum utrace_backend want,
			const struct ujs_policy *seen, const char *who, char *err,
			size_t errlen);

/*
 * In the task to trace, last before its execve(): install the tracing
 * filter (ptrace) or mark the task (ebpf). 0, or -1 with @err.
 */
int utrace_session_begin(const struct utrace_session *s, char *err, size_t errlen);

/* A descriptor utrace_session_begin() needs open, or -1. */
int utrace_session_keep_fd(const struct utrace_session *s);

void utrace_session_close(struct utrace_session *s);

#endif
