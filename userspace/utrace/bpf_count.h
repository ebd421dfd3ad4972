/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ebpf backend: count.bpf.c, loaded and attached to the sys_enter and
 * sched_process_fork tracepoints, counts the traced tasks' calls in the
 * kernel; nothing stops. Needs a kernel with BPF, BTF (for CO-RE and
 * tp_btf programs) and task storage (5.11), and CAP_BPF + CAP_PERFMON
 * (root) to load; marking a task needs only the map's descriptor.
 */
#ifndef UTRACE_BPF_COUNT_H
#define UTRACE_BPF_COUNT_H

#include <stddef.h>

#include "seccomp/policy.h"
#include "utrace/counts.h"

struct utrace_bpf;

/* Load and attach the counter. NULL with @err saying why not. */
struct utrace_bpf *utrace_bpf_open(char *err, size_t errlen);

/*
 * In the task to trace, last before execve(): mark it, so that it and all
 * it starts are counted from that execve() on. 0 or -1 with @err.
 */
int utrace_bpf_arm_self(const struct utrace_bpf *b, char *err, size_t errlen);

/* The descriptor utrace_bpf_arm_self() needs (to keep it open). */
int utrace_bpf_arm_fd(const struct utrace_bpf *b);

/*
 * Add the counted calls to @c once the traced tasks are gone, but for
 * those --coverage's @seen lets run without a stop under the ptrace
 * backend (NULL: all), so that both backends count the same. 0, or -1
 * with @err (out of memory, or calls the kernel side could not record).
 */
int utrace_bpf_collect(const struct utrace_bpf *b, const struct ujs_policy *seen,
		       struct utrace_counts *c, char *err, size_t errlen);

/* Detach and free; NULL is fine. */
void utrace_bpf_close(struct utrace_bpf *b);

#endif
