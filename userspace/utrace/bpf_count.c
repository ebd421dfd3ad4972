// SPDX-License-Identifier: GPL-2.0
/* The ebpf backend's loader; see bpf_count.h. */
#include <errno.h>
#include <linux/audit.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "count.skel.h"
#include "seccomp/errmsg.h"
#include "utrace/bpf_count.h"
#include "utrace/count_bpf.h"
#include "utrace/filter.h"

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#define COMPAT_ARCH AUDIT_ARCH_I386
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#define COMPAT_ARCH AUDIT_ARCH_ARM
#endif

struct utrace_bpf {
	struct utrace_kcount *skel;
};

/* libbpf's last warning, for the message when loading fails. */
static char libbpf_said[256];

static int keep_last_warning(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	size_t n;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(libbpf_said, sizeof(libbpf_said), fmt, ap);
	n = strlen(libbpf_said);
	while (n && libbpf_said[n - 1] == '\n')
		libbpf_said[--n] = '\0';
	return 0;
}

/* Why the kernel refused, in the words a user can act on. */
static int load_failed(const char *step, int error, char *err, size_t errlen)
{
	if (error == EPERM || error == EACCES)
		return ujs_fail(err, errlen, "%s: %s (loading BPF programs needs CAP_BPF and "
				"CAP_PERFMON: run as root)", step, strerror(error));
	if (error == ENOSYS)
		return ujs_fail(err, errlen, "%s: the kernel has no bpf() (CONFIG_BPF_SYSCALL)",
				step);
	return ujs_fail(err, errlen, "%s: %s%s%s", step, strerror(error),
			libbpf_said[0] ? "; libbpf: " : "", libbpf_said);
}

#ifdef NATIVE_ARCH
static void set_constants(struct utrace_kcount *skel)
{
	skel->rodata->native_arch = NATIVE_ARCH;
	skel->rodata->compat_arch = COMPAT_ARCH;
	skel->rodata->nr_execve = SYS_execve;
	skel->rodata->nr_execveat = SYS_execveat;
}
#endif

struct utrace_bpf *utrace_bpf_open(char *err, size_t errlen)
{
#ifndef NATIVE_ARCH
	ujs_fail(err, errlen, "the ebpf backend knows x86_64 and aarch64 only");
	return NULL;
#else
	struct utrace_bpf *b;

	if (access("/sys/kernel/btf/vmlinux", R_OK) < 0) {
		ujs_fail(err, errlen, "the kernel has no BTF (/sys/kernel/btf/vmlinux: %s; "
			 "CONFIG_DEBUG_INFO_BTF)", strerror(errno));
		return NULL;
	}
	b = calloc(1, sizeof(*b));
	if (!b) {
		ujs_fail(err, errlen, "out of memory");
		return NULL;
	}
	libbpf_said[0] = '\0';
	libbpf_set_print(keep_last_warning);
	b->skel = utrace_kcount__open();
	if (!b->skel) {
		load_failed("open the BPF counter", errno, err, errlen);
		goto fail;
	}
	set_constants(b->skel);
	if (utrace_kcount__load(b->skel)) {
		load_failed("load the BPF counter", errno, err, errlen);
		goto fail;
	}
	if (utrace_kcount__attach(b->skel)) {
		load_failed("attach the BPF counter", errno, err, errlen);
		goto fail;
	}
	return b;
fail:
	utrace_bpf_close(b);
	return NULL;
#endif
}

int utrace_bpf_arm_fd(const struct utrace_bpf *b)
{
	return bpf_map__fd(b->skel->maps.task_state);
}

int utrace_bpf_arm_self(const struct utrace_bpf *b, char *err, size_t errlen)
{
	struct utrace_task_state armed = { .state = UTRACE_TASK_ARMED };
	int pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0), ret;

	if (pidfd < 0)
		return ujs_fail(err, errlen, "pidfd_open: %s", strerror(errno));
	/* The task storage map takes a pidfd as the key of its task. */
	ret = bpf_map_update_elem(utrace_bpf_arm_fd(b), &pidfd, &armed, BPF_ANY);
	if (ret)
		ret = ujs_fail(err, errlen, "mark the task for the BPF counter: %s",
			       strerror(errno));
	close(pidfd);
	return ret;
}

static uint64_t sum_percpu(const uint64_t *v, int ncpus)
{
	uint64_t sum = 0;

	for (int i = 0; i < ncpus; i++)
		sum += v[i];
	return sum;
}

static int collect_lost(const struct utrace_bpf *b, uint64_t *v, int ncpus, char *err,
			size_t errlen)
{
	uint32_t zero = 0;
	uint64_t lost;

	if (bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.lost), &zero, v))
		return ujs_fail(err, errlen, "read the BPF counter: %s", strerror(errno));
	lost = sum_percpu(v, ncpus);
	if (lost)
		return ujs_fail(err, errlen, "the BPF counter lost %llu calls or tasks (out of "
				"memory in the kernel); the counts would be wrong",
				(unsigned long long)lost);
	return 0;
}

int utrace_bpf_collect(const struct utrace_bpf *b, const struct ujs_policy *seen,
		       struct utrace_counts *c, char *err, size_t errlen)
{
	int fd = bpf_map__fd(b->skel->maps.counts), ncpus = libbpf_num_possible_cpus();
	struct utrace_bpf_key key, next, *prev = NULL;
	uint64_t *v;
	int ret = 0;

	if (ncpus <= 0)
		return ujs_fail(err, errlen, "the number of CPUs: %s", strerror(-ncpus));
	v = calloc((size_t)ncpus, sizeof(*v));
	if (!v)
		return ujs_fail(err, errlen, "out of memory");
	ret = collect_lost(b, v, ncpus, err, errlen);
	while (!ret && bpf_map_get_next_key(fd, prev, &next) == 0) {
		if (bpf_map_lookup_elem(fd, &next, v))
			ret = ujs_fail(err, errlen, "read the BPF counts: %s", strerror(errno));
		else if (seen && utrace_seen_covers(seen, next.arch, next.nr))
			;	/* --coverage: a call the ptrace filter lets through */
		else if (utrace_count_add_many(c, next.arch, next.nr, sum_percpu(v, ncpus)))
			ret = ujs_fail(err, errlen, "counting calls: out of memory");
		key = next;
		prev = &key;
	}
	free(v);
	return ret;
}

void utrace_bpf_close(struct utrace_bpf *b)
{
	if (!b)
		return;
	utrace_kcount__destroy(b->skel);
	free(b);
}
