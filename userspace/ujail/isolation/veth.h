/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --veth: a veth pair between the jail's new network namespace and the
 * host's, set up with libnl (rtnetlink). The outer ujail opens, before
 * clone(), what only the host has: a netlink socket bound to the host's
 * namespace and a descriptor of that namespace. The stub, already inside
 * the new one, creates the pair there with the peer put on the host,
 * configures its own end through a socket of its own and the host's end
 * through the outer's socket. On a failure it removes the pair. Once the
 * jail ends, "ujail-keeper watch" deletes the host's end (host_ifindex),
 * so that ujail does not return before the pair is gone (the kernel would
 * remove it with the namespace, but later).
 */
#ifndef UJAIL_VETH_H
#define UJAIL_VETH_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

#include "options/net_addr.h"
#include "options/options.h"

struct nl_sock;

struct jail_veth {
	bool on;			/* --veth given */
	char host[IFNAMSIZ], jail[IFNAMSIZ];
	struct jail_ipaddr host_addr, jail_addr, gateway;	/* family 0: none */
	const struct jail_opts *o;	/* the values as given, for messages */
	int host_netns;			/* fd of the host's net namespace, or -1 */
	struct nl_sock *host_sk;	/* bound to the host's namespace */
	int host_ifindex;		/* the host's end, once created; 0: none */
};

/*
 * Outer, before clone(): take @o's --veth settings, open the host's
 * socket and namespace, and check that the host has no interface of that
 * name yet. 0 (also without --veth), or -1 with @err.
 */
int jail_veth_plan(const struct jail_opts *o, struct jail_veth *v, char *err,
		   size_t errlen);

/* The descriptors the stub needs from the outer; returns how many (0-2). */
size_t jail_veth_fds(const struct jail_veth *v, int fds[2]);

/*
 * Stub, in the new network namespace: create and configure the pair, set
 * v->host_ifindex; then close the host's descriptors (the service never
 * gets them). On failure nothing is left, -1 with @err.
 */
int jail_veth_setup(struct jail_veth *v, char *err, size_t errlen);

/* Outer, when the keeper could not take over: delete the host's end. */
void jail_veth_delete_host(struct jail_veth *v);

/* Outer: free what jail_veth_plan() opened. */
void jail_veth_close(struct jail_veth *v);

#endif
