/* SPDX-License-Identifier: GPL-2.0 */
/*
 * install.c: reading program files, the rewrite of LOG_ERRNO returns for
 * each mode, the listener handoff prefix, and real installs in children
 * (errno-log, and notify with a policy that denies the handoff's own calls,
 * after which sendmsg() on the handoff socket's number is the policy's).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf.h"
#include "fdpass.h"
#include "install.h"
#include "tap.h"
#include "test_util.h"

#define ARCH_OFF offsetof(struct seccomp_data, arch)
#define NR_OFF offsetof(struct seccomp_data, nr)

/* Allow everything but sendmsg, close, seccomp (LOG_ERRNO 1) and getuid (LOG_ERRNO 13). */
static struct sock_filter policy[] = {
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARCH_OFF),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0 /* native, set in main */, 1, 0),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR_OFF),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getuid, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_LOG_ERRNO | 13),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_sendmsg, 3, 0),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_close, 2, 0),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_seccomp, 1, 0),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_LOG_ERRNO | 1),
};
#define POLICY_LEN (sizeof(policy) / sizeof(policy[0]))

static struct ujs_loaded_program policy_program(void)
{
	struct ujs_loaded_program p = {
		.insns = policy, .count = POLICY_LEN,
		.audit_arch = ujs_native_audit_arch(),
	};
	return p;
}

/* ---- reading ---- */

static struct ujs_prog_header good_header(uint32_t count)
{
	struct ujs_prog_header h = {
		.version = UJS_PROG_VERSION,
		.audit_arch = ujs_native_audit_arch(),
		.count = count,
	};

	memcpy(h.magic, UJS_PROG_MAGIC, sizeof(h.magic));
	return h;
}

/* Feeds @len bytes through a pipe in 3-byte writes: short reads. */
static int read_bytes(const void *buf, size_t len, struct ujs_loaded_program *p,
		      char *err, size_t errlen)
{
	int fds[2], ret, status;
	pid_t pid;

	if (pipe(fds))
		return -2;
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		for (size_t off = 0; off < len; off += 3) {
			if (write(fds[1], (const char *)buf + off, len - off < 3 ? len - off : 3) < 0)
				_exit(1);
			usleep(100);
		}
		_exit(0);
	}
	close(fds[1]);
	ret = ujs_program_read(fds[0], p, err, errlen);
	close(fds[0]);
	waitpid(pid, &status, 0);
	return ret;
}

struct file_image {
	struct ujs_prog_header h;
	struct sock_filter insns[POLICY_LEN];
	char extra;
};

static void expect_read_error(struct file_image *img, size_t len,
			      const char *msg_part, const char *what)
{
	struct ujs_loaded_program p;
	char err[256] = "";
	int ret = read_bytes(img, len, &p, err, sizeof(err));

	ok(ret == -1 && strstr(err, msg_part), "read error: %s (\"%s\")", what, err);
}

static void test_read(void)
{
	struct file_image img;
	struct ujs_loaded_program p;
	char err[256] = "";
	size_t full = sizeof(img.h) + sizeof(img.insns);

	img.h = good_header(POLICY_LEN);
	memcpy(img.insns, policy, sizeof(policy));
	ok(read_bytes(&img, full, &p, err, sizeof(err)) == 0 && p.count == POLICY_LEN &&
	   memcmp(p.insns, policy, sizeof(policy)) == 0 &&
	   p.audit_arch == ujs_native_audit_arch(),
	   "reads a program through short reads (%s)", err);
	ujs_loaded_program_free(&p);

	expect_read_error(&img, 10, "truncated header", "10 bytes");
	expect_read_error(&img, 0, "truncated header", "empty file");
	expect_read_error(&img, full - 5, "truncated: 10 of 11", "a partial instruction");
	img.extra = 'x';
	expect_read_error(&img, full + 1, "data after", "trailing byte");
	img.h.magic[0] = 'X';
	expect_read_error(&img, full, "bad magic", "magic");
	img.h = good_header(POLICY_LEN);
	img.h.version = 2;
	expect_read_error(&img, full, "version 2", "version");
	img.h = good_header(POLICY_LEN);
	img.h.audit_arch ^= 1;
	expect_read_error(&img, full, "audit arch", "foreign architecture");
	img.h = good_header(0);
	expect_read_error(&img, full, "count 0 out of range", "no instruction");
	img.h = good_header(UJS_PROG_MAX_INSNS + 1);
	expect_read_error(&img, full, "count 4097 out of range", "4097 instructions");
	img.h = good_header(POLICY_LEN);
	img.h.flags = 0x80;
	expect_read_error(&img, full, "unknown flags 0x80", "flags");
}

/* ---- the filter as loaded ---- */

static uint32_t run2(const struct sock_filter *insns, size_t len, uint32_t arch,
		     uint32_t nr, uint64_t arg0, uint64_t arg1)
{
	struct seccomp_data d = { .nr = (int)nr, .arch = arch, .args = { arg0, arg1 } };
	char err[128];
	uint32_t ret = 0xdead;

	if (ujs_bpf_run(insns, len, &d, &ret, err, sizeof(err)))
		bail("%s", err);
	return ret;
}

static uint32_t run(const struct sock_filter *insns, size_t len, uint32_t arch,
		    uint32_t nr, uint64_t arg0)
{
	return run2(insns, len, arch, nr, arg0, 0);
}

static void test_rewrite(void)
{
	struct ujs_loaded_program p = policy_program();
	static struct sock_filter out[BPF_MAXINSNS];
	uint32_t arch = ujs_native_audit_arch();
	char err[128];
	size_t len;

	ok(ujs_filter_build(&p, UJS_MODE_LOG_ERRNO, -1, -1, out, &len, err, sizeof(err)) == 0 &&
	   len == POLICY_LEN && memcmp(out, policy, sizeof(policy)) == 0,
	   "log-errno: the program is loaded as it is");

	ujs_filter_build(&p, UJS_MODE_ERRNO_LOG, -1, -1, out, &len, err, sizeof(err));
	ok(len == POLICY_LEN && out[5].k == (SECCOMP_RET_ERRNO | 13) &&
	   out[10].k == (SECCOMP_RET_ERRNO | 1),
	   "errno-log: LOG_ERRNO returns become ERRNO with the same errno");
	ok(out[2].k == SECCOMP_RET_KILL_PROCESS && out[9].k == SECCOMP_RET_ALLOW &&
	   memcmp(out, policy, 5 * sizeof(*out)) == 0,
	   "errno-log: other instructions are untouched");

	ujs_filter_build(&p, UJS_MODE_NOTIFY, 1000, 3, out, &len, err, sizeof(err));
	ok(len == POLICY_LEN + UJS_HANDOFF_PREFIX_LEN &&
	   out[UJS_HANDOFF_PREFIX_LEN + 5].k == SECCOMP_RET_USER_NOTIF,
	   "notify: the prefix, and LOG_ERRNO returns become USER_NOTIF");
	ok(ujs_bpf_validate(out, len, err, sizeof(err)) == 0,
	   "notify: the kernel's checks pass (%s)", err);
	ok(run(out, len, arch, SYS_sendmsg, 1000) == SECCOMP_RET_ALLOW &&
	   run(out, len, arch, SYS_close, 1000) == SECCOMP_RET_ALLOW &&
	   run(out, len, arch, SYS_close, 3) == SECCOMP_RET_ALLOW &&
	   run(out, len, arch, SYS_exit_group, 0) == SECCOMP_RET_ALLOW,
	   "prefix allows sendmsg(sock), close(sock), close(listener), exit_group");
	ok(run2(out, len, arch, SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		SECCOMP_FILTER_FLAG_TSYNC) == SECCOMP_RET_ALLOW,
	   "prefix allows seccomp(SET_MODE_FILTER) for the seal");
	ok(run2(out, len, arch, SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		SECCOMP_FILTER_FLAG_NEW_LISTENER) == SECCOMP_RET_USER_NOTIF &&
	   run2(out, len, arch, SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0) ==
	   SECCOMP_RET_USER_NOTIF,
	   "prefix: seccomp() with a listener of its own, or another op, goes to the policy");
	ok(run(out, len, arch, SYS_sendmsg, 3) == SECCOMP_RET_USER_NOTIF &&
	   run(out, len, arch, SYS_sendmsg, 1000 | (1ULL << 32)) == SECCOMP_RET_USER_NOTIF &&
	   run(out, len, arch, SYS_close, 4) == SECCOMP_RET_USER_NOTIF &&
	   run(out, len, arch, SYS_close, 3 | (1ULL << 32)) == SECCOMP_RET_USER_NOTIF,
	   "prefix: other descriptors (or high halves) go to the policy");
	ok(run(out, len, arch, SYS_getuid, 0) == SECCOMP_RET_USER_NOTIF &&
	   run(out, len, arch, SYS_getppid, 0) == SECCOMP_RET_ALLOW &&
	   run(out, len, arch ^ 1, SYS_close, 3) == SECCOMP_RET_KILL_PROCESS,
	   "prefix: other calls and other architectures reach the policy");
	ok(ujs_bpf_const_allow(out, len, arch, SYS_getppid) &&
	   !ujs_bpf_const_allow(out, len, arch, SYS_close),
	   "prefix keeps the kernel's constant-action cache for other calls");

	ujs_seal_build(&p, 1000, 3, out, &len);
	ok(len == POLICY_LEN + UJS_SEAL_PREFIX_LEN && ujs_bpf_validate(out, len, err, sizeof(err)) == 0,
	   "seal: the prefix and the program; the kernel's checks pass (%s)", err);
	ok(run(out, len, arch, SYS_sendmsg, 1000) == (SECCOMP_RET_ERRNO | 1) &&
	   run(out, len, arch, SYS_close, 1000) == (SECCOMP_RET_ERRNO | 1) &&
	   run(out, len, arch, SYS_close, 3) == (SECCOMP_RET_ERRNO | 1) &&
	   run2(out, len, arch, SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0) ==
	   (SECCOMP_RET_ERRNO | 1),
	   "seal: the handoff's calls get the policy's errno again (no sendmsg hole on the "
	   "socket's number)");
	ok(run(out, len, arch, SYS_sendmsg, 4) == SECCOMP_RET_ALLOW &&
	   run(out, len, arch, SYS_getuid, 0) == SECCOMP_RET_ALLOW &&
	   run(out, len, arch, SYS_exit_group, 0) == SECCOMP_RET_ALLOW &&
	   run(out, len, arch ^ 1, SYS_sendmsg, 1000) == SECCOMP_RET_ALLOW,
	   "seal: other calls are left to the first filter");
	ok(ujs_bpf_const_allow(out, len, arch, SYS_getppid) &&
	   !ujs_bpf_const_allow(out, len, arch, SYS_sendmsg),
	   "seal keeps the kernel's constant-action cache for other calls");

	p.count = BPF_MAXINSNS - UJS_HANDOFF_PREFIX_LEN + 1;
	ok(ujs_filter_build(&p, UJS_MODE_NOTIFY, 1000, 3, out, &len, err, sizeof(err)) == -1 &&
	   strstr(err, "handoff prefix"), "too long with the prefix: %s", err);
}

static void test_flags_and_modes(void)
{
	struct ujs_loaded_program p = policy_program();
	enum ujs_mode m;

	ok(ujs_filter_flags(&p, UJS_MODE_LOG_ERRNO) == SECCOMP_FILTER_FLAG_TSYNC,
	   "log-errno: TSYNC only");
	ok(ujs_filter_flags(&p, UJS_MODE_ERRNO_LOG) ==
	   (SECCOMP_FILTER_FLAG_TSYNC | SECCOMP_FILTER_FLAG_LOG), "errno-log: TSYNC|LOG");
	ok(ujs_filter_flags(&p, UJS_MODE_NOTIFY) ==
	   (SECCOMP_FILTER_FLAG_TSYNC | SECCOMP_FILTER_FLAG_TSYNC_ESRCH |
	    SECCOMP_FILTER_FLAG_NEW_LISTENER), "notify: TSYNC|TSYNC_ESRCH|NEW_LISTENER");
	p.flags = UJS_PROG_F_LOG | UJS_PROG_F_SPEC_ALLOW;
	ok(ujs_filter_flags(&p, UJS_MODE_LOG_ERRNO) ==
	   (SECCOMP_FILTER_FLAG_TSYNC | SECCOMP_FILTER_FLAG_LOG | SECCOMP_FILTER_FLAG_SPEC_ALLOW),
	   "the program's LOG and SPEC_ALLOW flags are kept");
	ok(ujs_mode_parse("errno-log", &m) == 0 && m == UJS_MODE_ERRNO_LOG &&
	   ujs_mode_parse("notify", &m) == 0 && m == UJS_MODE_NOTIFY &&
	   ujs_mode_parse("log-errno", &m) == 0 && m == UJS_MODE_LOG_ERRNO &&
	   ujs_mode_parse("auto", &m) == -1 && strcmp(ujs_mode_name(UJS_MODE_NOTIFY), "notify") == 0,
	   "mode names");
	ok(ujs_mode_detect(0) == (ujs_kernel_has_log_errno() ? UJS_MODE_LOG_ERRNO : UJS_MODE_ERRNO_LOG) &&
	   ujs_mode_detect(1) == (ujs_kernel_has_log_errno() ? UJS_MODE_LOG_ERRNO : UJS_MODE_NOTIFY),
	   "detection: log-errno when the kernel has it, else notify or errno-log");
}

/* ---- real installs ---- */

static int wait_status(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Child: install in @mode, then report getuid()'s errno as exit status. */
static void install_child(enum ujs_mode mode, int sock)
{
	struct ujs_loaded_program p = policy_program();
	char err[256];

	alarm(10);
	if (ujs_install_mode(&p, mode, sock, err, sizeof(err)) != (int)mode)
		_exit(100);
	if (syscall(SYS_getuid) != -1)
		_exit(101);
	_exit(errno);
}

static void test_install_errno_log(void)
{
	pid_t pid = fork();

	if (pid == 0)
		install_child(UJS_MODE_ERRNO_LOG, -1);
	ok(wait_status(pid) == 13, "errno-log install: getuid fails with EACCES");
}

static int receive_fd(int sock)
{
	char byte, buf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = buf, .msg_controllen = sizeof(buf),
	};
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1 || !(c = CMSG_FIRSTHDR(&msg)) ||
	    c->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(c), sizeof(fd));
	return fd;
}

/* Answers one notification with @error; the nr it was about, or -1. */
static int answer_one(int listener, int error)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;

	memset(&req, 0, sizeof(req));
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req))
		return -1;
	memset(&resp, 0, sizeof(resp));
	resp.id = req.id;
	resp.error = -error;
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp))
		return -1;
	return req.data.nr;
}

/* The number the handoff moves its socket to (install.c). */
static int handoff_sock_number(void)
{
	struct rlimit lim;

	if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY &&
	    lim.rlim_cur < 1024)
		return (int)lim.rlim_cur - 1;
	return 1023;
}

/*
 * Child: install in notify mode, then sendmsg() a descriptor over the
 * handoff socket's number and call getuid(); exits with sendmsg's errno
 * * 100 + getuid's (99: the descriptor was sent).
 */
static void notify_child(int sock)
{
	struct ujs_loaded_program p = policy_program();
	int pair[2], high = handoff_sock_number(), sendmsg_errno;
	struct ujs_fd_msg m;
	char err[256];

	alarm(10);
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, pair))
		_exit(98);
	if (ujs_install_mode(&p, UJS_MODE_NOTIFY, sock, err, sizeof(err)) != UJS_MODE_NOTIFY)
		_exit(100);
	if (dup2(pair[0], high) != high)
		_exit(97);
	ujs_fd_msg_init(&m, 0);
	if (sendmsg(high, &m.msg, 0) >= 0)
		_exit(99);
	sendmsg_errno = errno;
	if (syscall(SYS_getuid) != -1)
		_exit(101);
	_exit(sendmsg_errno * 100 + errno);
}

static void test_install_notify(void)
{
	int sv[2], listener, nr;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		bail("socketpair");
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		notify_child(sv[1]);
	}
	close(sv[1]);
	listener = receive_fd(sv[0]);
	ok(listener >= 0, "notify install: the listener arrives although the policy denies "
	   "sendmsg, close and seccomp");
	nr = listener >= 0 ? answer_one(listener, 42) : -1;
	ok(nr == SYS_getuid, "notify install: the denied getuid comes to the supervisor (nr %d)",
	   nr);
	ok(wait_status(pid) == 142, "notify install: sendmsg() of a descriptor over the "
	   "socket's number gets the policy's EPERM, getuid the supervisor's errno");
	if (listener >= 0)
		close(listener);
	close(sv[0]);
}

static void test_install_errors(void)
{
	struct ujs_loaded_program p = policy_program();
	char err[256] = "";

	ok(ujs_install_mode(&p, UJS_MODE_NOTIFY, -1, err, sizeof(err)) == -1 &&
	   strstr(err, "supervisor"), "notify without a supervisor: %s", err);
	if (!ujs_kernel_has_log_errno())
		ok(ujs_install_mode(&p, UJS_MODE_LOG_ERRNO, -1, err, sizeof(err)) == -1 &&
		   strstr(err, "LOG_ERRNO"), "log-errno on a kernel without it: %s", err);
}

int main(void)
{
	policy[1].k = ujs_native_audit_arch();
	test_read();
	test_rewrite();
	test_flags_and_modes();
	test_install_errors();
	if (!tap_skip_kernel("errno-log and notify installs in the kernel")) {
		test_install_errno_log();
		test_install_notify();
	}
	return tap_done();
}
