/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a jail is made of, from procd's command line (jail_run() in procd's
 * service/instance.c), the long options, or a JSON jail file (--config).
 */
#ifndef UJAIL_OPTIONS_H
#define UJAIL_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "options/cgroup_value.h"
#include "options/fs_kind.h"
#include "options/idmap.h"
#include "options/net_addr.h"
#include "utrace/backend.h"

/* One -r/-w path: SRC, or SRC:DST to put it somewhere else in the jail. */
struct jail_path {
	char *src;		/* absolute host path */
	char *dst;		/* absolute path in the jail (= src when not mapped) */
	bool writable;		/* -w */
};

/* -j pid:ns[,ns]: join namespaces of a running process. */
struct jail_join {
	pid_t pid;
	unsigned int ns_flags;	/* CLONE_NEW* of the namespaces to join */
};

struct jail_opts {
	char *name;		/* -n, --name: jail name (log lines, pid file) */
	char *hostname;		/* -h, --hostname: implies a uts namespace */
	unsigned int term_timeout; /* -t, --timeout: SIGTERM, then SIGKILL after it (s) */
	char *seccomp;		/* -S, --seccomp: policy file */
	char *trace;		/* --trace: learn the policy into this file */
	char *trace_backend;	/* --trace-backend: auto, ebpf or ptrace (NULL: auto) */
	enum utrace_backend trace_backend_kind;	/* parsed */
	char *fs;		/* --fs: jailfs, bind or auto, as given (NULL: not) */
	enum jail_fs_kind fs_kind;	/* parsed: --fs, else $UJAIL_FS, else auto */
	char *fs_env;		/* $UJAIL_FS when it gave fs_kind, for messages */
	char *capabilities;	/* -C, --capabilities: procd capabilities JSON */
	bool keep_caps;		/* --keep-caps: no default drop from the bounding set */
	char *user;		/* -U, --user */
	char *group;		/* -G, --group */
	char *pidfile;		/* -P, --pidfile */
	bool no_new_privs;	/* -c, --no-new-privs */
	bool no_baseline;	/* --no-baseline: no baseline filter, userns limit,
				 * Landlock scoping (baseline.h) */
	bool proc;		/* -p, --proc */
	bool sys;		/* -s, --sys */
	bool ubus;		/* -u, --ubus */
	bool udebug;		/* -D, --udebug: procd's udebug socket, if any */
	bool dev_log;		/* -l, --log */
	bool ro_root;		/* -o, --read-only-root */
	bool netns;		/* -N, --net: new network namespace (lo only) */
	/* The values as given (for messages), each parsed once beside it;
	 * a parsed field is zero when its option is not given. */
	char *veth;		/* --veth HOST[:JAIL]: a veth pair to the host (implies -N) */
	struct jail_veth_names veth_names;
	char *host_addr;	/* --host-addr ADDR/LEN: on the host's end */
	struct jail_ipaddr host_ip;
	char *jail_addr;	/* --jail-addr ADDR/LEN: on the jail's end */
	struct jail_ipaddr jail_ip;
	char *gateway;		/* --gateway ADDR: the jail's default route */
	struct jail_ipaddr gateway_ip;
	bool userns;		/* -f, --userns: the service in a user namespace */
	char *uid_map;		/* --uid-map ID[:COUNT] (implies -f) */
	struct jail_idmap uid_ids;
	char *gid_map;		/* --gid-map ID[:COUNT] (default: as --uid-map) */
	struct jail_idmap gid_ids;
	bool cgroupns;		/* -F, --cgroupns */
	char *cgroup_parent;	/* --cgroup-parent DIR (cgroup.h) */
	/* The limits as given, each beside what its cgroup file takes. */
	char *memory_max;	/* --memory-max BYTES[K|M|G|T]|max */
	char memory_max_value[CGROUP_VALUE_MAX];
	char *memory_high;	/* --memory-high BYTES[K|M|G|T]|max */
	char memory_high_value[CGROUP_VALUE_MAX];
	char *cpu_max;		/* --cpu-max QUOTA[/PERIOD]|N%|max */
	char cpu_max_value[CGROUP_VALUE_MAX];
	char *pids_max;		/* --pids-max N|max */
	char pids_max_value[CGROUP_VALUE_MAX];
	char *io_weight;	/* --io-weight 1-10000 */
	char io_weight_value[CGROUP_VALUE_MAX];
	bool fail_hard;		/* -E: fail if the jail cannot be set up (always so) */
	unsigned int debug;	/* -d, --debug: log verbosity, 0..9 */
	size_t n_keep_env;
	char **keep_env;	/* -e NAME, --keep-env NAME: kept from the caller
				 * (NULL-terminated too) */
	size_t n_paths;
	struct jail_path *paths; /* -r/-w, --ro/--rw */
	size_t n_joins;
	struct jail_join *joins; /* -j */
	char **argv;		/* after --: the service and its arguments
				 * (NULL-terminated) */
	int argc;
	char *config;		/* --config FILE, for messages */
	char *join;		/* --join NAME: a member of the running jail NAME */
	bool timeout_given;	/* -t was given (not the default) */
};

/*
 * Where error messages and --help/--version text go; NULL (the default)
 * means stderr and stdout. Tests point them at memory streams.
 */
extern FILE *jail_err;
extern FILE *jail_out;

/*
 * Fill @o (cleared first; every string is a copy) from the command line
 * and the --config file it names. Returns 0; 1 after --help/--version
 * (printed); -1 with a message on jail_err naming the option or
 * FILE: JSON.PATH and the problem. Call jail_opts_free() in every case.
 */
int jail_opts_parse(struct jail_opts *o, int argc, char **argv);
void jail_opts_free(struct jail_opts *o);

#endif
