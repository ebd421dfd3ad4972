/* SPDX-License-Identifier: GPL-2.0 */
/* One descriptor over a unix socket; see fdpass.h. */
#include <string.h>

#include "fdpass.h"

void ujs_fd_msg_init(struct ujs_fd_msg *m, int fd)
{
	struct cmsghdr *cmsg;

	memset(m, 0, sizeof(*m));
	m->byte = 'L';
	m->iov = (struct iovec){ .iov_base = &m->byte, .iov_len = 1 };
	m->msg = (struct msghdr){
		.msg_iov = &m->iov,
		.msg_iovlen = 1,
		.msg_control = m->control.buf,
		.msg_controllen = sizeof(m->control.buf),
	};
	if (fd < 0)
		return;
	cmsg = CMSG_FIRSTHDR(&m->msg);
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
}

int ujs_fd_msg_fd(struct ujs_fd_msg *m, ssize_t n)
{
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&m->msg);
	int fd;

	if (n <= 0 || !cmsg || cmsg->cmsg_level != SOL_SOCKET ||
	    cmsg->cmsg_type != SCM_RIGHTS || cmsg->cmsg_len != CMSG_LEN(sizeof(int)))
		return -1;
	memcpy(&fd, CMSG_DATA(cmsg), sizeof(int));
	return fd;
}
