/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel ABI that the installer and the shim use. The glibc builds take
 * it from the kernel's uapi headers; musl-gcc's include path has none, so
 * the musl shim gets the few stable definitions it needs from here.
 */
#ifndef UJS_SECCOMP_UAPI_H
#define UJS_SECCOMP_UAPI_H

#if defined(__has_include) && __has_include(<linux/seccomp.h>)
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#else
#include <stdint.h>

struct sock_filter {
	uint16_t code;
	uint8_t jt;
	uint8_t jf;
	uint32_t k;
};

struct sock_fprog {
	unsigned short len;
	struct sock_filter *filter;
};

struct seccomp_data {
	int nr;
	uint32_t arch;
	uint64_t instruction_pointer;
	uint64_t args[6];
};

#define BPF_CLASS(code)	((code) & 0x07)
#define BPF_LD		0x00
#define BPF_ALU		0x04
#define BPF_JMP		0x05
#define BPF_RET		0x06
#define BPF_W		0x00
#define BPF_ABS		0x20
#define BPF_AND		0x50
#define BPF_JEQ		0x10
#define BPF_JSET	0x40
#define BPF_K		0x00
#define BPF_RVAL(code)	((code) & 0x18)
#define BPF_MAXINSNS	4096
#define BPF_STMT(code, k) { (unsigned short)(code), 0, 0, k }
#define BPF_JUMP(code, k, jt, jf) { (unsigned short)(code), jt, jf, k }

#define SECCOMP_SET_MODE_FILTER		1
#define SECCOMP_GET_ACTION_AVAIL	2
#define SECCOMP_FILTER_FLAG_TSYNC	(1UL << 0)
#define SECCOMP_FILTER_FLAG_LOG		(1UL << 1)
#define SECCOMP_FILTER_FLAG_SPEC_ALLOW	(1UL << 2)
#define SECCOMP_FILTER_FLAG_NEW_LISTENER (1UL << 3)

#define SECCOMP_RET_KILL_PROCESS 0x80000000U
#define SECCOMP_RET_KILL_THREAD	 0x00000000U
#define SECCOMP_RET_TRAP	 0x00030000U
#define SECCOMP_RET_ERRNO	 0x00050000U
#define SECCOMP_RET_USER_NOTIF	 0x7fc00000U
#define SECCOMP_RET_TRACE	 0x7ff00000U
#define SECCOMP_RET_LOG		 0x7ffc0000U
#define SECCOMP_RET_ALLOW	 0x7fff0000U
#define SECCOMP_RET_ACTION_FULL	 0xffff0000U
#define SECCOMP_RET_DATA	 0x0000ffffU

/* <linux/audit.h>: EM_* | __AUDIT_ARCH_64BIT | __AUDIT_ARCH_LE */
#define AUDIT_ARCH_X86_64	0xc000003eU
#define AUDIT_ARCH_I386		0x40000003U
#define AUDIT_ARCH_AARCH64	0xc00000b7U
#define AUDIT_ARCH_ARM		0x40000028U
#define AUDIT_ARCH_ARMEB	0x00000028U
#define AUDIT_ARCH_MIPS		0x00000008U
#define AUDIT_ARCH_MIPSEL	0x40000008U
#define AUDIT_ARCH_MIPS64	0x80000008U
#define AUDIT_ARCH_MIPSEL64	0xc0000008U
#define AUDIT_ARCH_RISCV64	0xc00000f3U
#endif

/* Newer than some distributions' headers. */
#ifndef SECCOMP_FILTER_FLAG_TSYNC_ESRCH
#define SECCOMP_FILTER_FLAG_TSYNC_ESRCH	(1UL << 4)
#endif

#endif
