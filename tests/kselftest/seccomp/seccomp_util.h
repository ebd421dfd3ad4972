/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the log_errno tests: installing one-syscall filters and
 * reading seccomp's lines back from /dev/kmsg.
 */
#ifndef UJAIL_SECCOMP_UTIL_H
#define UJAIL_SECCOMP_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SECCOMP_RET_LOG_ERRNO
#define SECCOMP_RET_LOG_ERRNO 0x00070000U
#endif

#if defined(__x86_64__)
#define TEST_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define TEST_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__mips__) && defined(__MIPSEL__) && _MIPS_SIM == _ABIO32
#define TEST_AUDIT_ARCH AUDIT_ARCH_MIPSEL
#else
#error "add this architecture's AUDIT_ARCH_* value"
#endif

static inline long sys_seccomp(unsigned int op, unsigned int flags, void *args)
{
	return syscall(__NR_seccomp, op, flags, args);
}

/* Return @ret for syscall @nr of the native arch, allow everything else. */
static inline long install_nr_filter(int nr, __u32 ret, unsigned int flags)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TEST_AUDIT_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, ret),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(insns) / sizeof(insns[0]),
		.filter = insns,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return sys_seccomp(SECCOMP_SET_MODE_FILTER, flags, &prog);
}

/* Open /dev/kmsg positioned after every record logged so far. */
static inline int kmsg_open_at_end(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0 && lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Count the log_errno records read from @fd that name thread @pid of
 * process @tgid and syscall @nr; copy the last one's text to @last.
 */
static inline int kmsg_count_log_errno(int fd, pid_t pid, pid_t tgid, int nr,
				       char *last, size_t last_size)
{
	char rec[2048], want[128];
	int count = 0;
	ssize_t len;

	snprintf(want, sizeof(want), " pid=%d tgid=%d ", pid, tgid);
	for (;;) {
		char *text, *nrs;

		len = read(fd, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE)	/* overwritten records */
			continue;
		if (len <= 0)
			break;
		rec[len] = '\0';
		text = strchr(rec, ';');
		if (!text || !strstr(text, "seccomp: log_errno ") ||
		    !strstr(text, want))
			continue;
		nrs = strstr(text, " syscall=");
		if (!nrs || atoi(nrs + 9) != nr)
			continue;
		count++;
		if (last)
			snprintf(last, last_size, "%s", text + 1);
	}
	return count;
}

static inline int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t len;

	if (fd < 0)
		return -1;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len < 0)
		return -1;
	buf[len] = '\0';
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return 0;
}

/* Returns 0 or the errno of the failed open/write. */
static inline int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, text, strlen(text)) < 0)
		err = errno;
	close(fd);
	return err;
}

#define ACTIONS_AVAIL "/proc/sys/kernel/seccomp/actions_avail"
#define ACTIONS_LOGGED "/proc/sys/kernel/seccomp/actions_logged"

#endif
