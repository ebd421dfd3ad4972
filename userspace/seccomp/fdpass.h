/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Passing the seccomp listener between the filtered process and the
 * supervisor: a one-byte message with one SCM_RIGHTS descriptor. libc only
 * (the preload shim sends, the runner receives); no allocation, so the
 * sender can use it with the filter already in force.
 */
#ifndef UJS_FDPASS_H
#define UJS_FDPASS_H

#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>

struct ujs_fd_msg {
	struct msghdr msg;		/* points into the rest: do not copy */
	struct iovec iov;
	char byte;
	union {
		struct cmsghdr hdr;	/* aligns the buffer */
		char buf[CMSG_SPACE(sizeof(int))];
	} control;
};

/* @m ready for sendmsg() carrying @fd, or (@fd < 0) for recvmsg(). */
void ujs_fd_msg_init(struct ujs_fd_msg *m, int fd);

/* The descriptor in @m after recvmsg() returned @n, or -1. */
int ujs_fd_msg_fd(struct ujs_fd_msg *m, ssize_t n);

#endif
