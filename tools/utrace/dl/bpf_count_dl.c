// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_count.h for the installed, dynamically linked programs: the counter
 * and libbpf are in utrace-ebpf.so, loaded by the first open (the ebpf or
 * auto backend), so a ptrace-only run never maps libbpf, libelf or zlib.
 * A missing plugin fails the open with its path: "auto" then says so on
 * stderr and counts with ptrace stops, "--backend ebpf" fails.
 */
#include "bpf_plugin.h"
#include "plugin.h"

static const struct utrace_bpf_ops *ops;

struct utrace_bpf *utrace_bpf_open(char *err, size_t errlen)
{
	if (!ops)
		ops = ujs_plugin_load(UTRACE_BPF_PLUGIN_FILE, UTRACE_BPF_PLUGIN_SYM, err, errlen);
	return ops ? ops->open(err, errlen) : NULL;
}

/* A struct utrace_bpf exists only once ops is set. */
int utrace_bpf_arm_self(const struct utrace_bpf *b, char *err, size_t errlen)
{
	return ops->arm_self(b, err, errlen);
}

int utrace_bpf_arm_fd(const struct utrace_bpf *b)
{
	return b ? ops->arm_fd(b) : -1;
}

int utrace_bpf_collect(const struct utrace_bpf *b, const struct ujs_policy *seen,
		       struct utrace_counts *c, char *err, size_t errlen)
{
	return ops->collect(b, seen, c, err, errlen);
}

void utrace_bpf_close(struct utrace_bpf *b)
{
	if (b)
		ops->close(b);
}
