// SPDX-License-Identifier: GPL-2.0
/*
 * The ebpf backend's loader for builds without libbpf (scripts/cross.mk:
 * the router targets, where libbpf, libelf and zlib are not built for
 * musl): every open fails, so "auto" counts with ptrace stops and
 * "--backend ebpf" says why it cannot. See bpf_count.h.
 */
#include <stdlib.h>

#include "seccomp/errmsg.h"
#include "utrace/bpf_count.h"

struct utrace_bpf *utrace_bpf_open(char *err, size_t errlen)
{
	ujs_fail(err, errlen, "this utrace is built without the ebpf backend (ptrace only)");
	return NULL;
}

int utrace_bpf_arm_fd(const struct utrace_bpf *b)
{
	(void)b;
	return -1;
}

int utrace_bpf_arm_self(const struct utrace_bpf *b, char *err, size_t errlen)
{
	(void)b;
	return ujs_fail(err, errlen, "no ebpf backend");
}

int utrace_bpf_collect(const struct utrace_bpf *b, const struct ujs_policy *seen,
		       struct utrace_counts *c, char *err, size_t errlen)
{
	(void)b;
	(void)seen;
	(void)c;
	return ujs_fail(err, errlen, "no ebpf backend");
}

void utrace_bpf_close(struct utrace_bpf *b)
{
	(void)b;
}
