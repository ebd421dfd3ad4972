// SPDX-License-Identifier: GPL-2.0
/*
 * "ujail-keeper watch" deletes the host's end of a --veth pair (keeper.h).
 * One fixed request and its acknowledgement, written out by hand: the
 * keeper is a static musl program of tens of KB, and libnl (ujail's
 * netlink library) is neither built for musl nor small.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "keeper/keeper.h"
#include "keeper/msg.h"

struct dellink_request {
	struct nlmsghdr nh;
	struct ifinfomsg ifi;
};

/* The request's answer: 0, or the negative errno the kernel sent. */
static int read_ack(int fd)
{
	union {
		struct nlmsghdr nh;
		char buf[512];
	} reply;
	ssize_t n;

	do
		n = recv(fd, &reply, sizeof(reply), 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (!NLMSG_OK(&reply.nh, (size_t)n) || reply.nh.nlmsg_type != NLMSG_ERROR ||
	    reply.nh.nlmsg_len < NLMSG_LENGTH(sizeof(struct nlmsgerr)))
		return -EPROTO;
	return ((struct nlmsgerr *)NLMSG_DATA(&reply.nh))->error;
}

void keeper_delete_link(const char *name, int ifindex)
{
	struct dellink_request req = {
		.nh = {
			.nlmsg_len = sizeof(req), .nlmsg_type = RTM_DELLINK,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK, .nlmsg_seq = 1,
		},
		.ifi = { .ifi_family = AF_UNSPEC, .ifi_index = ifindex },
	};
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	int ret = fd < 0 ? -errno : 0;

	if (!ret && sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&kernel,
			   sizeof(kernel)) < 0)
		ret = -errno;
	if (!ret)
		ret = read_ack(fd);
	if (fd >= 0)
		close(fd);
	/* ENODEV: the kernel removed it with the jail's namespace already. */
	if (ret && ret != -ENODEV)
		keeper_msg(name, "--veth: delete the host's interface %d: %s", ifindex,
			   strerror(-ret));
}
