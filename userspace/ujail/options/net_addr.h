/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The values of --veth, --host-addr, --jail-addr and --gateway: interface
 * names as the kernel takes them, and IPv4/IPv6 addresses. Pure parsing,
 * no system call: the option table parses each value once into struct
 * jail_opts.
 */
#ifndef UJAIL_NET_ADDR_H
#define UJAIL_NET_ADDR_H

#include <net/if.h>
#include <stdbool.h>

#define JAIL_VETH_DEFAULT_JAIL "eth0"

struct jail_ipaddr {
	int family;		/* AF_INET, AF_INET6; 0: not given */
	unsigned char bytes[16];
	int prefixlen;		/* -1: no /LEN */
};

/* --veth's two interface names. */
struct jail_veth_names {
	char host[IFNAMSIZ];
	char jail[IFNAMSIZ];
};

/* "HOST[:JAIL]" into @out (JAIL defaults to eth0); why not, or NULL. */
const char *jail_veth_split(const char *arg, struct jail_veth_names *out);

/* "ADDR/LEN" (@with_len) or "ADDR" into @out; why not, or NULL. */
const char *jail_ipaddr_parse(const char *s, bool with_len, struct jail_ipaddr *out);

/* Both the same address (the prefix lengths aside). */
bool jail_ipaddr_same(const struct jail_ipaddr *a, const struct jail_ipaddr *b);

#endif
