/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading a compiled program into the calling process. libc only: this file
 * is also linked into the preload shim, for glibc and for musl.
 *
 * The listener handoff (NOTIFY mode). Once the filter is loaded, every
 * syscall of this process goes through it, including the sendmsg() that
 * passes the listener to the supervisor and the close() calls after it. If
 * the policy denied them, they would wait for an answer on a listener that
 * nobody reads yet: a deadlock. So the loaded filter starts with a prefix,
 * for the native architecture only, that allows
 *   - sendmsg(S, ...) and close(S), S the socket to the supervisor, moved
 *     to a high descriptor number first;
 *   - close(L), L the listener's number, predicted before loading as the
 *     lowest free descriptor (the kernel's choice); another number means we
 *     cannot close the listener safely, and we stop;
 *   - seccomp(SECCOMP_SET_MODE_FILTER) without a listener of its own, for
 *     the seal below;
 *   - exit_group(), so that a failure can always end the process.
 * A filter cannot be removed, but a second one can overrule it: once the
 * listener is handed over and S and L are closed, the seal is loaded. It
 * gives those calls (but exit_group) the policy's answer again, as in
 * errno-log mode: the errno without the supervisor's log line (the kernel
 * logs it). So nothing stays allowed for the life of the process that the
 * policy denies: no sendmsg() of descriptors on a descriptor that later
 * gets number S (dup2(sock, S) is all it would take). The argument checks
 * make close(), sendmsg() and seccomp() uncacheable by the kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "errmsg.h"
#include "fdpass.h"
#include "install.h"

/* The lowest number the supervisor socket is moved to (see above). */
#define HANDOFF_FD_TOP 1023

/*
 * The filter as loaded. Not malloc'ed: free() after loading could call
 * brk() or munmap(), which the policy may deny.
 */
static struct sock_filter filter_buf[BPF_MAXINSNS];

static const char *const mode_names[] = {
	[UJS_MODE_LOG_ERRNO] = "log-errno",
	[UJS_MODE_NOTIFY] = "notify",
	[UJS_MODE_ERRNO_LOG] = "errno-log",
};

const char *ujs_mode_name(enum ujs_mode mode)
{
	if ((unsigned int)mode >= sizeof(mode_names) / sizeof(mode_names[0]))
		return "?";
	return mode_names[mode];
}

int ujs_mode_parse(const char *name, enum ujs_mode *mode)
{
	for (unsigned int i = 0; i < sizeof(mode_names) / sizeof(mode_names[0]); i++) {
		if (strcmp(name, mode_names[i]) == 0) {
			*mode = (enum ujs_mode)i;
			return 0;
		}
	}
	return -1;
}

int ujs_kernel_has_log_errno(void)
{
	uint32_t action = SECCOMP_RET_LOG_ERRNO;

	return syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
}

enum ujs_mode ujs_mode_detect(int have_supervisor)
{
	if (ujs_kernel_has_log_errno())
		return UJS_MODE_LOG_ERRNO;
	return have_supervisor ? UJS_MODE_NOTIFY : UJS_MODE_ERRNO_LOG;
}

uint32_t ujs_native_audit_arch(void)
{
#if defined(__x86_64__)
	return AUDIT_ARCH_X86_64;	/* x32 too: its numbers carry a bit */
#elif defined(__i386__)
	return AUDIT_ARCH_I386;
#elif defined(__aarch64__)
	return AUDIT_ARCH_AARCH64;
#elif defined(__arm__) && defined(__ARMEB__)
	return AUDIT_ARCH_ARMEB;
#elif defined(__arm__)
	return AUDIT_ARCH_ARM;
#elif defined(__mips__) && _MIPS_SIM == _ABIO32 && defined(__MIPSEB__)
	return AUDIT_ARCH_MIPS;
#elif defined(__mips__) && _MIPS_SIM == _ABIO32
	return AUDIT_ARCH_MIPSEL;
#elif defined(__mips__) && _MIPS_SIM == _ABI64 && defined(__MIPSEB__)
	return AUDIT_ARCH_MIPS64;
#elif defined(__mips__) && _MIPS_SIM == _ABI64
	return AUDIT_ARCH_MIPSEL64;
#elif defined(__riscv) && __riscv_xlen == 64
	return AUDIT_ARCH_RISCV64;
#else
#error "ujail-seccomp: no AUDIT_ARCH_* for this architecture"
#endif
}

/* read() until @len bytes or the end of the file; bytes read or -1. */
static ssize_t read_full(int fd, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, (char *)buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static int check_header(const struct ujs_prog_header *h, uint32_t audit_arch,
			char *err, size_t errlen)
{
	const uint32_t known_flags = UJS_PROG_F_LOG | UJS_PROG_F_SPEC_ALLOW;

	if (memcmp(h->magic, UJS_PROG_MAGIC, sizeof(h->magic)) != 0)
		return ujs_fail(err, errlen, "not a compiled seccomp program (bad magic)");
	if (h->version != UJS_PROG_VERSION)
		return ujs_fail(err, errlen, "program version %u, this loader reads version %u",
				h->version, UJS_PROG_VERSION);
	if (audit_arch && h->audit_arch != audit_arch)
		return ujs_fail(err, errlen,
				"program is for audit arch 0x%08x, this machine is 0x%08x: compile it for this machine",
				h->audit_arch, audit_arch);
	if (h->count == 0 || h->count > UJS_PROG_MAX_INSNS)
		return ujs_fail(err, errlen, "instruction count %u out of range 1..%u",
				h->count, UJS_PROG_MAX_INSNS);
	if (h->flags & ~known_flags)
		return ujs_fail(err, errlen, "unknown flags 0x%x", h->flags & ~known_flags);
	return 0;
}

static int read_insns(int fd, struct ujs_loaded_program *prog, char *err,
		      size_t errlen)
{
	size_t size = prog->count * sizeof(*prog->insns);
	char extra;
	ssize_t n;

	prog->insns = malloc(size);
	if (!prog->insns)
		return ujs_fail(err, errlen, "out of memory for %u instructions", prog->count);
	n = read_full(fd, prog->insns, size);
	if (n < 0)
		return ujs_fail(err, errlen, "read: %s", strerror(errno));
	if ((size_t)n < size)
		return ujs_fail(err, errlen, "truncated: %zu of %u instructions",
				(size_t)n / sizeof(*prog->insns), prog->count);
	n = read_full(fd, &extra, 1);
	if (n < 0)
		return ujs_fail(err, errlen, "read: %s", strerror(errno));
	if (n > 0)
		return ujs_fail(err, errlen, "data after the %u instructions the header announces",
				prog->count);
	return 0;
}

int ujs_program_read(int fd, struct ujs_loaded_program *prog, char *err,
		     size_t errlen)
{
	return ujs_program_read_arch(fd, ujs_native_audit_arch(), prog, err, errlen);
}

int ujs_program_read_arch(int fd, uint32_t audit_arch,
			  struct ujs_loaded_program *prog, char *err,
			  size_t errlen)
{
	struct ujs_prog_header h;
	ssize_t n;

	memset(prog, 0, sizeof(*prog));
	n = read_full(fd, &h, sizeof(h));
	if (n < 0)
		return ujs_fail(err, errlen, "read: %s", strerror(errno));
	if ((size_t)n < sizeof(h))
		return ujs_fail(err, errlen, "truncated header: %zd of %zu bytes", n, sizeof(h));
	if (check_header(&h, audit_arch, err, errlen))
		return -1;
	prog->count = h.count;
	prog->audit_arch = h.audit_arch;
	prog->flags = h.flags;
	if (read_insns(fd, prog, err, errlen)) {
		ujs_loaded_program_free(prog);
		return -1;
	}
	return 0;
}

void ujs_loaded_program_free(struct ujs_loaded_program *prog)
{
	free(prog->insns);
	prog->insns = NULL;
	prog->count = 0;
}

/* The loaded value of a LOG_ERRNO return in @mode. */
static uint32_t rewrite_ret(uint32_t k, enum ujs_mode mode)
{
	if ((k & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_LOG_ERRNO)
		return k;
	switch (mode) {
	case UJS_MODE_ERRNO_LOG:
		return SECCOMP_RET_ERRNO | (k & SECCOMP_RET_DATA);
	case UJS_MODE_NOTIFY:
		/* The supervisor finds the errno in the original program. */
		return SECCOMP_RET_USER_NOTIF;
	case UJS_MODE_LOG_ERRNO:
		break;
	}
	return k;
}

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG0_LO offsetof(struct seccomp_data, args[0])
#define ARG0_HI (offsetof(struct seccomp_data, args[0]) + 4)
#else
#define ARG0_LO (offsetof(struct seccomp_data, args[0]) + 4)
#define ARG0_HI offsetof(struct seccomp_data, args[0])
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG1_LO offsetof(struct seccomp_data, args[1])
#else
#define ARG1_LO (offsetof(struct seccomp_data, args[1]) + 4)
#endif

#define LD(off) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (uint32_t)(off))
#define JEQ(k, jt, jf) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(k), jt, jf)
#define JSET(k, jt, jf) BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, (uint32_t)(k), jt, jf)

/*
 * The handoff prefix (see the top of the file). Every path that allows
 * nothing ends at its last instruction, which sets A back to 0 so that the
 * policy starts in the state the kernel starts a filter in. Only loads of
 * nr/arch/args, JEQ, JSET and AND: the kernel's constant-action cache still
 * works for every other syscall.
 */
static void handoff_prefix(struct sock_filter *out, uint32_t arch, int sock,
			   int listener)
{
	const struct sock_filter prefix[UJS_HANDOFF_PREFIX_LEN] = {
		/* 0 */ LD(offsetof(struct seccomp_data, arch)),
		/* 1 */ JEQ(arch, 0, 19),
		/* 2 */ LD(offsetof(struct seccomp_data, nr)),
		/* 3 */ JEQ(SYS_exit_group, 16, 0),
		/* 4 */ JEQ(SYS_seccomp, 0, 4),
		/* 5 */ LD(ARG1_LO),	/* the kernel reads 32 bits of op and flags */
		/* 6 */ JSET(SECCOMP_FILTER_FLAG_NEW_LISTENER, 14, 0),
		/* 7 */ LD(ARG0_LO),
		/* 8 */ JEQ(SECCOMP_SET_MODE_FILTER, 11, 12),
		/* 9 */ JEQ(SYS_sendmsg, 0, 4),
		/* 10 */ LD(ARG0_HI),
		/* 11 */ JEQ(0, 0, 9),
		/* 12 */ LD(ARG0_LO),
		/* 13 */ JEQ(sock, 6, 7),
		/* 14 */ JEQ(SYS_close, 0, 6),
		/* 15 */ LD(ARG0_HI),
		/* 16 */ JEQ(0, 0, 4),
		/* 17 */ LD(ARG0_LO),
		/* 18 */ JEQ(sock, 1, 0),
		/* 19 */ JEQ(listener, 0, 1),
		/* 20 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		/* 21 */ BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0),
	};

	memcpy(out, prefix, sizeof(prefix));
}

/*
 * The seal's prefix: the calls the handoff prefix lets through (but
 * exit_group) go on to the policy, every other call is allowed here (the
 * handoff filter has decided it already).
 */
static void seal_prefix(struct sock_filter *out, uint32_t arch, int sock,
			int listener)
{
	const struct sock_filter prefix[UJS_SEAL_PREFIX_LEN] = {
		/* 0 */ LD(offsetof(struct seccomp_data, arch)),
		/* 1 */ JEQ(arch, 0, 9),
		/* 2 */ LD(offsetof(struct seccomp_data, nr)),
		/* 3 */ JEQ(SYS_seccomp, 8, 0),
		/* 4 */ JEQ(SYS_sendmsg, 1, 0),
		/* 5 */ JEQ(SYS_close, 0, 5),
		/* 6 */ LD(ARG0_HI),
		/* 7 */ JEQ(0, 0, 3),
		/* 8 */ LD(ARG0_LO),
		/* 9 */ JEQ(sock, 2, 0),
		/* 10 */ JEQ(listener, 1, 0),
		/* 11 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		/* 12 */ BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0),
	};

	memcpy(out, prefix, sizeof(prefix));
}

/* @prog after @skip instructions of @out, its LOG_ERRNO returns for @mode. */
static void copy_program(const struct ujs_loaded_program *prog, enum ujs_mode mode,
			 struct sock_filter *out, size_t skip, size_t *len)
{
	for (size_t i = 0; i < prog->count; i++) {
		struct sock_filter insn = prog->insns[i];

		if (BPF_CLASS(insn.code) == BPF_RET && BPF_RVAL(insn.code) == BPF_K)
			insn.k = rewrite_ret(insn.k, mode);
		out[skip + i] = insn;
	}
	*len = skip + prog->count;
}

int ujs_filter_build(const struct ujs_loaded_program *prog, enum ujs_mode mode,
		     int sock, int listener, struct sock_filter *out,
		     size_t *len, char *err, size_t errlen)
{
	size_t skip = mode == UJS_MODE_NOTIFY ? UJS_HANDOFF_PREFIX_LEN : 0;

	if (prog->count == 0 || skip + prog->count > BPF_MAXINSNS)
		return ujs_fail(err, errlen, "%u instructions%s: the kernel takes 1..%d",
				prog->count, skip ? " and the handoff prefix" : "",
				BPF_MAXINSNS);
	if (skip)
		handoff_prefix(out, ujs_native_audit_arch(), sock, listener);
	copy_program(prog, mode, out, skip, len);
	return 0;
}

int ujs_seal_build(const struct ujs_loaded_program *prog, int sock, int listener,
		   struct sock_filter *out, size_t *len)
{
	if (prog->count == 0 || UJS_SEAL_PREFIX_LEN + prog->count > BPF_MAXINSNS)
		return -1;
	seal_prefix(out, ujs_native_audit_arch(), sock, listener);
	copy_program(prog, UJS_MODE_ERRNO_LOG, out, UJS_SEAL_PREFIX_LEN, len);
	return 0;
}

unsigned long ujs_filter_flags(const struct ujs_loaded_program *prog,
			       enum ujs_mode mode)
{
	unsigned long flags = SECCOMP_FILTER_FLAG_TSYNC;

	if ((prog->flags & UJS_PROG_F_LOG) || mode == UJS_MODE_ERRNO_LOG)
		flags |= SECCOMP_FILTER_FLAG_LOG;
	if (prog->flags & UJS_PROG_F_SPEC_ALLOW)
		flags |= SECCOMP_FILTER_FLAG_SPEC_ALLOW;
	/* TSYNC alone returns a thread id on failure, which a listener fd
	 * would be mistaken for: TSYNC_ESRCH (5.7+) makes that -ESRCH. */
	if (mode == UJS_MODE_NOTIFY)
		flags |= SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_TSYNC_ESRCH;
	return flags;
}

static long load_filter(struct sock_filter *insns, size_t len,
			unsigned long flags)
{
	struct sock_fprog fprog = {
		.len = (unsigned short)len,
		.filter = insns,
	};

	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &fprog);
}

static int load_error(long ret, char *err, size_t errlen)
{
	if (ret > 0)
		return ujs_fail(err, errlen,
				"seccomp: thread %ld cannot take the filter (TSYNC)", ret);
	if (errno == ESRCH)
		return ujs_fail(err, errlen,
				"seccomp: a thread of the process cannot take the filter (TSYNC)");
	return ujs_fail(err, errlen, "seccomp: %s", strerror(errno));
}

/* LOG_ERRNO and ERRNO_LOG: load, nothing to hand over. */
static int install_plain(const struct ujs_loaded_program *prog,
			 enum ujs_mode mode, char *err, size_t errlen)
{
	size_t len = 0;
	long ret;

	if (ujs_filter_build(prog, mode, -1, -1, filter_buf, &len, err, errlen))
		return -1;
	ret = load_filter(filter_buf, len, ujs_filter_flags(prog, mode));
	if (ret != 0)
		return load_error(ret, err, errlen);
	return (int)mode;
}

/* Move @fd to a descriptor number programs rarely reach (see the top). */
static int move_fd_high(int fd)
{
	struct rlimit lim;
	long top = HANDOFF_FD_TOP;
	int high;

	if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY &&
	    (long)lim.rlim_cur - 1 < top)
		top = (long)lim.rlim_cur - 1;
	if (top <= fd)
		return fd;
	high = fcntl(fd, F_DUPFD_CLOEXEC, (int)top);
	if (high < 0)
		return fd;
	close(fd);
	return high;
}

/* The number the kernel will give the listener: the lowest free one. */
static int lowest_free_fd(int any_fd)
{
	int fd = fcntl(any_fd, F_DUPFD, 0);

	if (fd >= 0)
		close(fd);
	return fd;
}

/* Raw syscalls with the numbers the prefix allows (libc may use others). */
static long send_listener(int sock, int listener)
{
	struct ujs_fd_msg m;
	long ret;

	ujs_fd_msg_init(&m, listener);
	do
		ret = syscall(SYS_sendmsg, sock, &m.msg, MSG_NOSIGNAL);
	while (ret < 0 && errno == EINTR);
	return ret;
}

/*
 * After loading, with the handoff unfinished, only the prefix's calls are
 * safe: end the process. The message is written only once nothing can
 * wait on the listener any more (handed over, or closed).
 */
__attribute__((noreturn))
static void die_filtered(bool safe_to_write, const char *msg)
{
	if (safe_to_write) {
		ssize_t ignored = write(STDERR_FILENO, msg, strlen(msg));

		(void)ignored;
	}
	for (;;)
		syscall(SYS_exit_group, 127);
}

/*
 * The handoff's calls get the policy's answer again (see the top). The
 * handoff filter lets this seccomp() through; a failure ends the process.
 */
static void seal(const struct ujs_loaded_program *prog, int sock, int listener)
{
	size_t len = 0;

	if (ujs_seal_build(prog, sock, listener, filter_buf, &len) < 0 ||
	    load_filter(filter_buf, len, ujs_filter_flags(prog, UJS_MODE_ERRNO_LOG)) != 0)
		die_filtered(true, "seccomp install: cannot load the filter that ends the "
			     "handoff's exceptions\n");
}

static int install_notify(const struct ujs_loaded_program *prog, int sock,
			  char *err, size_t errlen)
{
	int listener_expected;
	long listener, sent;
	size_t len = 0;

	sock = move_fd_high(sock);
	listener_expected = lowest_free_fd(sock);
	if (listener_expected < 0) {
		close(sock);
		return ujs_fail(err, errlen, "no free descriptor for the listener: %s",
				strerror(errno));
	}
	if (ujs_filter_build(prog, UJS_MODE_NOTIFY, sock, listener_expected,
			     filter_buf, &len, err, errlen)) {
		close(sock);
		return -1;
	}
	listener = load_filter(filter_buf, len, ujs_filter_flags(prog, UJS_MODE_NOTIFY));
	if (listener < 0) {
		close(sock);
		return load_error(listener, err, errlen);
	}
	/* The filter is in force: nothing but the prefix's calls until the
	 * supervisor holds the listener. */
	sent = send_listener(sock, (int)listener);
	if (listener != listener_expected)
		die_filtered(sent >= 0,
			     "seccomp install: the listener is not on the predicted descriptor, cannot close it\n");
	syscall(SYS_close, listener);
	syscall(SYS_close, sock);
	if (sent < 0)
		die_filtered(true, "seccomp install: cannot hand the listener to the supervisor\n");
	seal(prog, sock, (int)listener_expected);
	return UJS_MODE_NOTIFY;
}

int ujs_install_mode(struct ujs_loaded_program *prog, enum ujs_mode mode,
		     int notify_sock, char *err, size_t errlen)
{
	if (mode == UJS_MODE_NOTIFY && notify_sock < 0)
		return ujs_fail(err, errlen, "notify mode needs a supervisor");
	if (mode == UJS_MODE_LOG_ERRNO && !ujs_kernel_has_log_errno()) {
		if (notify_sock >= 0)
			close(notify_sock);
		return ujs_fail(err, errlen, "the kernel has no SECCOMP_RET_LOG_ERRNO action");
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		if (notify_sock >= 0)
			close(notify_sock);
		return ujs_fail(err, errlen, "prctl(PR_SET_NO_NEW_PRIVS): %s", strerror(errno));
	}
	if (mode == UJS_MODE_NOTIFY)
		return install_notify(prog, notify_sock, err, errlen);
	/* The supervisor sees the socket close: no listener is coming. */
	if (notify_sock >= 0)
		close(notify_sock);
	return install_plain(prog, mode, err, errlen);
}
