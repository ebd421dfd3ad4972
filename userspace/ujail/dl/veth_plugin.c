// SPDX-License-Identifier: GPL-2.0
/* ujail-veth.so's one export: veth.c's functions (veth_plugin.h). */
#include "veth_plugin.h"

__attribute__((visibility("default")))
const struct jail_veth_ops jail_veth_plugin = {
	.plan = jail_veth_plan,
	.fds = jail_veth_fds,
	.setup = jail_veth_setup,
	.delete_host = jail_veth_delete_host,
	.close = jail_veth_close,
};
