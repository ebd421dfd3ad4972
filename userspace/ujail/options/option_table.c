/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The option table (option_table.h): each setting's letter, long name,
 * jail file key and check or parser. options.c reads it for getopt,
 * options_config.c for the jail file.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "options/cgroup_value.h"
#include "options/fs_kind.h"
#include "options/idmap.h"
#include "options/net_addr.h"
#include "options/option_table.h"
#include "seccomp/errmsg.h"
#include "utrace/backend.h"

#define MAX_HOSTNAME 64		/* HOST_NAME_MAX */

static const char *check_not_empty(const char *value)
{
	return *value ? NULL : "must not be empty";
}

static bool has_control_char(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

/* The name ends up in log lines and file names. */
static const char *check_name(const char *value)
{
	if (!*value)
		return "must not be empty";
	if (strchr(value, '/'))
		return "must not contain '/'";
	if (!strcmp(value, ".") || !strcmp(value, ".."))
		return "must not be . or ..";
	if (has_control_char(value))
		return "must not contain control characters";
	return NULL;
}

static const char *parse_fs(const char *value, void *out)
{
	return jail_fs_kind_parse(value, out);
}

/* utrace's backend.c knows the backends; its message names utrace's option. */
static const char *parse_trace_backend(const char *value, void *out)
{
	char err[ERR_MAX];

	return utrace_backend_parse(value, out, err, sizeof(err)) ?
		"must be auto, ebpf or ptrace" : NULL;
}

static const char *check_hostname(const char *value)
{
	if (!*value)
		return "must not be empty";
	if (strlen(value) > MAX_HOSTNAME)
		return "longer than 64 characters";
	if (has_control_char(value))
		return "must not contain control characters";
	return NULL;
}

/* The typed members' parsers: the value once, into struct jail_opts. */
static const char *parse_veth(const char *value, void *out)
{
	return jail_veth_split(value, out);
}

static const char *parse_prefix_addr(const char *value, void *out)
{
	return jail_ipaddr_parse(value, true, out);
}

static const char *parse_addr(const char *value, void *out)
{
	return jail_ipaddr_parse(value, false, out);
}

static const char *parse_idmap(const char *value, void *out)
{
	return jail_idmap_parse(value, out);
}

static const char *parse_memory(const char *value, void *out)
{
	return cgroup_value_memory(value, out);
}

static const char *parse_cpu(const char *value, void *out)
{
	return cgroup_value_cpu(value, out);
}

static const char *parse_pids(const char *value, void *out)
{
	return cgroup_value_pids(value, out);
}

static const char *parse_io_weight(const char *value, void *out)
{
	return cgroup_value_io_weight(value, out);
}

#define ROW(l, n, key, arg, k) .letter = l, .name = n, .json_key = key, .has_arg = arg, .kind = k
#define STRING(l, n, key, m, chk) \
	{ ROW(l, n, key, true, OPT_STRING), .member = offsetof(struct jail_opts, m), .check = chk }
/* A string kept for messages, parsed by @fn into the member @typed. */
#define PARSED(l, n, key, m, typed, fn) \
	{ ROW(l, n, key, true, OPT_STRING), .member = offsetof(struct jail_opts, m), \
	  .parse = fn, .parsed = offsetof(struct jail_opts, typed) }
#define LIMIT(n, key, m, fn) \
	{ ROW(0, n, key, true, OPT_LIMIT), .member = offsetof(struct jail_opts, m), \
	  .parse = fn, .parsed = offsetof(struct jail_opts, m##_value) }
#define FLAG(l, n, key, m) \
	{ ROW(l, n, key, false, OPT_FLAG), .member = offsetof(struct jail_opts, m) }
#define OTHER(l, n, key, arg, kind) \
	{ ROW(l, n, key, arg, kind) }
#define REFUSED(l, arg, why) \
	{ ROW(l, NULL, NULL, arg, OPT_REFUSED), .refusal = why }

const struct opt_spec opt_specs[] = {
	STRING('n', "name", "name", name, check_name),
	STRING('h', "hostname", "hostname", hostname, check_hostname),
	OTHER('t', "timeout", "timeout", true, OPT_TIMEOUT),
	STRING('S', "seccomp", "seccomp", seccomp, check_not_empty),
	STRING(0, "trace", NULL, trace, check_not_empty),
	PARSED(0, "trace-backend", NULL, trace_backend, trace_backend_kind, parse_trace_backend),
	PARSED(0, "fs", "fs", fs, fs_kind, parse_fs),
	STRING('C', "capabilities", "capabilities", capabilities, check_not_empty),
	FLAG(0, "keep-caps", "keep_caps", keep_caps),
	STRING('U', "user", "user", user, check_not_empty),
	STRING('G', "group", "group", group, check_not_empty),
	FLAG('c', "no-new-privs", "no_new_privs", no_new_privs),
	FLAG(0, "no-baseline", "no_baseline", no_baseline),
	FLAG('p', "proc", "proc", proc),
	FLAG('s', "sys", "sys", sys),
	FLAG('u', "ubus", "ubus", ubus),
	FLAG('D', "udebug", "udebug", udebug),
	FLAG('l', "log", "log", dev_log),
	FLAG('o', "read-only-root", "read_only_root", ro_root),
	FLAG('N', "net", "net", netns),
	PARSED(0, "veth", "veth", veth, veth_names, parse_veth),
	PARSED(0, "host-addr", "host_addr", host_addr, host_ip, parse_prefix_addr),
	PARSED(0, "jail-addr", "jail_addr", jail_addr, jail_ip, parse_prefix_addr),
	PARSED(0, "gateway", "gateway", gateway, gateway_ip, parse_addr),
	FLAG('f', "userns", "userns", userns),
	PARSED(0, "uid-map", "uid_map", uid_map, uid_ids, parse_idmap),
	PARSED(0, "gid-map", "gid_map", gid_map, gid_ids, parse_idmap),
	FLAG('F', "cgroupns", "cgroupns", cgroupns),
	STRING(0, "cgroup-parent", "cgroup_parent", cgroup_parent, cgroup_check_parent),
	LIMIT("memory-max", "memory_max", memory_max, parse_memory),
	LIMIT("memory-high", "memory_high", memory_high, parse_memory),
	LIMIT("cpu-max", "cpu_max", cpu_max, parse_cpu),
	LIMIT("pids-max", "pids_max", pids_max, parse_pids),
	LIMIT("io-weight", "io_weight", io_weight, parse_io_weight),
	STRING('P', "pidfile", "pidfile", pidfile, check_not_empty),
	FLAG('E', "require-jail", NULL, fail_hard),
	OTHER('e', "keep-env", "keep_env", true, OPT_KEEP_ENV),
	OTHER('r', "ro", "ro", true, OPT_PATH_RO),
	OTHER('w', "rw", "rw", true, OPT_PATH_RW),
	OTHER('j', "join-ns", "join_ns", true, OPT_JOIN),
	STRING(0, "join", "join", join, check_name),
	OTHER('d', "debug", NULL, true, OPT_DEBUG),
	OTHER(0, "config", NULL, true, OPT_CONFIG),
	OTHER(0, "help", NULL, false, OPT_HELP),
	OTHER(0, "version", NULL, false, OPT_VERSION),
	OTHER(0, NULL, "command", false, OPT_COMMAND),
	REFUSED('J', true,
		"procd's -J runs an OCI bundle (DIR/config.json); "
		"ujail does not support OCI bundles yet"),
	REFUSED('i', false,
		"procd's -i starts an OCI container at once; "
		"ujail does not support OCI bundles yet"),
	REFUSED('R', true,
		"procd's -R uses DIR as the jail's root file system; "
		"ujail does not support an external root yet"),
	REFUSED('O', true,
		"procd's -O puts a writable overlay (kept in DIR) over the jail's root; "
		"ujail does not support overlays yet"),
	REFUSED('T', true,
		"procd's -T puts a writable tmpfs overlay of SIZE over the jail's root; "
		"ujail does not support overlays yet"),
	REFUSED('y', false,
		"procd's -y gives the jail a console (a pty handed to procd over ubus); "
		"ujail does not support a jail console yet"),
};

const size_t opt_n_specs = sizeof(opt_specs) / sizeof(opt_specs[0]);
_Static_assert(sizeof(opt_specs) / sizeof(opt_specs[0]) <= OPT_MAX_SPECS,
	       "OPT_MAX_SPECS is too small for the table");

char **opt_string_member(struct jail_opts *o, const struct opt_spec *s)
{
	return (char **)((char *)o + s->member);
}

bool *opt_flag_member(struct jail_opts *o, const struct opt_spec *s)
{
	return (bool *)((char *)o + s->member);
}

const struct opt_spec *opt_spec_by_key(const char *key)
{
	for (size_t i = 0; i < opt_n_specs; i++)
		if (opt_specs[i].json_key && !strcmp(opt_specs[i].json_key, key))
			return &opt_specs[i];
	return NULL;
}
