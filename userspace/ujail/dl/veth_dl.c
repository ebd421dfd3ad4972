// SPDX-License-Identifier: GPL-2.0
/*
 * veth.h for the installed, dynamically linked ujail: the pair's setup and
 * libnl are in ujail-veth.so, loaded by the outer ujail's plan only when
 * --veth is given (the stub, a clone of the outer, inherits it), so a jail
 * without --veth never maps libnl. A missing plugin fails the jail with
 * its path.
 */
#include <string.h>

#include "plugin.h"
#include "veth_plugin.h"

static const struct jail_veth_ops *ops;

int jail_veth_plan(const struct jail_opts *o, struct jail_veth *v, char *err,
		   size_t errlen)
{
	memset(v, 0, sizeof(*v));
	v->host_netns = -1;
	if (!o->veth)
		return 0;
	if (!ops)
		ops = ujs_plugin_load(JAIL_VETH_PLUGIN_FILE, JAIL_VETH_PLUGIN_SYM, err, errlen);
	return ops ? ops->plan(o, v, err, errlen) : -1;
}

/* v->on is set only by the plugin's plan: ops is loaded then. */
size_t jail_veth_fds(const struct jail_veth *v, int fds[2])
{
	return v->on ? ops->fds(v, fds) : 0;
}

int jail_veth_setup(struct jail_veth *v, char *err, size_t errlen)
{
	return v->on ? ops->setup(v, err, errlen) : 0;
}

void jail_veth_delete_host(struct jail_veth *v)
{
	if (v->on)
		ops->delete_host(v);
}

void jail_veth_close(struct jail_veth *v)
{
	if (v->on)
		ops->close(v);
}
