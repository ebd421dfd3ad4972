/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the jailfs kselftests: a scratch tmpfs holding the "host"
 * tree, and jailfs mounts made with fsopen()/fsconfig() so that the
 * filesystem's error messages can be read back.
 */
#ifndef JAILFS_UTIL_H
#define JAILFS_UTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef FSCONFIG_SET_STRING
#define FSCONFIG_SET_STRING 1
#define FSCONFIG_SET_BINARY 2
#define FSCONFIG_CMD_CREATE 6
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#endif

#define SCRATCH "/tmp/jailfs-test"
#define HOST SCRATCH "/host"	/* the lower tree, on its own tmpfs */
#define JAIL SCRATCH "/jail"	/* where jailfs is mounted */

static inline int sys_fsopen(const char *fs, unsigned int flags)
{
	return syscall(__NR_fsopen, fs, flags);
}

static inline int sys_fsconfig(int fd, unsigned int cmd, const char *key,
			       const void *value, int aux)
{
	return syscall(__NR_fsconfig, fd, cmd, key, value, aux);
}

static inline int sys_fsmount(int fd, unsigned int flags, unsigned int attrs)
{
	return syscall(__NR_fsmount, fd, flags, attrs);
}

static inline int sys_move_mount(int from_dfd, const char *from, int to_dfd,
				 const char *to, unsigned int flags)
{
	return syscall(__NR_move_mount, from_dfd, from, to_dfd, to, flags);
}

/* Create PATH (and its parents) as a file holding TEXT, or a directory. */
static inline int make_path(const char *path, const char *text)
{
	char buf[PATH_MAX], *p;
	int fd;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (!text)
		return mkdir(path, 0755) && errno != EEXIST ? -1 : 0;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* A fresh scratch area: HOST on its own tmpfs, JAIL an empty directory. */
static inline int scratch_setup(void)
{
	umount2(JAIL, MNT_DETACH);
	umount2(HOST, MNT_DETACH);
	mkdir(SCRATCH, 0755);
	mkdir(HOST, 0755);
	mkdir(JAIL, 0755);
	return mount("host", HOST, "tmpfs", 0, "mode=0755");
}

static inline void scratch_teardown(void)
{
	while (!umount2(JAIL, MNT_DETACH))
		;
	umount2(HOST, MNT_DETACH);
}

/* The fs context's messages after a failure, for the test log and checks. */
static inline void read_fc_log(int fsfd, char *log, size_t size)
{
	ssize_t n;
	size_t used = 0;

	log[0] = '\0';
	while (used + 1 < size) {
		n = read(fsfd, log + used, size - used - 1);
		if (n <= 0)
			break;
		used += n;
		log[used++] = '\n';
	}
	log[used < size ? used : size - 1] = '\0';
}

struct jailfs_mount {
	int fsfd;
	char log[1024];
};

/* Start a jailfs context; jm->fsfd < 0 if the filesystem is not there. */
static inline int jm_open(struct jailfs_mount *jm)
{
	jm->log[0] = '\0';
	jm->fsfd = sys_fsopen("jailfs", 0);
	return jm->fsfd < 0 ? -errno : 0;
}

/* One key; on failure the errno, with the message in jm->log. */
static inline int jm_set(struct jailfs_mount *jm, const char *key, const char *value)
{
	if (!sys_fsconfig(jm->fsfd, FSCONFIG_SET_STRING, key, value, 0))
		return 0;
	int err = -errno;

	read_fc_log(jm->fsfd, jm->log, sizeof(jm->log));
	return err;
}

/* Create the superblock and mount it on TARGET; closes the context. */
static inline int jm_mount(struct jailfs_mount *jm, const char *target)
{
	int mfd, err = 0;

	if (sys_fsconfig(jm->fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0)) {
		err = -errno;
		read_fc_log(jm->fsfd, jm->log, sizeof(jm->log));
		goto out;
	}
	mfd = sys_fsmount(jm->fsfd, 0, 0);
	if (mfd < 0) {
		err = -errno;
		goto out;
	}
	if (sys_move_mount(mfd, "", AT_FDCWD, target, MOVE_MOUNT_F_EMPTY_PATH))
		err = -errno;
	close(mfd);
out:
	close(jm->fsfd);
	jm->fsfd = -1;
	return err;
}

/* Mount jailfs on JAIL with KEY, VALUE pairs (NULL-terminated). */
static inline int jailfs_mount_pairs(char *log, size_t size, ...)
{
	struct jailfs_mount jm;
	const char *key, *value;
	va_list ap;
	int err;

	err = jm_open(&jm);
	if (err)
		return err;
	va_start(ap, size);
	while ((key = va_arg(ap, const char *))) {
		value = va_arg(ap, const char *);
		err = jm_set(&jm, key, value);
		if (err)
			break;
	}
	va_end(ap);
	if (err)
		close(jm.fsfd);
	else
		err = jm_mount(&jm, JAIL);
	if (log)
		snprintf(log, size, "%s", jm.log);
	return err;
}

#define jailfs_mount(...) jailfs_mount_pairs(NULL, 0, __VA_ARGS__, NULL)

/* Whether anything is mounted on JAIL (a failed mount leaves nothing). */
static inline int jail_is_mounted(void)
{
	struct stat a, b;

	if (stat(JAIL, &a) || stat(SCRATCH, &b))
		return -1;
	return a.st_dev != b.st_dev;
}

static inline ssize_t read_all(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		n = -errno;
	else
		buf[n] = '\0';
	close(fd);
	return n;
}

/* errno of a call that failed, 0 if it succeeded. */
#define ERRNO_OF(call) ((call) < 0 ? errno : 0)

#endif /* JAILFS_UTIL_H */
