/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The compiled-program file that ujail-seccomp writes and the preload shim
 * reads (from an inherited descriptor or a file): a header, then @count
 * struct sock_filter in host byte order. libc only: the shim includes it.
 */
#ifndef UJS_PROGRAM_H
#define UJS_PROGRAM_H

#include <stdint.h>

/* The project's action (kernel/seccomp/0001); absent from libc's headers. */
#ifndef SECCOMP_RET_LOG_ERRNO
#define SECCOMP_RET_LOG_ERRNO 0x00070000U
#endif

#define UJS_PROG_MAGIC "ujailbpf"	/* 8 bytes, no NUL stored */
#define UJS_PROG_VERSION 1
#define UJS_PROG_MAX_INSNS 4096		/* BPF_MAXINSNS */

/* Header flags: SECCOMP_FILTER_FLAG_* the policy asks for. */
#define UJS_PROG_F_LOG		(1U << 0)
#define UJS_PROG_F_SPEC_ALLOW	(1U << 1)

struct ujs_prog_header {
	char magic[8];
	uint32_t version;
	uint32_t audit_arch;
	uint32_t count;
	uint32_t flags;
};

/* Environment of the preload shim (removed by it before main()). */
#define UJS_ENV_FD		"UJAIL_SECCOMP_FD"	 /* program on this fd */
#define UJS_ENV_FILE		"UJAIL_SECCOMP_FILE"	 /* or in this file */
#define UJS_ENV_NOTIFY_FD	"UJAIL_SECCOMP_NOTIFY_FD" /* supervisor socket */
#define UJS_ENV_MODE		"UJAIL_SECCOMP_MODE"	 /* forced: ujs_mode_name() */

#endif
