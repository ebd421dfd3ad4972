// SPDX-License-Identifier: GPL-2.0
/* utrace-ebpf.so's one export: bpf_count.c's functions (bpf_plugin.h). */
#include "bpf_plugin.h"

__attribute__((visibility("default")))
const struct utrace_bpf_ops utrace_bpf_plugin = {
	.open = utrace_bpf_open,
	.arm_self = utrace_bpf_arm_self,
	.arm_fd = utrace_bpf_arm_fd,
	.collect = utrace_bpf_collect,
	.close = utrace_bpf_close,
};
