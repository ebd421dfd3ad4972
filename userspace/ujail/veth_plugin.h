/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --veth as a plugin, ujail-veth.so (userspace/seccomp/plugin.h): veth.c
 * and libnl, exported as one table. dl/veth_dl.c implements veth.h by
 * loading it when a jail asks for --veth.
 */
#ifndef UJAIL_VETH_PLUGIN_H
#define UJAIL_VETH_PLUGIN_H

#include "veth.h"

#define JAIL_VETH_PLUGIN_FILE "ujail-veth.so"
#define JAIL_VETH_PLUGIN_SYM "jail_veth_plugin"

struct jail_veth_ops {
	int (*plan)(const struct jail_opts *o, struct jail_veth *v, char *err, size_t errlen);
	size_t (*fds)(const struct jail_veth *v, int fds[2]);
	int (*setup)(struct jail_veth *v, char *err, size_t errlen);
	void (*delete_host)(struct jail_veth *v);
	void (*close)(struct jail_veth *v);
};

#endif
