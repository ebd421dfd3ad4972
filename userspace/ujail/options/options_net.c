// SPDX-License-Identifier: GPL-2.0
/*
 * --veth, --host-addr, --jail-addr, --gateway: each value is parsed by
 * the option table (net_addr.c); here, that they fit together.
 */
#include <sched.h>
#include <stdbool.h>

#include "options/net_addr.h"
#include "options/options_int.h"

static bool joins_net(const struct jail_opts *o)
{
	for (size_t i = 0; i < o->n_joins; i++)
		if (o->joins[i].ns_flags & CLONE_NEWNET)
			return true;
	return false;
}

/* The addresses of the pair: their families agree, they differ. */
static int check_addresses(const struct jail_opts *o)
{
	const struct jail_ipaddr host = o->host_ip, jail = o->jail_ip, gw = o->gateway_ip;

	if (jail_ipaddr_same(&host, &jail))
		return opt_fail(NULL, "--host-addr and --jail-addr are the same address %s",
				o->jail_addr);
	if (gw.family && !jail.family)
		return opt_fail(NULL, "--gateway needs --jail-addr: the jail's end has "
				"no address to reach it from");
	if (gw.family && gw.family != jail.family)
		return opt_fail(NULL, "--gateway %s and --jail-addr %s: not the same "
				"address family", o->gateway, o->jail_addr);
	if (jail_ipaddr_same(&gw, &jail))
		return opt_fail(NULL, "--gateway %s is the jail's own address", o->gateway);
	return 0;
}

int opt_check_net(struct jail_opts *o)
{
	const char *alone = o->host_addr ? "--host-addr" : o->jail_addr ? "--jail-addr" :
			    o->gateway ? "--gateway" : NULL;

	if (!o->veth) {
		if (alone)
			return opt_fail(NULL, "%s needs --veth", alone);
		return 0;
	}
	if (joins_net(o))
		return opt_fail(NULL, "-j joins a net namespace and --veth needs a new "
				"one; use one or the other");
	o->netns = true;
	return check_addresses(o);
}
