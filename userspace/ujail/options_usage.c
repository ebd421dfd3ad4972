/* SPDX-License-Identifier: GPL-2.0 */
/* --help and --version. */
#include <stdio.h>

#include "options_int.h"

#ifndef UJAIL_VERSION
#define UJAIL_VERSION "0.1"
#endif

static const char usage[] =
"Usage: " PROG " [OPTION]... [--] COMMAND [ARGUMENT]...\n"
"Run COMMAND in a jail. Takes procd's options and makes the namespaces they\n"
"ask for, as procd's ujail: the filesystem options (-r -w -p -s -l -u -D -o\n"
"--fs) give a tmpfs root holding COMMAND, its libraries and the paths staged,\n"
"and a minimal /dev; -h, -N, -f and -F their namespace; any of these new pid,\n"
"ipc and uts namespaces too. -U -G -C -c -S alone keep the host's filesystem\n"
"and change only credentials, capabilities and seccomp policy. No option at\n"
"all: the default jail (an empty root, new mount, pid, ipc, uts namespaces).\n"
"\n"
"The jail:\n"
"  -n, --name NAME          jail name (log lines, --join); a label: jails of\n"
"                           one name run side by side\n"
"  -h, --hostname HOST      hostname in the jail\n"
"  -r, --ro SRC[:DST]       stage host path SRC read-only, at DST (default SRC)\n"
"  -w, --rw SRC[:DST]       stage SRC writable; -r and -w repeat; a SRC the host\n"
"                           lacks is skipped; a program brings its libraries\n"
"  -p, --proc               mount /proc\n"
"  -s, --sys                mount /sys\n"
"  -l, --log                stage /dev/log (syslog)\n"
"  -u, --ubus               stage the ubus socket\n"
"  -D, --udebug             stage the udebug socket (/var/run/udebug.sock)\n"
"                           when the host has one; skipped (-d 1 says so)\n"
"                           when it has none, as procd does\n"
"  -o, --read-only-root     make the jail's root read-only\n"
"      --fs jailfs|bind|auto  stage the root through one jailfs mount or one\n"
"                           bind mount per path; auto (the default) takes\n"
"                           jailfs when the kernel has it (-d 1 says which);\n"
"                           without --fs, $UJAIL_FS gives the choice\n"
"  -N, --net                new network namespace (loopback only)\n"
"      --veth HOST[:JAIL]   and a veth pair to the host: HOST on the host, JAIL\n"
"                           (default eth0) in the jail; implies -N; removed\n"
"                           before ujail returns\n"
"      --host-addr ADDR/LEN  address of HOST (IPv4 or IPv6)\n"
"      --jail-addr ADDR/LEN  address of JAIL\n"
"      --gateway ADDR       the jail's default route, through JAIL\n"
"  -f, --userns             run COMMAND in a user namespace, as its uid and\n"
"                           gid 0: host ids of the jail's range in\n"
"                           /etc/ujail/idranges, else 65534 (or a map)\n"
"      --uid-map ID[:COUNT] jail uids 0..COUNT-1 are host uids ID.. (COUNT 1\n"
"                           by default); implies -f\n"
"      --gid-map ID[:COUNT] the same for gids (default: as --uid-map)\n"
"  -F, --cgroupns           new cgroup namespace\n"
"  -j, --join-ns PID:NS[,NS] join namespaces of process PID instead: pid, net,\n"
"                           mnt, ipc, uts, cgroup, time; repeats\n"
"      --join NAME|PID      run COMMAND as a member of the running jail NAME\n"
"                           (PID: its ujail's pid, when several have NAME)\n"
"                           (-n NAME): in its namespaces, root and cgroup, with\n"
"                           its own -U, -G, -C, -S, -c, -e, -f; the jail ends\n"
"                           when its last member does\n"
"Limits (cgroup v2; the jail gets its own cgroup PARENT/NAME-PID):\n"
"      --cgroup-parent DIR  where jails' cgroups go (default /sys/fs/cgroup/ujail,\n"
"                           made if missing)\n"
"      --memory-max BYTES   memory.max: K, M, G, T suffixes, or max\n"
"      --memory-high BYTES  memory.high: the throttling threshold\n"
"      --cpu-max QUOTA[/PERIOD]  cpu.max, in microseconds (period 100000);\n"
"                           or N% of one CPU, or max\n"
"      --pids-max N         pids.max: at most N processes, or max\n"
"      --io-weight WEIGHT   io.weight, 1-10000 (default 100)\n"
"Privileges:\n"
"  -U, --user USER          run as USER\n"
"  -G, --group GROUP        run with group GROUP\n"
"  -C, --capabilities FILE  capability sets (procd's JSON); a set it does not\n"
"                           name stays as without -C\n"
"      --keep-caps          keep every capability in the bounding set; by\n"
"                           default, without a bounding set in -C, those\n"
"                           that undo a jail are dropped (see ujail(8))\n"
"  -S, --seccomp FILE       seccomp policy (OCI or procd JSON)\n"
"  -c, --no-new-privs       set no_new_privs before COMMAND starts\n"
"      --trace FILE         run COMMAND under utrace's tracer and write the\n"
"                           seccomp policy it needs to FILE when it ends\n"
"      --trace-backend NAME how --trace counts: auto (default: ebpf if it\n"
"                           loads, else ptrace, saying why), ebpf, ptrace\n"
"The process:\n"
"  -e, --keep-env NAME      pass variable NAME from ujail's environment (the\n"
"                           rest is not passed); repeats\n"
"  -t, --timeout SECONDS    SIGKILL the service this long after a SIGTERM\n"
"                           (0-86400, default 5)\n"
"  -P, --pidfile FILE       write the service's pid to FILE\n"
"  -E, --require-jail       fail when the jail cannot be set up (always so)\n"
"  -d, --debug LEVEL        log verbosity, 0-9\n"
"      --config FILE        read settings from a JSON jail file first;\n"
"                           options override or add to them\n"
"      --help               this text\n"
"      --version            ujail's version\n"
"\n"
"Refused with status 2 (not supported yet): -J and -i\n"
"(OCI bundles), -R (external root), -O and -T (overlays), -y (console).\n"
"\n"
"Exit status: the service's; 128+N when a signal N killed it; 1 when the jail\n"
"could not be set up; 2 on a usage error; 127 when COMMAND could not start.\n"
"See ujail(8).\n";

int opt_help(void)
{
	fputs(usage, opt_out_stream());
	return 1;
}

int opt_version(void)
{
	fputs(PROG " " UJAIL_VERSION "\n", opt_out_stream());
	return 1;
}
