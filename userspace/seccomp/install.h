/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Installing a compiled program in the calling process: used by the preload
 * shim (right before main()) and by the runner before execve() of a static
 * program. libc only.
 */
#ifndef UJS_INSTALL_H
#define UJS_INSTALL_H

#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>

/* How denials that the policy wants logged (SCMP_ACT_LOG_ERRNO) behave. */
enum ujs_mode {
	UJS_MODE_LOG_ERRNO,	/* the kernel has SECCOMP_RET_LOG_ERRNO */
	UJS_MODE_NOTIFY,	/* SECCOMP_RET_USER_NOTIF, a supervisor logs and answers */
	UJS_MODE_ERRNO_LOG,	/* SECCOMP_RET_ERRNO with SECCOMP_FILTER_FLAG_LOG */
};

const char *ujs_mode_name(enum ujs_mode mode);

/* The mode in force on this kernel, with or without a supervisor. */
enum ujs_mode ujs_mode_detect(int have_supervisor);

struct ujs_loaded_program {
	struct sock_filter *insns;	/* malloc'ed */
	uint32_t count;
	uint32_t audit_arch;
	uint32_t flags;			/* UJS_PROG_F_* */
};

/* Read and check a program file from @fd; -1 and a message on error. */
int ujs_program_read(int fd, struct ujs_loaded_program *prog,
		     char *err, size_t errlen);

/*
 * Set no_new_privs and install @prog in the calling thread (all threads:
 * TSYNC), rewriting SECCOMP_RET_LOG_ERRNO returns for the mode in force.
 * @notify_sock >= 0: a supervisor waits on this socket for the listener.
 * Returns the mode used, or -1 and a message.
 */
int ujs_install(struct ujs_loaded_program *prog, int notify_sock,
		char *err, size_t errlen);

#endif
