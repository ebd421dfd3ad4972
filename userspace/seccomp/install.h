/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Installing a compiled program in the calling process: used by the preload
 * shim (right before main()) and by the runner before execve() of a static
 * program. libc only.
 */
#ifndef UJS_INSTALL_H
#define UJS_INSTALL_H

#include <stddef.h>
#include <stdint.h>

#include "program.h"
#include "seccomp_uapi.h"

/* How denials that the policy wants logged (SCMP_ACT_LOG_ERRNO) behave. */
enum ujs_mode {
	UJS_MODE_LOG_ERRNO,	/* the kernel has SECCOMP_RET_LOG_ERRNO */
	UJS_MODE_NOTIFY,	/* SECCOMP_RET_USER_NOTIF, a supervisor logs and answers */
	UJS_MODE_ERRNO_LOG,	/* SECCOMP_RET_ERRNO with SECCOMP_FILTER_FLAG_LOG */
};

/* "log-errno", "notify", "errno-log". */
const char *ujs_mode_name(enum ujs_mode mode);
/* The reverse of ujs_mode_name(); -1 for an unknown name. */
int ujs_mode_parse(const char *name, enum ujs_mode *mode);

/* SECCOMP_GET_ACTION_AVAIL knows SECCOMP_RET_LOG_ERRNO. */
int ujs_kernel_has_log_errno(void);

/* The mode in force on this kernel, with or without a supervisor. */
enum ujs_mode ujs_mode_detect(int have_supervisor);

/* AUDIT_ARCH_* of the architecture this code was built for. */
uint32_t ujs_native_audit_arch(void);

struct ujs_loaded_program {
	struct sock_filter *insns;	/* malloc'ed */
	uint32_t count;
	uint32_t audit_arch;
	uint32_t flags;			/* UJS_PROG_F_* */
};

/*
 * Read and check a program file from @fd (up to its end; short reads are
 * fine, so a pipe works too); -1 and a message on error.
 */
int ujs_program_read(int fd, struct ujs_loaded_program *prog,
		     char *err, size_t errlen);
/* The same for a program of @audit_arch (0: any), for the offline tools. */
int ujs_program_read_arch(int fd, uint32_t audit_arch,
			  struct ujs_loaded_program *prog, char *err,
			  size_t errlen);
void ujs_loaded_program_free(struct ujs_loaded_program *prog);

/*
 * Set no_new_privs and install @prog in the calling thread (all threads:
 * TSYNC), rewriting SECCOMP_RET_LOG_ERRNO returns for @mode (the caller's
 * choice, ujs_mode_detect(); fails if the kernel lacks it).
 * @notify_sock >= 0: a supervisor waits on this socket for the listener;
 * the socket is closed in every case.
 * Returns the mode used, or -1 and a message (nothing installed). A failure
 * after the filter is in force (the listener handoff) cannot be left to the
 * caller: the process is terminated with status 127 after the message.
 */
int ujs_install_mode(struct ujs_loaded_program *prog, enum ujs_mode mode,
		     int notify_sock, char *err, size_t errlen);

/*
 * The filter that ujs_install_mode() loads, exposed for tests: @prog with
 * its LOG_ERRNO returns rewritten for @mode and, in NOTIFY mode, the
 * handoff prefix for @sock and @listener in front. @out has room for
 * BPF_MAXINSNS instructions.
 */
#define UJS_HANDOFF_PREFIX_LEN 22
int ujs_filter_build(const struct ujs_loaded_program *prog, enum ujs_mode mode,
		     int sock, int listener, struct sock_filter *out,
		     size_t *len, char *err, size_t errlen);
/*
 * The seal loaded after the handoff (NOTIFY mode): the calls the handoff
 * prefix lets through (but exit_group) get @prog's answer, its LOG_ERRNO
 * returns as ERRNO; every other call is allowed (decided by the first
 * filter). 0, or -1 if @prog is too long.
 */
#define UJS_SEAL_PREFIX_LEN 13
int ujs_seal_build(const struct ujs_loaded_program *prog, int sock, int listener,
		   struct sock_filter *out, size_t *len);
/* SECCOMP_FILTER_FLAG_* for @prog in @mode. */
unsigned long ujs_filter_flags(const struct ujs_loaded_program *prog,
			       enum ujs_mode mode);

#endif
