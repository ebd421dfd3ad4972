/* SPDX-License-Identifier: GPL-2.0 */
/* ujail: run a service in a jail (ujail.8). */
#include "exec/join.h"
#include "jail.h"
#include "options/options.h"
#include "trace/jail_trace.h"

int main(int argc, char **argv)
{
	struct jail_opts o;
	int ret = jail_opts_parse(&o, argc, argv);
	int status;

	if (ret != 0) {
		jail_opts_free(&o);
		return ret > 0 ? 0 : JAIL_EXIT_USAGE;
	}
	status = o.join ? jail_join_run(&o) : o.trace ? jail_trace_run(&o) : jail_run(&o, NULL);
	jail_opts_free(&o);
	return status;
}
