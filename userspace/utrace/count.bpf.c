// SPDX-License-Identifier: GPL-2.0
/*
 * utrace's in-kernel counter (the ebpf backend, see bpf_count.h): counts the
 * syscalls of the traced tasks per (architecture, number) without stopping
 * them. A task is traced once it carries an entry in task_state: the traced
 * program's first task gets one from utrace ("armed"), every task it forks
 * or clones inherits its parent's. An armed task starts counting at its
 * next execve(), as the ptrace backend's filter starts at the execve() that
 * follows its installation.
 *
 * Types are declared with only the fields read; CO-RE (libbpf) moves them
 * to where the running kernel's BTF has them.
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "count_bpf.h"

struct thread_info {
#if defined(__TARGET_ARCH_x86)
	__u32 status;
#else
	unsigned long flags;
#endif
} __attribute__((preserve_access_index));

struct task_struct {
	struct thread_info thread_info;
} __attribute__((preserve_access_index));

struct pt_regs;

#define TS_COMPAT	0x0002		/* x86: a 32-bit syscall is active */
#define TIF_32BIT	22		/* arm64: the task is AArch32 */

/* Set by utrace before loading: this machine's numbers and arch values. */
const volatile __u32 native_arch;
const volatile __u32 compat_arch;
const volatile __s32 nr_execve;
const volatile __s32 nr_execveat;

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct utrace_task_state);
} task_state SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, UTRACE_BPF_MAX_KEYS);
	__type(key, struct utrace_bpf_key);
	__type(value, __u64);
} counts SEC(".maps");

/* Calls or tasks that could not be recorded (a full map, no memory). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

static void count_lost(void)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&lost, &zero);

	if (n)
		__sync_fetch_and_add(n, 1);
}

static __u32 arch_of(struct task_struct *task)
{
#if defined(__TARGET_ARCH_x86)
	if (task->thread_info.status & TS_COMPAT)
		return compat_arch;
#elif defined(__TARGET_ARCH_arm64)
	if (task->thread_info.flags & (1UL << TIF_32BIT))
		return compat_arch;
#endif
	return native_arch;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(utrace_fork, struct task_struct *parent, struct task_struct *child)
{
	struct utrace_task_state *p, *c;

	p = bpf_task_storage_get(&task_state, parent, 0, 0);
	if (!p)
		return 0;
	c = bpf_task_storage_get(&task_state, child, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (c)
		c->state = p->state;
	else
		count_lost();
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(utrace_sys_enter, struct pt_regs *regs, long id)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct utrace_task_state *s;
	struct utrace_bpf_key key;
	__u64 one = 1, *n;

	s = bpf_task_storage_get(&task_state, task, 0, 0);
	if (!s)
		return 0;
	key.arch = arch_of(task);
	key.nr = (__u32)id;
	if (s->state == UTRACE_TASK_ARMED) {
		if (key.arch != native_arch || (id != nr_execve && id != nr_execveat))
			return 0;
		s->state = UTRACE_TASK_COUNTING;
	}
	n = bpf_map_lookup_elem(&counts, &key);
	if (n) {
		/* Atomic: a task preempted here on this CPU by another traced one. */
		__sync_fetch_and_add(n, 1);
		return 0;
	}
	if (bpf_map_update_elem(&counts, &key, &one, BPF_NOEXIST) == 0)
		return 0;
	/* Created meanwhile by a task on this CPU: add to it. */
	n = bpf_map_lookup_elem(&counts, &key);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		count_lost();
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
