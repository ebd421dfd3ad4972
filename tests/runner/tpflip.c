// SPDX-License-Identifier: GPL-2.0
/*
 * tpflip: attach an empty BPF program to a tracepoint (default sys_enter)
 * and detach it again, N times (default 1000), then print how long that
 * took. The first attach and the last detach of a tracepoint flip its
 * static key and update its static call, which the kernel does by
 * rewriting the code at every call site with int3 (text_poke_bp): the text
 * patching that each run of utrace's eBPF counter causes, without the
 * loading and BTF parsing in between. Used by tests/runner/tcg_stress.sh.
 *
 *   tpflip [N] [TRACEPOINT]
 */
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/* A raw tracepoint program that returns 0; its descriptor, or -1. */
static int load_empty_program(void)
{
	static const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	attr.license = (unsigned long)"GPL";
	return (int)bpf(BPF_PROG_LOAD, &attr);
}

static int attach(int prog, const char *tracepoint)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.name = (unsigned long)tracepoint;
	attr.raw_tracepoint.prog_fd = (unsigned int)prog;
	return (int)bpf(BPF_RAW_TRACEPOINT_OPEN, &attr);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	const char *tracepoint = argc > 2 ? argv[2] : "sys_enter";
	double start = now();
	int prog = load_empty_program();

	if (prog < 0) {
		fprintf(stderr, "tpflip: loading a raw tracepoint program: %s\n", strerror(errno));
		return 1;
	}
	for (long i = 0; i < n; i++) {
		int link = attach(prog, tracepoint);

		if (link < 0) {
			fprintf(stderr, "tpflip: attaching to %s (flip %ld): %s\n", tracepoint, i,
				strerror(errno));
			return 1;
		}
		close(link);
	}
	printf("tpflip: %ld attach+detach of %s in %.1f s\n", n, tracepoint, now() - start);
	return 0;
}
