// SPDX-License-Identifier: GPL-2.0
/* The jail's veth pair to the host, with libnl; see veth.h. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/rtnetlink.h>
#include <netlink/addr.h>
#include <netlink/errno.h>
#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/link/veth.h>
#include <netlink/route/route.h>

#include "isolation/veth.h"
#include "seccomp/errmsg.h"

/* ---- the plan, in the outer ujail ---- */

/* The option parser parsed every value (family 0: not given). */
static void take_settings(const struct jail_opts *o, struct jail_veth *v)
{
	memcpy(v->host, o->veth_names.host, sizeof(v->host));
	memcpy(v->jail, o->veth_names.jail, sizeof(v->jail));
	v->host_addr = o->host_ip;
	v->jail_addr = o->jail_ip;
	v->gateway = o->gateway_ip;
}

/* A socket bound to the namespace we are in; NULL after @err. */
static struct nl_sock *route_socket(const char *what, char *err, size_t errlen)
{
	struct nl_sock *sk = nl_socket_alloc();
	int ret;

	if (!sk) {
		ujs_fail(err, errlen, "--veth: %s netlink socket: out of memory", what);
		return NULL;
	}
	ret = nl_connect(sk, NETLINK_ROUTE);
	if (ret < 0) {
		ujs_fail(err, errlen, "--veth: %s netlink socket: %s", what, nl_geterror(ret));
		nl_socket_free(sk);
		return NULL;
	}
	return sk;
}

/* The interface @name of @sk's namespace: its index, 0 if none, or -1 after @err. */
static int ifindex_of(struct nl_sock *sk, const char *name, char *err, size_t errlen)
{
	struct rtnl_link *link = NULL;
	int ret = rtnl_link_get_kernel(sk, 0, name, &link);

	if (ret == -NLE_NODEV || ret == -NLE_OBJ_NOTFOUND)
		return 0;
	if (ret < 0)
		return ujs_fail(err, errlen, "--veth: look up %s: %s", name, nl_geterror(ret));
	ret = rtnl_link_get_ifindex(link);
	rtnl_link_put(link);
	return ret;
}

static int host_name_taken(const struct jail_veth *v, char *err, size_t errlen)
{
	return ujs_fail(err, errlen, "--veth %s: the host already has an interface %s",
			v->host, v->host);
}

int jail_veth_plan(const struct jail_opts *o, struct jail_veth *v, char *err,
		   size_t errlen)
{
	int found;

	memset(v, 0, sizeof(*v));
	v->host_netns = -1;
	if (!o->veth)
		return 0;
	v->on = true;
	v->o = o;
	take_settings(o, v);
	v->host_netns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (v->host_netns < 0)
		return ujs_fail(err, errlen, "--veth: /proc/self/ns/net: %s", strerror(errno));
	v->host_sk = route_socket("host", err, errlen);
	if (!v->host_sk)
		return -1;
	/* The kernel would say so too, but only after clone(): say it now. */
	found = ifindex_of(v->host_sk, v->host, err, errlen);
	if (found > 0)
		return host_name_taken(v, err, errlen);
	return found < 0 ? -1 : 0;
}

size_t jail_veth_fds(const struct jail_veth *v, int fds[2])
{
	if (!v->on)
		return 0;
	fds[0] = v->host_netns;
	fds[1] = nl_socket_get_fd(v->host_sk);
	return 2;
}

void jail_veth_close(struct jail_veth *v)
{
	if (v->host_sk)
		nl_socket_free(v->host_sk);
	if (v->host_netns >= 0)
		close(v->host_netns);
	v->host_sk = NULL;
	v->host_netns = -1;
}

/* ---- the setup, in the stub (inside the new namespace) ---- */

/* JAIL here, HOST in the host's namespace, both at once (EXCL: never an old one). */
static int create_pair(struct nl_sock *sk, const struct jail_veth *v, char *err,
		       size_t errlen)
{
	struct rtnl_link *link = rtnl_link_veth_alloc(), *peer;
	int ret;

	if (!link)
		return ujs_fail(err, errlen, "--veth: out of memory");
	rtnl_link_set_name(link, v->jail);
	peer = rtnl_link_veth_get_peer(link);
	rtnl_link_set_name(peer, v->host);
	rtnl_link_set_ns_fd(peer, v->host_netns);
	rtnl_link_put(peer);
	ret = rtnl_link_add(sk, link, NLM_F_CREATE | NLM_F_EXCL);
	rtnl_link_veth_release(link);
	if (ret == -NLE_EXIST)
		return host_name_taken(v, err, errlen);
	if (ret < 0)
		return ujs_fail(err, errlen, "--veth %s:%s: create the pair: %s", v->host,
				v->jail, nl_geterror(ret));
	return 0;
}

static struct nl_addr *to_nl_addr(const struct jail_ipaddr *a)
{
	struct nl_addr *n = nl_addr_build(a->family, a->bytes,
					  a->family == AF_INET ? 4 : 16);

	if (n && a->prefixlen >= 0)
		nl_addr_set_prefixlen(n, a->prefixlen);
	return n;
}

/* @a on interface @ifindex of @sk's namespace. */
static int add_address(struct nl_sock *sk, int ifindex, const struct jail_ipaddr *a,
		       const char *option, const char *value, const char *ifname,
		       char *err, size_t errlen)
{
	struct rtnl_addr *addr = rtnl_addr_alloc();
	struct nl_addr *local = to_nl_addr(a);
	int ret = -NLE_NOMEM;

	if (addr && local) {
		rtnl_addr_set_ifindex(addr, ifindex);
		ret = rtnl_addr_set_local(addr, local);
		/* No duplicate detection: the other end is the only neighbour,
		 * and a tentative address would fail the service's first bind. */
		if (a->family == AF_INET6)
			rtnl_addr_set_flags(addr, IFA_F_NODAD);
		if (!ret)
			ret = rtnl_addr_add(sk, addr, 0);
	}
	nl_addr_put(local);
	rtnl_addr_put(addr);
	if (ret < 0)
		return ujs_fail(err, errlen, "%s %s: add to %s: %s", option, value, ifname,
				nl_geterror(ret));
	return 0;
}

static int link_up(struct nl_sock *sk, int ifindex, const char *name, char *err,
		   size_t errlen)
{
	struct rtnl_link *orig = rtnl_link_alloc(), *change = rtnl_link_alloc();
	int ret = -NLE_NOMEM;

	if (orig && change) {
		rtnl_link_set_ifindex(orig, ifindex);
		rtnl_link_set_flags(change, IFF_UP);
		ret = rtnl_link_change(sk, orig, change, 0);
	}
	rtnl_link_put(orig);
	rtnl_link_put(change);
	if (ret < 0)
		return ujs_fail(err, errlen, "--veth: %s up: %s", name, nl_geterror(ret));
	return 0;
}

/* default via GW dev JAIL onlink: the host's end is the only neighbour,
 * also when the jail's prefix does not hold GW (a /32 jail address). */
static int add_default_route(struct nl_sock *sk, int ifindex, const struct jail_veth *v,
			     const char *value, char *err, size_t errlen)
{
	struct rtnl_route *route = rtnl_route_alloc();
	struct rtnl_nexthop *nh = rtnl_route_nh_alloc();
	struct nl_addr *dst = nl_addr_alloc(0), *gw = to_nl_addr(&v->gateway);
	int ret = -NLE_NOMEM;

	if (route && nh && dst && gw) {
		nl_addr_set_family(dst, v->gateway.family);
		rtnl_route_set_family(route, (uint8_t)v->gateway.family);
		rtnl_route_set_dst(route, dst);
		rtnl_route_nh_set_ifindex(nh, ifindex);
		rtnl_route_nh_set_gateway(nh, gw);
		rtnl_route_nh_set_flags(nh, RTNH_F_ONLINK);
		rtnl_route_add_nexthop(route, nh);
		nh = NULL;	/* the route's now */
		ret = rtnl_route_add(sk, route, NLM_F_EXCL);
	}
	if (nh)
		rtnl_route_nh_free(nh);
	nl_addr_put(dst);
	nl_addr_put(gw);
	rtnl_route_put(route);
	if (ret < 0)
		return ujs_fail(err, errlen, "--gateway %s: the default route: %s", value,
				nl_geterror(ret));
	return 0;
}

/* Addresses, up, route; each end through the socket of its namespace. */
static int configure(struct nl_sock *sk, struct jail_veth *v, int jail_ifindex,
		     char *err, size_t errlen)
{
	const struct jail_opts *o = v->o;

	if (v->host_addr.family &&
	    add_address(v->host_sk, v->host_ifindex, &v->host_addr, "--host-addr",
			o->host_addr, v->host, err, errlen))
		return -1;
	if (v->jail_addr.family &&
	    add_address(sk, jail_ifindex, &v->jail_addr, "--jail-addr", o->jail_addr,
			v->jail, err, errlen))
		return -1;
	if (link_up(v->host_sk, v->host_ifindex, v->host, err, errlen) ||
	    link_up(sk, jail_ifindex, v->jail, err, errlen))
		return -1;
	if (v->gateway.family &&
	    add_default_route(sk, jail_ifindex, v, o->gateway, err, errlen))
		return -1;
	return 0;
}

/* Deleting one end deletes both, at once (unlike the namespace's end). */
static void delete_pair(struct nl_sock *sk, int ifindex)
{
	struct rtnl_link *link = rtnl_link_alloc();

	if (!link)
		return;
	rtnl_link_set_ifindex(link, ifindex);
	rtnl_link_delete(sk, link);
	rtnl_link_put(link);
}

static int setup(struct nl_sock *sk, struct jail_veth *v, char *err, size_t errlen)
{
	int host, jail;

	if (create_pair(sk, v, err, errlen))
		return -1;
	host = ifindex_of(v->host_sk, v->host, err, errlen);
	jail = ifindex_of(sk, v->jail, err, errlen);
	if (host <= 0 || jail <= 0) {
		if (host > 0)
			delete_pair(v->host_sk, host);
		else if (jail > 0)
			delete_pair(sk, jail);
		if (host == 0 || jail == 0)
			ujs_fail(err, errlen, "--veth %s:%s: the pair vanished once created",
				 v->host, v->jail);
		return -1;
	}
	v->host_ifindex = host;
	if (configure(sk, v, jail, err, errlen)) {
		delete_pair(v->host_sk, host);
		v->host_ifindex = 0;
		return -1;
	}
	return 0;
}

int jail_veth_setup(struct jail_veth *v, char *err, size_t errlen)
{
	struct nl_sock *sk;
	int ret = -1;

	if (!v->on)
		return 0;
	sk = route_socket("jail", err, errlen);
	if (sk) {
		ret = setup(sk, v, err, errlen);
		nl_socket_free(sk);
	}
	/* Only our copies: the memory (host_sk) is the outer's, shared. */
	close(nl_socket_get_fd(v->host_sk));
	close(v->host_netns);
	return ret;
}

void jail_veth_delete_host(struct jail_veth *v)
{
	if (v->host_ifindex > 0)
		delete_pair(v->host_sk, v->host_ifindex);
	v->host_ifindex = 0;
}
