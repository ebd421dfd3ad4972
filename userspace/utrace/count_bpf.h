/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What count.bpf.c and its loader (bpf_count.c) share: the keys of the
 * counts map and the per-task state.
 */
#ifndef UTRACE_COUNT_BPF_H
#define UTRACE_COUNT_BPF_H

#include <linux/types.h>

/* Distinct (architecture, number) pairs: all tables together hold fewer. */
#define UTRACE_BPF_MAX_KEYS 4096

struct utrace_bpf_key {
	__u32 arch;		/* AUDIT_ARCH_*, as seccomp_data.arch */
	__u32 nr;		/* as seccomp_data.nr (x32: with its bit) */
};

enum utrace_task {
	UTRACE_TASK_ARMED = 1,		/* counts from its next execve() */
	UTRACE_TASK_COUNTING = 2,
};

struct utrace_task_state {
	__u32 state;			/* enum utrace_task */
};

#endif
