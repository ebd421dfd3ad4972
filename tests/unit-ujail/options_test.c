/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ujail's command line: procd's argv, the long options, SRC:DST staging,
 * jail files, and every error with its exact message. Prints TAP.
 */
#include <arpa/inet.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "isolation/clone_flags.h"
#include "options/options.h"
#include "tap.h"

static char tmpdir[] = "/tmp/ujail-options-XXXXXX";

struct result {
	int rc;
	char *err;	/* what went to jail_err */
	char *out;	/* what went to jail_out */
};

#define ARGS(...) ((const char *[]){ "ujail", __VA_ARGS__, NULL })

/* Parses @args (NULL-terminated) into @o, capturing the messages. */
static struct result parse(struct jail_opts *o, const char **args)
{
	struct result r = { 0, NULL, NULL };
	size_t err_len, out_len;
	char *argv[64];
	int argc = 0;

	while (args[argc])
		argv[argc] = (char *)args[argc], argc++;
	argv[argc] = NULL;
	jail_err = open_memstream(&r.err, &err_len);
	jail_out = open_memstream(&r.out, &out_len);
	r.rc = jail_opts_parse(o, argc, argv);
	fclose(jail_err);
	fclose(jail_out);
	jail_err = jail_out = NULL;
	return r;
}

static void result_free(struct result *r)
{
	free(r->err);
	free(r->out);
}

static bool str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* @args must fail with exactly @message (and a newline) on jail_err. */
static void expect_error(const char **args, const char *message)
{
	struct jail_opts o;
	struct result r = parse(&o, args);
	size_t len = strlen(message);
	bool exact = r.rc == -1 && !strncmp(r.err, message, len) &&
		     !strcmp(r.err + len, "\n");

	if (!ok(exact, "error: %s", message))
		printf("# rc %d, got: %s", r.rc, r.err);
	jail_opts_free(&o);
	result_free(&r);
}

static bool same_opts(const struct jail_opts *a, const struct jail_opts *b)
{
	bool same = str_eq(a->name, b->name) && str_eq(a->hostname, b->hostname) &&
		    a->term_timeout == b->term_timeout &&
		    str_eq(a->seccomp, b->seccomp) &&
		    str_eq(a->capabilities, b->capabilities) &&
		    str_eq(a->user, b->user) && str_eq(a->group, b->group) &&
		    str_eq(a->pidfile, b->pidfile) &&
		    a->no_new_privs == b->no_new_privs && a->proc == b->proc &&
		    a->sys == b->sys && a->ubus == b->ubus && a->udebug == b->udebug &&
		    a->dev_log == b->dev_log && a->ro_root == b->ro_root &&
		    a->netns == b->netns && a->userns == b->userns &&
		    a->cgroupns == b->cgroupns && a->fail_hard == b->fail_hard &&
		    a->debug == b->debug && a->n_keep_env == b->n_keep_env &&
		    a->n_paths == b->n_paths && a->n_joins == b->n_joins &&
		    a->argc == b->argc;

	for (size_t i = 0; same && i < a->n_keep_env; i++)
		same = str_eq(a->keep_env[i], b->keep_env[i]);
	for (size_t i = 0; same && i < a->n_paths; i++)
		same = str_eq(a->paths[i].src, b->paths[i].src) &&
		       str_eq(a->paths[i].dst, b->paths[i].dst) &&
		       a->paths[i].writable == b->paths[i].writable;
	for (size_t i = 0; same && i < a->n_joins; i++)
		same = a->joins[i].pid == b->joins[i].pid &&
		       a->joins[i].ns_flags == b->joins[i].ns_flags;
	for (int i = 0; same && i < a->argc; i++)
		same = str_eq(a->argv[i], b->argv[i]);
	return same;
}

static bool path_is(const struct jail_opts *o, size_t i, const char *src,
		    const char *dst, bool writable)
{
	return i < o->n_paths && str_eq(o->paths[i].src, src) &&
	       str_eq(o->paths[i].dst, dst) && o->paths[i].writable == writable;
}

/* What procd's jail_run() builds, with every flag it can pass that we take. */
static const char *procd_argv[] = {
	"/sbin/ujail", "-t", "5", "-n", "dnsmasq", "-h", "router",
	"-S", "/etc/seccomp/dnsmasq.json", "-U", "dnsmasq",
	"-G", "dnsmasq", "-C", "/etc/capabilities/dnsmasq.json",
	"-c", "-p", "-s", "-u", "-D", "-l", "-o", "-N", "-F",
	"-P", "/var/run/dnsmasq.pid", "-E", "-e", "TZ", "-e", "LANG",
	"-w", "/tmp/dhcp.leases", "-r", "/etc/dnsmasq.conf",
	"-r", "/etc/hosts:/etc/hosts.jail", "-j", "1234:ipc,pid",
	"--", "/usr/sbin/dnsmasq", "-k", "-C", "/var/etc/dnsmasq.conf", NULL
};

static void test_procd_argv(void)
{
	struct jail_opts o;
	struct result r = parse(&o, procd_argv);

	ok(r.rc == 0 && !*r.err, "procd's argv parses");
	ok(str_eq(o.name, "dnsmasq") && str_eq(o.hostname, "router") &&
	   o.term_timeout == 5, "procd: -n -h -t");
	ok(str_eq(o.seccomp, "/etc/seccomp/dnsmasq.json") &&
	   str_eq(o.capabilities, "/etc/capabilities/dnsmasq.json") &&
	   str_eq(o.user, "dnsmasq") && str_eq(o.group, "dnsmasq") &&
	   str_eq(o.pidfile, "/var/run/dnsmasq.pid"), "procd: -S -C -U -G -P");
	ok(o.no_new_privs && o.proc && o.sys && o.ubus && o.udebug && o.dev_log &&
	   o.ro_root && o.netns && o.cgroupns && o.fail_hard && !o.userns,
	   "procd: -c -p -s -u -D -l -o -N -F -E");
	ok(o.n_keep_env == 2 && str_eq(o.keep_env[0], "TZ") &&
	   str_eq(o.keep_env[1], "LANG") && !o.keep_env[2], "procd: -e NAME twice");
	ok(o.n_paths == 3 && path_is(&o, 0, "/tmp/dhcp.leases", "/tmp/dhcp.leases", true) &&
	   path_is(&o, 1, "/etc/dnsmasq.conf", "/etc/dnsmasq.conf", false) &&
	   path_is(&o, 2, "/etc/hosts", "/etc/hosts.jail", false), "procd: -w -r, SRC:DST");
	ok(o.n_joins == 1 && o.joins[0].pid == 1234 &&
	   o.joins[0].ns_flags == (CLONE_NEWIPC | CLONE_NEWPID), "procd: -j PID:ipc,pid");
	ok(o.argc == 4 && str_eq(o.argv[0], "/usr/sbin/dnsmasq") &&
	   str_eq(o.argv[1], "-k") && str_eq(o.argv[2], "-C") &&
	   str_eq(o.argv[3], "/var/etc/dnsmasq.conf") && !o.argv[4],
	   "procd: the command after --, its own options untouched");
	ok(o.config == NULL && o.debug == 0, "procd: no jail file, debug 0");
	jail_opts_free(&o);
	result_free(&r);
}

static void test_long_options(void)
{
	struct jail_opts s, l;
	struct result rs = parse(&s, procd_argv);
	struct result rl = parse(&l, ARGS(
		"--timeout", "5", "--name", "dnsmasq", "--hostname=router",
		"--seccomp", "/etc/seccomp/dnsmasq.json", "--user", "dnsmasq",
		"--group", "dnsmasq", "--capabilities", "/etc/capabilities/dnsmasq.json",
		"--no-new-privs", "--proc", "--sys", "--ubus", "--udebug", "--log",
		"--read-only-root", "--net", "--cgroupns",
		"--pidfile", "/var/run/dnsmasq.pid", "--require-jail",
		"--keep-env", "TZ", "--keep-env", "LANG",
		"--rw", "/tmp/dhcp.leases", "--ro", "/etc/dnsmasq.conf",
		"--ro", "/etc/hosts:/etc/hosts.jail", "--join-ns", "1234:ipc,pid",
		"--", "/usr/sbin/dnsmasq", "-k", "-C", "/var/etc/dnsmasq.conf"));

	ok(rs.rc == 0 && rl.rc == 0 && same_opts(&s, &l),
	   "every long option means what its short one does");
	jail_opts_free(&s);
	jail_opts_free(&l);
	result_free(&rs);
	result_free(&rl);

	rl = parse(&l, ARGS("--debug", "3", "-d", "7", "/bin/true"));
	ok(rl.rc == 0 && l.debug == 7, "--debug and -d, the last wins");
	jail_opts_free(&l);
	result_free(&rl);
}

static void test_defaults_and_command(void)
{
	struct jail_opts o;
	struct result r = parse(&o, ARGS("-p", "/bin/echo", "-n", "hi"));

	ok(r.rc == 0 && o.term_timeout == 5 && !o.name && o.proc,
	   "default timeout 5 s, as procd");
	ok(o.argc == 3 && str_eq(o.argv[1], "-n") && str_eq(o.argv[2], "hi"),
	   "the first non-option starts the command, without --");
	jail_opts_free(&o);
	result_free(&r);

	r = parse(&o, ARGS("--trace", "/tmp/p.json", "--trace-backend", "ptrace", "/bin/true"));
	ok(r.rc == 0 && str_eq(o.trace, "/tmp/p.json") && str_eq(o.trace_backend, "ptrace"),
	   "--trace FILE --trace-backend ptrace");
	jail_opts_free(&o);
	result_free(&r);

	r = parse(&o, ARGS("-t", "0", "-t", "86400", "-n", "a", "-n", "b", "--", "/x"));
	ok(r.rc == 0 && o.term_timeout == 86400 && str_eq(o.name, "b"),
	   "-t 0..86400; a value given twice: the last wins");
	jail_opts_free(&o);
	result_free(&r);
}

static void test_paths(void)
{
	struct jail_opts o;
	struct result r = parse(&o, ARGS(
		"-r", "/etc/a:/etc/b", "-w", "//srv/./data//x/", "-r", "/etc/a:/etc/b",
		"-r", "/etc/a:/opt/a", "-r", "/lib/x:/lib/y:z", "--", "/bin/true"));

	ok(r.rc == 0 && path_is(&o, 0, "/etc/a", "/etc/b", false),
	   "-r SRC:DST maps SRC to DST");
	ok(path_is(&o, 1, "/srv/data/x", "/srv/data/x", true),
	   "paths are normalized: //, /./ and a trailing / go");
	ok(path_is(&o, 2, "/etc/a", "/opt/a", false),
	   "the same entry twice counts once; one SRC may go to two places");
	ok(o.n_paths == 4 && path_is(&o, 3, "/lib/x", "/lib/y:z", false),
	   "split at the first ':' only, as procd");
	jail_opts_free(&o);
	result_free(&r);
}

static void test_errors(void)
{
	char long_host[80];

	memset(long_host, 'h', 65);
	long_host[65] = '\0';

	expect_error(ARGS("-r", "etc/passwd", "/bin/true"),
		     "ujail: -r 'etc/passwd': not an absolute path");
	expect_error(ARGS("--ro", "etc/passwd", "/bin/true"),
		     "ujail: --ro 'etc/passwd': not an absolute path");
	expect_error(ARGS("-w", "", "/bin/true"), "ujail: -w '': empty path");
	expect_error(ARGS("-r", "/etc/../shadow", "/bin/true"),
		     "ujail: -r '/etc/../shadow': '..' is not allowed in a path");
	expect_error(ARGS("-r", "/a:b", "/bin/true"),
		     "ujail: -r '/a:b': destination 'b': not an absolute path");
	expect_error(ARGS("-r", ":/b", "/bin/true"),
		     "ujail: -r ':/b': source '': empty path");
	expect_error(ARGS("-r", "/a:", "/bin/true"),
		     "ujail: -r '/a:': destination '': empty path");
	expect_error(ARGS("-r", "/a:/x/..", "/bin/true"),
		     "ujail: -r '/a:/x/..': destination '/x/..': '..' is not allowed in a path");
	expect_error(ARGS("-w", "/", "/bin/true"),
		     "ujail: -w '/': cannot stage over the jail's root '/'");
	expect_error(ARGS("-r", "/etc/x", "-w", "/etc/x/", "/bin/true"),
		     "ujail: -w '/etc/x/': '/etc/x' is already staged read-only (-r)");
	expect_error(ARGS("-w", "/etc/x", "-r", "/etc/x", "/bin/true"),
		     "ujail: -r '/etc/x': '/etc/x' is already staged writable (-w)");
	expect_error(ARGS("-r", "/a:/x", "-r", "/b:/x", "/bin/true"),
		     "ujail: -r '/b:/x': '/x' is already staged from '/a'");

	expect_error(ARGS("-t", "86401", "/bin/true"),
		     "ujail: -t '86401': expected a number of seconds from 0 to 86400");
	expect_error(ARGS("--timeout", "-1", "/bin/true"),
		     "ujail: --timeout '-1': expected a number of seconds from 0 to 86400");
	expect_error(ARGS("-t", "5s", "/bin/true"),
		     "ujail: -t '5s': expected a number of seconds from 0 to 86400");
	expect_error(ARGS("-t", "", "/bin/true"),
		     "ujail: -t '': expected a number of seconds from 0 to 86400");
	expect_error(ARGS("-t", "99999999999999999999999", "/bin/true"),
		     "ujail: -t '99999999999999999999999': expected a number of seconds from 0 to 86400");
	expect_error(ARGS("-d", "10", "/bin/true"),
		     "ujail: -d '10': expected a level from 0 to 9");

	expect_error(ARGS("-e", "", "/bin/true"), "ujail: -e '': must not be empty");
	expect_error(ARGS("--keep-env", "A=B", "/bin/true"),
		     "ujail: --keep-env 'A=B': expected a variable name; its value is "
		     "taken from ujail's environment");

	expect_error(ARGS("-j", "1234", "/bin/true"),
		     "ujail: -j '1234': expected PID:NS[,NS...]");
	expect_error(ARGS("-j", "abc:net", "/bin/true"),
		     "ujail: -j 'abc:net': 'abc' is not a process id");
	expect_error(ARGS("-j", "0:net", "/bin/true"),
		     "ujail: -j '0:net': '0' is not a process id");
	expect_error(ARGS("-j", ":net", "/bin/true"),
		     "ujail: -j ':net': '' is not a process id");
	expect_error(ARGS("-j", "1:foo", "/bin/true"),
		     "ujail: -j '1:foo': unknown namespace 'foo' "
		     "(pid, net, mnt, ipc, uts, cgroup, time)");
	expect_error(ARGS("-j", "1:net,,ipc", "/bin/true"),
		     "ujail: -j '1:net,,ipc': empty namespace name");
	expect_error(ARGS("-j", "1:", "/bin/true"),
		     "ujail: -j '1:': empty namespace name");
	expect_error(ARGS("-j", "1:user", "/bin/true"),
		     "ujail: -j '1:user': joining a user namespace is not implemented yet");
	expect_error(ARGS("-j", "1:net,network", "/bin/true"),
		     "ujail: -j '1:net,network': namespace 'network' given twice");
	expect_error(ARGS("-j", "1:mnt", "-j", "2:ipc,mount", "/bin/true"),
		     "ujail: -j '2:ipc,mount': the mnt namespace is already joined from pid 1");
	expect_error(ARGS("-j", "1:net", "-N", "/bin/true"),
		     "ujail: -j joins a net namespace and -N asks for a new one; "
		     "use one or the other");
	expect_error(ARGS("-h", "box", "-j", "1:uts", "/bin/true"),
		     "ujail: -j joins a uts namespace and -h sets a hostname, "
		     "which needs a new one; use one or the other");
	expect_error(ARGS("-F", "-j", "1:cgroup", "/bin/true"),
		     "ujail: -j joins a cgroup namespace and -F asks for a new one; "
		     "use one or the other");

	expect_error(ARGS("-n", "", "/bin/true"), "ujail: -n '': must not be empty");
	expect_error(ARGS("--name", "a/b", "/bin/true"),
		     "ujail: --name 'a/b': must not contain '/'");
	expect_error(ARGS("-n", "a\tb", "/bin/true"),
		     "ujail: -n 'a\tb': must not contain control characters");
	expect_error(ARGS("-h", long_host, "/bin/true"),
		     "ujail: -h 'hhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh': "
		     "longer than 64 characters");
	expect_error(ARGS("-S", "", "/bin/true"), "ujail: -S '': must not be empty");
	expect_error(ARGS("-C", "", "/bin/true"), "ujail: -C '': must not be empty");
	expect_error(ARGS("-U", "", "/bin/true"), "ujail: -U '': must not be empty");
	expect_error(ARGS("-G", "", "/bin/true"), "ujail: -G '': must not be empty");
	expect_error(ARGS("-P", "", "/bin/true"), "ujail: -P '': must not be empty");

	expect_error(ARGS("-x", "/bin/true"),
		     "ujail: unknown option -x (see ujail --help)");
	expect_error(ARGS("--bogus", "/bin/true"),
		     "ujail: unknown option --bogus (see ujail --help)");
	expect_error(ARGS("-n"), "ujail: -n needs an argument");
	expect_error(ARGS("--name"), "ujail: --name needs an argument");
	expect_error(ARGS("--proc=yes", "/bin/true"), "ujail: --proc takes no argument");
	expect_error(ARGS("-p"), "ujail: no command to run; give it after -- (see ujail --help)");
	expect_error(ARGS("-p", "--"), "ujail: no command to run; give it after -- (see ujail --help)");
	expect_error(ARGS("--", ""), "ujail: empty command name");
}

static void test_userns(void)
{
	struct jail_opts o;
	struct result r = parse(&o, ARGS("-f", "--uid-map", "100000:65536",
					 "--gid-map", "200000", "/bin/true"));

	ok(r.rc == 0 && o.userns && str_eq(o.uid_map, "100000:65536") &&
	   str_eq(o.gid_map, "200000"), "-f --uid-map --gid-map");
	jail_opts_free(&o);
	result_free(&r);
	expect_error(ARGS("--uid-map", "0", "/bin/true"),
		     "ujail: --uid-map '0': ID 0 would make the jail's root the host's root");
	expect_error(ARGS("--uid-map", "1:0", "/bin/true"),
		     "ujail: --uid-map '1:0': COUNT must be at least 1");
	expect_error(ARGS("--gid-map", "-5", "/bin/true"),
		     "ujail: --gid-map '-5': ID must be a number below 4294967295 (ID or ID:COUNT)");
	expect_error(ARGS("--gid-map", "4294967294:2", "/bin/true"),
		     "ujail: --gid-map '4294967294:2': the range ends beyond the last id, 4294967294");
	expect_error(ARGS("--uid-map", "7:", "/bin/true"),
		     "ujail: --uid-map '7:': COUNT must be a number below 4294967295 (ID:COUNT)");
}

static void test_refused(void)
{
	expect_error(ARGS("-J", "/srv/bundle", "/bin/true"),
		     "ujail: -J: procd's -J runs an OCI bundle (DIR/config.json); "
		     "ujail does not support OCI bundles yet");
	expect_error(ARGS("-i", "/bin/true"),
		     "ujail: -i: procd's -i starts an OCI container at once; "
		     "ujail does not support OCI bundles yet");
	expect_error(ARGS("-R", "/srv/root", "/bin/true"),
		     "ujail: -R: procd's -R uses DIR as the jail's root file system; "
		     "ujail does not support an external root yet");
	expect_error(ARGS("-O", "/srv/ov", "/bin/true"),
		     "ujail: -O: procd's -O puts a writable overlay (kept in DIR) over "
		     "the jail's root; ujail does not support overlays yet");
	expect_error(ARGS("-T", "1M", "/bin/true"),
		     "ujail: -T: procd's -T puts a writable tmpfs overlay of SIZE over "
		     "the jail's root; ujail does not support overlays yet");
	expect_error(ARGS("-y", "/bin/true"),
		     "ujail: -y: procd's -y gives the jail a console (a pty handed to "
		     "procd over ubus); ujail does not support a jail console yet");
}

static void test_help_version(void)
{
	struct jail_opts o;
	struct result r = parse(&o, ARGS("-p", "--help"));

	ok(r.rc == 1 && !strncmp(r.out, "Usage: ujail [OPTION]...", 24) && !*r.err,
	   "--help prints the usage on jail_out, returns 1");
	ok(strstr(r.out, "--join-ns PID:NS[,NS]") && strstr(r.out, "See ujail(8)."),
	   "--help lists the options and points at the man page");
	jail_opts_free(&o);
	result_free(&r);

	r = parse(&o, ARGS("-x", "--version"));
	ok(r.rc == 1 && !strncmp(r.out, "ujail ", 6) && !*r.err,
	   "--version wins over an unknown option");
	jail_opts_free(&o);
	result_free(&r);
}

/* Writes @text to tmpdir/@name; returns the path (static buffer). */
static const char *write_file(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
	return path;
}

static const char good_config[] =
"{\n"
"  \"name\": \"httpd\",\n"
"  \"hostname\": \"www\",\n"
"  \"timeout\": 10,\n"
"  \"seccomp\": \"/etc/ujail/httpd.json\",\n"
"  \"capabilities\": \"/etc/ujail/httpd-caps.json\",\n"
"  \"user\": \"www-data\",\n"
"  \"group\": \"www-data\",\n"
"  \"no_new_privs\": true,\n"
"  \"proc\": true, \"sys\": false, \"ubus\": false, \"udebug\": true, \"log\": true,\n"
"  \"read_only_root\": true, \"net\": false, \"cgroupns\": true,\n"
"  \"pidfile\": \"/run/httpd.pid\",\n"
"  \"keep_env\": [\"TZ\"],\n"
"  \"ro\": [\"/www\", \"/etc/a:/etc/b\", {\"src\": \"/etc/httpd.conf\"},\n"
"         {\"src\": \"/srv/x:y\", \"dst\": \"/x\"}],\n"
"  \"rw\": [\"/var/log/httpd\"],\n"
"  \"join_ns\": [\"1:ipc\", {\"pid\": 2, \"namespaces\": [\"net\", \"time\"]}],\n"
"  \"command\": [\"/usr/sbin/httpd\", \"-f\", \"-p\", \"80\"]\n"
"}\n";

static void test_config_good(void)
{
	const char *file = write_file("good.json", good_config);
	struct jail_opts o;
	struct result r = parse(&o, ARGS("--config", file));

	ok(r.rc == 0 && !*r.err, "a good jail file parses");
	ok(str_eq(o.config, file) && str_eq(o.name, "httpd") &&
	   str_eq(o.hostname, "www") && o.term_timeout == 10 &&
	   str_eq(o.seccomp, "/etc/ujail/httpd.json") &&
	   str_eq(o.capabilities, "/etc/ujail/httpd-caps.json") &&
	   str_eq(o.user, "www-data") && str_eq(o.group, "www-data") &&
	   str_eq(o.pidfile, "/run/httpd.pid"), "jail file: the values");
	ok(o.no_new_privs && o.proc && !o.sys && !o.ubus && o.udebug && o.dev_log &&
	   o.ro_root && !o.netns && o.cgroupns, "jail file: the flags");
	ok(o.n_keep_env == 1 && str_eq(o.keep_env[0], "TZ"), "jail file: keep_env");
	ok(o.n_paths == 5 && path_is(&o, 0, "/www", "/www", false) &&
	   path_is(&o, 1, "/etc/a", "/etc/b", false) &&
	   path_is(&o, 2, "/etc/httpd.conf", "/etc/httpd.conf", false) &&
	   path_is(&o, 3, "/srv/x:y", "/x", false) &&
	   path_is(&o, 4, "/var/log/httpd", "/var/log/httpd", true),
	   "jail file: ro and rw as strings and objects (a ':' in an object's src)");
	ok(o.n_joins == 2 && o.joins[0].pid == 1 && o.joins[0].ns_flags == CLONE_NEWIPC &&
	   o.joins[1].pid == 2 && o.joins[1].ns_flags == (CLONE_NEWNET | CLONE_NEWTIME),
	   "jail file: join as a string and as procd's {pid, namespaces}");
	ok(o.argc == 4 && str_eq(o.argv[0], "/usr/sbin/httpd") && str_eq(o.argv[3], "80") &&
	   !o.argv[4], "jail file: the command");
	jail_opts_free(&o);
	result_free(&r);

	/* The command line wins, wherever --config is; lists add up. */
	r = parse(&o, ARGS("-n", "early", "-t", "3", "--config", file, "-p", "-s",
			   "-e", "LANG", "-e", "TZ", "-w", "/tmp/x", "--", "/bin/sh", "-c", ":"));
	ok(r.rc == 0 && str_eq(o.name, "early") && o.term_timeout == 3,
	   "jail file + command line: a value on the command line replaces the file's");
	ok(o.sys && o.proc && o.cgroupns, "jail file + command line: flags only turn on");
	ok(o.n_keep_env == 2 && o.n_paths == 6 && path_is(&o, 5, "/tmp/x", "/tmp/x", true) &&
	   o.n_joins == 2, "jail file + command line: lists extend the file's");
	ok(o.argc == 3 && str_eq(o.argv[0], "/bin/sh"),
	   "jail file + command line: the command replaces the file's");
	jail_opts_free(&o);
	result_free(&r);

	expect_error(ARGS("--config", file, "-r", "/www:/etc/b", "/bin/true"),
		     "ujail: -r '/www:/etc/b': '/etc/b' is already staged from '/etc/a'");
	expect_error(ARGS("--config", file, "-j", "5:net", "/bin/true"),
		     "ujail: -j '5:net': the net namespace is already joined from pid 2");
	{
		char msg[512];

		snprintf(msg, sizeof(msg), "ujail: --config '%s': only one jail file "
			 "can be given", file);
		expect_error(ARGS("--config", file, "--config", file, "/bin/true"), msg);
	}
}

/* A jail file holding @json must fail with "ujail: FILE: @message". */
static void expect_config_error(const char *json, const char *message)
{
	const char *file = write_file("bad.json", json);
	char full[1024];

	snprintf(full, sizeof(full), "ujail: %s: %s", file, message);
	expect_error(ARGS("--config", file, "/bin/true"), full);
}

static void test_config_bad(void)
{
	char path[256], msg[512];

	expect_config_error("{\"nmae\": \"x\"}", "nmae: unknown key");
	expect_config_error("{\"name\": 5}", "name: expected a string");
	expect_config_error("{\"name\": \"a\\u0000b\"}", "name: contains a NUL character");
	expect_config_error("{\"name\": \"a/b\"}", "name: must not contain '/'");
	expect_config_error("{\"timeout\": \"5\"}",
			    "timeout: expected a number of seconds from 0 to 86400");
	expect_config_error("{\"timeout\": 86401}",
			    "timeout: expected a number of seconds from 0 to 86400");
	expect_config_error("{\"timeout\": 1.5}",
			    "timeout: expected a number of seconds from 0 to 86400");
	expect_config_error("{\"proc\": 1}", "proc: expected true or false");
	expect_config_error("{\"ro\": \"/etc\"}", "ro: expected an array");
	expect_config_error("{\"ro\": [1]}",
			    "ro[0]: expected \"SRC[:DST]\" or {\"src\": ..., \"dst\": ...}");
	expect_config_error("{\"rw\": [\"/a\", \"tmp\"]}", "rw[1]: not an absolute path");
	expect_config_error("{\"ro\": [{\"src\": \"etc\"}]}", "ro[0].src: not an absolute path");
	expect_config_error("{\"ro\": [{\"src\": \"/a\", \"dst\": \"/b/../c\"}]}",
			    "ro[0].dst: '..' is not allowed in a path");
	expect_config_error("{\"ro\": [{\"src\": \"/a\", \"dst\": 3}]}",
			    "ro[0].dst: expected a string");
	expect_config_error("{\"ro\": [{\"dst\": \"/x\"}]}", "ro[0]: \"src\" is missing");
	expect_config_error("{\"ro\": [{\"src\": \"/a\", \"mode\": \"x\"}]}",
			    "ro[0].mode: unknown key");
	expect_config_error("{\"keep_env\": [\"A=B\"]}",
			    "keep_env[0]: expected a variable name; its value is taken "
			    "from ujail's environment");
	expect_config_error("{\"keep_env\": [null]}", "keep_env[0]: expected a string");
	expect_config_error("{\"join_ns\": [7]}",
			    "join_ns[0]: expected \"PID:NS[,NS...]\" or "
			    "{\"pid\": ..., \"namespaces\": [...]}");
	expect_config_error("{\"join_ns\": [\"1:bogus\"]}",
			    "join_ns[0]: unknown namespace 'bogus' (pid, net, mnt, ipc, uts, cgroup, time)");
	expect_config_error("{\"join_ns\": [{\"pid\": 1, \"namespaces\": [\"foo\"]}]}",
			    "join_ns[0].namespaces[0]: unknown namespace 'foo' "
			    "(pid, net, mnt, ipc, uts, cgroup, time)");
	expect_config_error("{\"join_ns\": [{\"pid\": 0, \"namespaces\": [\"net\"]}]}",
			    "join_ns[0].pid: expected a process id");
	expect_config_error("{\"join_ns\": [{\"pid\": 1, \"namespaces\": []}]}",
			    "join_ns[0].namespaces: expected a non-empty array of namespace names");
	expect_config_error("{\"join_ns\": [{\"namespaces\": [\"net\"]}]}",
			    "join_ns[0]: \"pid\" is missing");
	expect_config_error("{\"join_ns\": [{\"pid\": 1}]}", "join_ns[0]: \"namespaces\" is missing");
	expect_config_error("{\"join_ns\": [{\"pid\": 1, \"ns\": []}]}", "join_ns[0].ns: unknown key");
	expect_config_error("{\"command\": []}", "command: expected a non-empty array of strings");
	expect_config_error("{\"command\": [\"/bin/x\", 3]}", "command[1]: expected a string");
	expect_config_error("{\"command\": [\"\"]}", "command[0]: empty command name");
	expect_config_error("[1]", "expected a JSON object at the top level");
	expect_config_error("", "invalid JSON: unexpected end of file");
	expect_config_error("{\"name\": \"x\"", "invalid JSON: unexpected end of file");
	expect_config_error("{\n  \"name\": \"x\"\n  \"hostname\": \"y\"\n}",
			    "line 3: invalid JSON: object value separator ',' expected");
	expect_config_error("{\"name\": \"x\"} {}", "line 1: invalid JSON: text after the JSON value");

	snprintf(path, sizeof(path), "%s/missing.json", tmpdir);
	snprintf(msg, sizeof(msg), "ujail: %s: cannot read: No such file or directory", path);
	expect_error(ARGS("--config", path, "/bin/true"), msg);
	snprintf(msg, sizeof(msg), "ujail: %s: cannot read: Is a directory", tmpdir);
	expect_error(ARGS("--config", tmpdir, "/bin/true"), msg);
}

/* --veth and its addresses: values, defaults, the jail file, every error. */
static void test_veth(void)
{
	struct jail_opts o;
	struct result r = parse(&o, ARGS("--veth", "vh0:vj0", "--host-addr", "10.0.0.1/30",
					 "--jail-addr", "10.0.0.2/30", "--gateway", "10.0.0.1",
					 "/bin/true"));

	ok(r.rc == 0 && str_eq(o.veth, "vh0:vj0") && str_eq(o.host_addr, "10.0.0.1/30") &&
	   str_eq(o.jail_addr, "10.0.0.2/30") && str_eq(o.gateway, "10.0.0.1") && o.netns,
	   "--veth, --host-addr, --jail-addr, --gateway; --veth implies -N");
	jail_opts_free(&o);
	result_free(&r);
	r = parse(&o, ARGS("--veth", "vh0", "--jail-addr", "fd00::2/64", "--gateway", "fd00::1",
			   "/bin/true"));
	ok(r.rc == 0 && str_eq(o.veth, "vh0"), "--veth HOST alone, IPv6 addresses");
	jail_opts_free(&o);
	result_free(&r);
	r = parse(&o, ARGS("--config", write_file("veth.json",
		"{\"veth\": \"vh1:eth1\", \"host_addr\": \"10.0.1.1/24\", "
		"\"jail_addr\": \"10.0.1.2/24\", \"gateway\": \"10.0.1.1\"}"), "/bin/true"));
	ok(r.rc == 0 && str_eq(o.veth, "vh1:eth1") && str_eq(o.host_addr, "10.0.1.1/24") &&
	   str_eq(o.jail_addr, "10.0.1.2/24") && str_eq(o.gateway, "10.0.1.1") && o.netns,
	   "jail file: veth, host_addr, jail_addr, gateway");
	jail_opts_free(&o);
	result_free(&r);
	unlink(write_file("veth.json", ""));

	expect_error(ARGS("--veth", "abcdefghijklmnop", "/bin/true"),
		     "ujail: --veth 'abcdefghijklmnop': interface name longer than 15 characters");
	expect_error(ARGS("--veth", "vh0:abcdefghijklmnop", "/bin/true"),
		     "ujail: --veth 'vh0:abcdefghijklmnop': interface name longer than 15 characters");
	expect_error(ARGS("--veth", "", "/bin/true"), "ujail: --veth '': empty interface name");
	expect_error(ARGS("--veth", "vh0:", "/bin/true"), "ujail: --veth 'vh0:': empty interface name");
	expect_error(ARGS("--veth", "v/h", "/bin/true"),
		     "ujail: --veth 'v/h': interface name with '/', ':' or '%'");
	expect_error(ARGS("--veth", "vh0:a:b", "/bin/true"),
		     "ujail: --veth 'vh0:a:b': interface name with '/', ':' or '%'");
	expect_error(ARGS("--veth", "vh%d", "/bin/true"),
		     "ujail: --veth 'vh%d': interface name with '/', ':' or '%'");
	expect_error(ARGS("--veth", "v h", "/bin/true"),
		     "ujail: --veth 'v h': interface name with a blank or control character");
	expect_error(ARGS("--veth", "..", "/bin/true"),
		     "ujail: --veth '..': '.' and '..' are not interface names");
	expect_error(ARGS("--veth", "vh0:lo", "/bin/true"), "ujail: --veth 'vh0:lo': the jail already has lo");
	expect_error(ARGS("--veth", "vh0", "--host-addr", "10.0.0.1", "/bin/true"),
		     "ujail: --host-addr '10.0.0.1': expected ADDR/LEN, an address and its prefix length");
	expect_error(ARGS("--veth", "vh0", "--jail-addr", "300.1.1.1/24", "/bin/true"),
		     "ujail: --jail-addr '300.1.1.1/24': not an IPv4 or IPv6 address");
	expect_error(ARGS("--veth", "vh0", "--jail-addr", "10.0.0.2/33", "/bin/true"),
		     "ujail: --jail-addr '10.0.0.2/33': prefix length: expected 0 to 32");
	expect_error(ARGS("--veth", "vh0", "--jail-addr", "fd00::2/129", "/bin/true"),
		     "ujail: --jail-addr 'fd00::2/129': prefix length: expected 0 to 128");
	expect_error(ARGS("--veth", "vh0", "--jail-addr", "10.0.0.2/024", "/bin/true"),
		     "ujail: --jail-addr '10.0.0.2/024': prefix length: expected 0 to 32");
	expect_error(ARGS("--veth", "vh0", "--jail-addr", "10.0.0.2/30", "--gateway", "10.0.0.1/30",
			  "/bin/true"),
		     "ujail: --gateway '10.0.0.1/30': expected an address, without /LEN");
	expect_error(ARGS("--veth", "vh0", "--jail-addr", "10.0.0.2/30", "--gateway", "gw",
			  "/bin/true"),
		     "ujail: --gateway 'gw': not an IPv4 or IPv6 address");
	expect_error(ARGS("--trace-backend", "ebpf", "/bin/true"),
		     "ujail: --trace-backend needs --trace FILE");
	expect_error(ARGS("--trace", "/tmp/p.json", "--trace-backend", "bpf", "/bin/true"),
		     "ujail: --trace-backend 'bpf': must be auto, ebpf or ptrace");
	expect_error(ARGS("--host-addr", "10.0.0.1/30", "/bin/true"), "ujail: --host-addr needs --veth");
	expect_error(ARGS("--gateway", "10.0.0.1", "/bin/true"), "ujail: --gateway needs --veth");
	expect_error(ARGS("--veth", "vh0", "--gateway", "10.0.0.1", "/bin/true"),
		     "ujail: --gateway needs --jail-addr: the jail's end has no address to reach it from");
	expect_error(ARGS("--veth", "vh0", "--jail-addr", "fd00::2/64", "--gateway", "10.0.0.1",
			  "/bin/true"),
		     "ujail: --gateway 10.0.0.1 and --jail-addr fd00::2/64: not the same address family");
	expect_error(ARGS("--veth", "vh0", "--jail-addr", "10.0.0.2/30", "--gateway", "10.0.0.2",
			  "/bin/true"),
		     "ujail: --gateway 10.0.0.2 is the jail's own address");
	expect_error(ARGS("--veth", "vh0", "--host-addr", "10.0.0.2/24", "--jail-addr", "10.0.0.2/30",
			  "/bin/true"),
		     "ujail: --host-addr and --jail-addr are the same address 10.0.0.2/30");
	expect_error(ARGS("--veth", "vh0", "-j", "1:net", "/bin/true"),
		     "ujail: -j joins a net namespace and --veth needs a new one; use one or the other");
	expect_config_error("{\"veth\": 1}", "veth: expected a string");
	expect_config_error("{\"veth\": \"vh0\", \"jail_addr\": \"10.0.0.2\"}",
			    "jail_addr: expected ADDR/LEN, an address and its prefix length");
}

/* The cgroup options: values kept as given, checked, and from a jail file. */
static void test_cgroup_limits(void)
{
	struct jail_opts o;
	struct result r = parse(&o, ARGS(
		"--cgroup-parent", "/sys/fs/cgroup/svc", "--memory-max", "16M",
		"--memory-high=max", "--cpu-max", "50000/100000", "--pids-max", "20",
		"--io-weight", "10000", "/bin/true"));
	const char *file;

	ok(r.rc == 0 && str_eq(o.cgroup_parent, "/sys/fs/cgroup/svc") &&
	   str_eq(o.memory_max, "16M") && str_eq(o.memory_high, "max") &&
	   str_eq(o.cpu_max, "50000/100000") && str_eq(o.pids_max, "20") &&
	   str_eq(o.io_weight, "10000"), "cgroup options: the values");
	jail_opts_free(&o);
	result_free(&r);
	r = parse(&o, ARGS("--memory-max", "1g", "--cpu-max", "50%", "--cpu-max", "max/20000",
			   "--pids-max", "max", "--memory-max", "4096", "/bin/true"));
	ok(r.rc == 0 && str_eq(o.memory_max, "4096") && str_eq(o.cpu_max, "max/20000") &&
	   str_eq(o.pids_max, "max"), "cgroup options: the other forms; the last wins");
	jail_opts_free(&o);
	result_free(&r);

	expect_error(ARGS("--memory-max", "12Q", "/bin/true"),
		     "ujail: --memory-max '12Q': expected BYTES with an optional K, M, G or T "
		     "suffix, or max");
	expect_error(ARGS("--memory-high", "1KB", "/bin/true"),
		     "ujail: --memory-high '1KB': expected BYTES with an optional K, M, G or T "
		     "suffix, or max");
	expect_error(ARGS("--memory-max", "0", "/bin/true"),
		     "ujail: --memory-max '0': must be more than 0");
	expect_error(ARGS("--memory-max", "99999999999T", "/bin/true"),
		     "ujail: --memory-max '99999999999T': too large");
	expect_error(ARGS("--pids-max", "-1", "/bin/true"),
		     "ujail: --pids-max '-1': expected a number of processes from 1 to 4194304, "
		     "or max");
	expect_error(ARGS("--pids-max", "0", "/bin/true"),
		     "ujail: --pids-max '0': expected a number of processes from 1 to 4194304, "
		     "or max");
	expect_error(ARGS("--pids-max", "4194305", "/bin/true"),
		     "ujail: --pids-max '4194305': expected a number of processes from 1 to "
		     "4194304, or max");
	{
		static const char *const bad_cpu[] = {
			"0", "999", "1000/999", "1000/1000001", "max/", "50%/1000", "0%", "x", "",
		};
		char msg[512];

		for (size_t i = 0; i < sizeof(bad_cpu) / sizeof(bad_cpu[0]); i++) {
			snprintf(msg, sizeof(msg), "ujail: --cpu-max '%s': expected QUOTA[/PERIOD] "
				 "in microseconds (QUOTA at least 1000, PERIOD 1000 to 1000000), "
				 "N%% of one CPU, or max", bad_cpu[i]);
			expect_error(ARGS("--cpu-max", bad_cpu[i], "/bin/true"), msg);
		}
	}
	expect_error(ARGS("--io-weight", "0", "/bin/true"),
		     "ujail: --io-weight '0': expected a weight from 1 to 10000");
	expect_error(ARGS("--io-weight", "10001", "/bin/true"),
		     "ujail: --io-weight '10001': expected a weight from 1 to 10000");
	expect_error(ARGS("--cgroup-parent", "sys/fs/cgroup", "/bin/true"),
		     "ujail: --cgroup-parent 'sys/fs/cgroup': expected an absolute path");
	expect_error(ARGS("--cgroup-parent", "/sys/fs/cgroup/../x", "/bin/true"),
		     "ujail: --cgroup-parent '/sys/fs/cgroup/../x': must not contain . or .. "
		     "components");

	file = write_file("limits.json", "{\"memory_max\": \"16M\", \"pids_max\": 20, "
			  "\"cpu_max\": \"25%\", \"io_weight\": 50, \"memory_high\": 8388608, "
			  "\"cgroup_parent\": \"/sys/fs/cgroup/x\", \"command\": [\"/bin/true\"]}");
	r = parse(&o, ARGS("--config", file, "--pids-max", "30"));
	ok(r.rc == 0 && str_eq(o.memory_max, "16M") && str_eq(o.pids_max, "30") &&
	   str_eq(o.cpu_max, "25%") && str_eq(o.io_weight, "50") &&
	   str_eq(o.memory_high, "8388608") && str_eq(o.cgroup_parent, "/sys/fs/cgroup/x"),
	   "jail file: limits as strings and integers; the command line wins");
	jail_opts_free(&o);
	result_free(&r);
	unlink(file);
	expect_config_error("{\"pids_max\": -1}", "pids_max: expected a number of processes "
			    "from 1 to 4194304, or max");
	expect_config_error("{\"memory_max\": true}", "memory_max: expected a string or a number");
	expect_config_error("{\"io_weight\": 1.5}", "io_weight: expected a string or a number");
	expect_config_error("{\"cgroup_parent\": 1}", "cgroup_parent: expected a string");
}

/* --join NAME: a member keeps its own settings; what shapes the jail is refused. */
static void test_join(void)
{
	static const char *const shaping[][3] = {
		{ "-n", "y", "-n cannot be used with --join (--join NAME names the jail)" },
		{ "-h", "host", "-h cannot be used with --join (the jail's namespaces were made "
		  "when it started)" },
		{ "--veth", "v0", "--veth cannot be used with --join (the jail's namespaces were "
		  "made when it started)" },
		{ "-j", "1:net", "-j cannot be used with --join (the jail's namespaces were made "
		  "when it started)" },
		{ "-r", "/etc", "-r/-w cannot be used with --join (the jail's root was staged "
		  "when it started)" },
		{ "--fs", "bind", "--fs cannot be used with --join (the jail's root was staged "
		  "when it started)" },
		{ "--memory-max", "1M", "--memory-max cannot be used with --join (a member shares "
		  "the jail's cgroup and its limits)" },
		{ "--cgroup-parent", "/sys/fs/cgroup", "--cgroup-parent cannot be used with "
		  "--join (a member shares the jail's cgroup and its limits)" },
		{ "-t", "3", "-t cannot be used with --join (a member gets the signals its ujail "
		  "gets, with no SIGKILL escalation of its own)" },
		{ "-P", "/tmp/p", "-P cannot be used with --join (a member has no pid file)" },
		{ "--trace", "/tmp/t", "--trace cannot be used with --join (trace the jail's own "
		  "service instead)" },
	};
	static const char *const shaping_flags[] = { "-N", "-F", "-p", "-s", "-u", "-D", "-l",
						     "-o" };
	struct jail_opts o;
	struct result r = parse(&o, ARGS("--join", "www", "-U", "nobody", "-G", "nogroup",
					 "-S", "/p.json", "-C", "/c.json", "-c", "-e", "TZ", "-f",
					 "-d", "2", "--", "/bin/true"));
	char msg[512];
	const char *file;

	ok(r.rc == 0 && str_eq(o.join, "www") && str_eq(o.user, "nobody") &&
	   str_eq(o.seccomp, "/p.json") && o.userns && o.no_new_privs && !o.name,
	   "--join with the member's own -U -G -S -C -c -e -f -d");
	jail_opts_free(&o);
	result_free(&r);
	for (size_t i = 0; i < sizeof(shaping) / sizeof(shaping[0]); i++) {
		snprintf(msg, sizeof(msg), "ujail: --join www: %s", shaping[i][2]);
		expect_error(ARGS("--join", "www", shaping[i][0], shaping[i][1], "/bin/true"), msg);
	}
	for (size_t i = 0; i < sizeof(shaping_flags) / sizeof(shaping_flags[0]); i++) {
		snprintf(msg, sizeof(msg), "ujail: --join www: %s cannot be used with --join ",
			 shaping_flags[i]);
		r = parse(&o, ARGS("--join", "www", shaping_flags[i], "/bin/true"));
		ok(r.rc == -1 && !strncmp(r.err, msg, strlen(msg)), "--join refuses %s",
		   shaping_flags[i]);
		jail_opts_free(&o);
		result_free(&r);
	}
	expect_error(ARGS("--join", "", "/bin/true"), "ujail: --join '': must not be empty");
	expect_error(ARGS("--join", "a/b", "/bin/true"), "ujail: --join 'a/b': must not contain '/'");
	expect_error(ARGS("--join", "..", "/bin/true"), "ujail: --join '..': must not be . or ..");
	expect_error(ARGS("-n", ".", "/bin/true"), "ujail: -n '.': must not be . or ..");

	file = write_file("member.json", "{\"join\": \"www\", \"user\": \"nobody\", "
			  "\"command\": [\"/bin/true\"]}");
	r = parse(&o, ARGS("--config", file));
	ok(r.rc == 0 && str_eq(o.join, "www") && str_eq(o.user, "nobody"),
	   "jail file: join");
	jail_opts_free(&o);
	result_free(&r);
	unlink(file);
	file = write_file("member.json", "{\"join\": \"www\", \"timeout\": 3, "
			  "\"command\": [\"/bin/true\"]}");
	expect_error(ARGS("--config", file), "ujail: --join www: -t cannot be used with --join "
		     "(a member gets the signals its ujail gets, with no SIGKILL escalation of "
		     "its own)");
	unlink(file);
	expect_config_error("{\"join\": 1}", "join: expected a string");
}

/* ---- each value parsed once, into its typed field ---- */

/* @a as "ADDR/LEN" (or "ADDR" without a length), "-" when not given. */
static void render_ip(const struct jail_ipaddr *a, char *buf, size_t len)
{
	char text[INET6_ADDRSTRLEN];

	if (!a->family || !inet_ntop(a->family, a->bytes, text, sizeof(text))) {
		snprintf(buf, len, "-");
		return;
	}
	if (a->prefixlen < 0)
		snprintf(buf, len, "%s", text);
	else
		snprintf(buf, len, "%s/%d", text, a->prefixlen);
}

/* The typed field @field of @o as text, to compare with a row's. */
static void render_field(const struct jail_opts *o, const char *field, char *buf, size_t len)
{
	if (!strcmp(field, "uid_ids"))
		snprintf(buf, len, "%u:%u", o->uid_ids.host, o->uid_ids.count);
	else if (!strcmp(field, "gid_ids"))
		snprintf(buf, len, "%u:%u", o->gid_ids.host, o->gid_ids.count);
	else if (!strcmp(field, "veth_names"))
		snprintf(buf, len, "%s %s", o->veth_names.host, o->veth_names.jail);
	else if (!strcmp(field, "host_ip"))
		render_ip(&o->host_ip, buf, len);
	else if (!strcmp(field, "jail_ip"))
		render_ip(&o->jail_ip, buf, len);
	else if (!strcmp(field, "gateway_ip"))
		render_ip(&o->gateway_ip, buf, len);
	else if (!strcmp(field, "memory_max_value"))
		snprintf(buf, len, "%s", o->memory_max_value);
	else if (!strcmp(field, "memory_high_value"))
		snprintf(buf, len, "%s", o->memory_high_value);
	else if (!strcmp(field, "cpu_max_value"))
		snprintf(buf, len, "%s", o->cpu_max_value);
	else if (!strcmp(field, "pids_max_value"))
		snprintf(buf, len, "%s", o->pids_max_value);
	else if (!strcmp(field, "io_weight_value"))
		snprintf(buf, len, "%s", o->io_weight_value);
	else if (!strcmp(field, "trace_backend_kind"))
		snprintf(buf, len, "%d", (int)o->trace_backend_kind);
	else if (!strcmp(field, "fs_kind"))
		snprintf(buf, len, "%s", o->fs_kind == JAIL_FS_BAD_ENV ? "bad-env" :
			 jail_fs_kind_name(o->fs_kind));
	else
		snprintf(buf, len, "no such field %s", field);
}

#define PARSED_CONFIG "parsed.json"

static const struct {
	const char *args[8];	/* before the command; "@" is the jail file */
	const char *field;
	const char *want;
} parsed_rows[] = {
	{ { "--uid-map", "200000:65536" }, "uid_ids", "200000:65536" },
	{ { "--uid-map", "300000" }, "uid_ids", "300000:1" },
	{ { "--gid-map", "300000:10" }, "gid_ids", "300000:10" },
	{ { "--uid-map", "5:1", "--uid-map", "7:2" }, "uid_ids", "7:2" },	/* the last */
	{ { "--veth", "vh0" }, "veth_names", "vh0 eth0" },
	{ { "--veth", "vh0:vj0" }, "veth_names", "vh0 vj0" },
	{ { "--veth", "vh0", "--host-addr", "10.0.0.1/30" }, "host_ip", "10.0.0.1/30" },
	{ { "--veth", "vh0", "--jail-addr", "fd00::2/64" }, "jail_ip", "fd00::2/64" },
	{ { "--veth", "vh0", "--jail-addr", "10.0.0.2/30", "--gateway", "10.0.0.1" },
	  "gateway_ip", "10.0.0.1" },
	{ { "--veth", "vh0" }, "host_ip", "-" },	/* not given: family 0 */
	{ { "--memory-max", "16M" }, "memory_max_value", "16777216" },
	{ { "--memory-high", "max" }, "memory_high_value", "max" },
	{ { "--cpu-max", "50%" }, "cpu_max_value", "50000 100000" },
	{ { "--pids-max", "64" }, "pids_max_value", "64" },
	{ { "--io-weight", "200" }, "io_weight_value", "default 200" },
	{ { "--trace", "/tmp/p.json", "--trace-backend", "ptrace" }, "trace_backend_kind", "2" },
	{ { "--trace", "/tmp/p.json", "--trace-backend", "ebpf" }, "trace_backend_kind", "1" },
	{ { "-n", "x" }, "fs_kind", "auto" },		/* not given: auto */
	{ { "--fs", "bind" }, "fs_kind", "bind" },
	{ { "--fs", "jailfs" }, "fs_kind", "jailfs" },
	{ { "--fs", "jailfs", "--fs", "auto" }, "fs_kind", "auto" },	/* the last */
	/* The jail file's values, a number for a limit, and the command line's over them. */
	{ { "--config", "@" }, "uid_ids", "5000:10" },
	{ { "--config", "@" }, "pids_max_value", "20" },
	{ { "--config", "@" }, "host_ip", "10.0.1.1/24" },
	{ { "--config", "@", "--host-addr", "10.0.2.1/24" }, "host_ip", "10.0.2.1/24" },
	{ { "--config", "@", "--pids-max", "max" }, "pids_max_value", "max" },
	{ { "--config", "@" }, "fs_kind", "bind" },
	{ { "--config", "@", "--fs", "jailfs" }, "fs_kind", "jailfs" },
};

static void test_parsed_once(void)
{
	const char *config = write_file(PARSED_CONFIG,
		"{\"uid_map\": \"5000:10\", \"pids_max\": 20, \"veth\": \"vh1\", "
		"\"host_addr\": \"10.0.1.1/24\", \"fs\": \"bind\"}");
	char path[256];

	snprintf(path, sizeof(path), "%s", config);
	for (size_t i = 0; i < sizeof(parsed_rows) / sizeof(parsed_rows[0]); i++) {
		const char *args[16] = { "ujail" };
		char got[128], line[256] = "";
		struct jail_opts o;
		struct result r;
		size_t n = 1;

		for (size_t k = 0; k < 8 && parsed_rows[i].args[k]; k++) {
			const char *a = parsed_rows[i].args[k];

			args[n++] = strcmp(a, "@") ? a : path;
			snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s",
				 k ? " " : "", a);
		}
		args[n++] = "/bin/true";
		r = parse(&o, args);
		render_field(&o, parsed_rows[i].field, got, sizeof(got));
		ok(r.rc == 0 && !strcmp(got, parsed_rows[i].want), "%s: %s = %s (got %s%s%s)", line,
		   parsed_rows[i].field, parsed_rows[i].want, got, r.err && *r.err ? "; " : "",
		   r.err ? r.err : "");
		jail_opts_free(&o);
		result_free(&r);
	}
	unlink(path);
}

/* parse() with $UJAIL_FS set to @env; @o then holds what it gave. */
static struct result parse_env(struct jail_opts *o, const char *env, const char **args)
{
	struct result r;

	setenv("UJAIL_FS", env, 1);
	r = parse(o, args);
	unsetenv("UJAIL_FS");
	return r;
}

/* --fs and $UJAIL_FS: one typed field; a bad $UJAIL_FS is refused at set-up. */
static void test_fs(void)
{
	const char *file = write_file("fs.json", "{\"fs\": \"bind\"}");
	struct jail_opts o;
	struct result r;

	r = parse_env(&o, "jailfs", ARGS("/bin/true"));
	ok(r.rc == 0 && o.fs_kind == JAIL_FS_JAILFS && !o.fs && str_eq(o.fs_env, "jailfs"),
	   "UJAIL_FS=jailfs without --fs: jailfs, and no --fs given");
	jail_opts_free(&o);
	result_free(&r);
	r = parse_env(&o, "jailfs", ARGS("--fs", "bind", "/bin/true"));
	ok(r.rc == 0 && o.fs_kind == JAIL_FS_BIND && !o.fs_env, "--fs wins over UJAIL_FS");
	jail_opts_free(&o);
	result_free(&r);
	r = parse_env(&o, "jailfs", ARGS("--config", file, "/bin/true"));
	ok(r.rc == 0 && o.fs_kind == JAIL_FS_BIND && !o.fs_env,
	   "the jail file's fs wins over UJAIL_FS");
	jail_opts_free(&o);
	result_free(&r);
	r = parse_env(&o, "nfs", ARGS("/bin/true"));
	ok(r.rc == 0 && o.fs_kind == JAIL_FS_BAD_ENV && str_eq(o.fs_env, "nfs") && !*r.err,
	   "UJAIL_FS=nfs: kept for the set-up to refuse, no option error");
	jail_opts_free(&o);
	result_free(&r);
	r = parse_env(&o, "", ARGS("/bin/true"));
	ok(r.rc == 0 && o.fs_kind == JAIL_FS_BAD_ENV, "UJAIL_FS empty: bad too");
	jail_opts_free(&o);
	result_free(&r);
	r = parse_env(&o, "nfs", ARGS("--join", "www", "/bin/true"));
	ok(r.rc == 0, "--join: UJAIL_FS=nfs does not matter");
	jail_opts_free(&o);
	result_free(&r);
	unlink(file);
	expect_error(ARGS("--fs", "nfs", "/bin/true"),
		     "ujail: --fs 'nfs': must be jailfs, bind or auto");
	expect_config_error("{\"fs\": \"nfs\"}", "fs: must be jailfs, bind or auto");
}

int main(void)
{
	/* The rows below are about the options; test_fs() sets it itself. */
	unsetenv("UJAIL_FS");
	if (!mkdtemp(tmpdir)) {
		printf("Bail out! mkdtemp: %m\n");
		return 1;
	}
	test_procd_argv();
	test_long_options();
	test_defaults_and_command();
	test_paths();
	test_errors();
	test_userns();
	test_refused();
	test_help_version();
	test_config_good();
	test_config_bad();
	test_veth();
	test_cgroup_limits();
	test_join();
	test_parsed_once();
	test_fs();
	unlink(write_file("bad.json", ""));
	unlink(write_file("good.json", ""));
	rmdir(tmpdir);
	return tap_done();
}
