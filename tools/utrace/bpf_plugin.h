/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ebpf backend as a plugin, utrace-ebpf.so (userspace/seccomp/plugin.h):
 * bpf_count.c's functions, exported as one table. dl/bpf_count_dl.c
 * implements bpf_count.h by loading it on the first utrace_bpf_open().
 */
#ifndef UTRACE_BPF_PLUGIN_H
#define UTRACE_BPF_PLUGIN_H

#include "bpf_count.h"

#define UTRACE_BPF_PLUGIN_FILE "utrace-ebpf.so"
#define UTRACE_BPF_PLUGIN_SYM "utrace_bpf_plugin"

struct utrace_bpf_ops {
	struct utrace_bpf *(*open)(char *err, size_t errlen);
	int (*arm_self)(const struct utrace_bpf *b, char *err, size_t errlen);
	int (*arm_fd)(const struct utrace_bpf *b);
	int (*collect)(const struct utrace_bpf *b, const struct ujs_policy *seen,
		       struct utrace_counts *c, char *err, size_t errlen);
	void (*close)(struct utrace_bpf *b);
};

#endif
