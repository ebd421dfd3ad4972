/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running named jails, for --join: a jail started with -n NAME (and a pid
 * namespace of its own) has a record RUNDIR/NAME@PID, PID being the outer
 * ujail's (it stays the jail's watcher, so procd and ps show it), RUNDIR
 * $UJAIL_RUNDIR or /var/run/ujail. It holds three lines: the host pid of
 * the jail's PID 1, the jail's cgroup directory (empty: none), and PID 1's
 * identity: its start time (field 22 of /proc/PID/stat) and the inode of
 * its pid namespace, which nobody can choose, so a process that got the
 * pid later (whatever its command line says) is not taken for the jail.
 * A name is a label, as for procd: jails of the same name run side by side.
 *
 * The record is held by an exclusive flock() for as long as the jail
 * runs: the outer ujail takes it before anything starts and hands it to
 * ujail-keeper watch, which removes the record when the jail has ended,
 * before it reaps PID 1: while the record exists, its pid is not reused.
 * A lock nobody holds is a jail that is gone (even one SIGKILLed), so a
 * stale record never leads a join astray.
 */
#ifndef UJAIL_REGISTRY_H
#define UJAIL_REGISTRY_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#define JAIL_RUNDIR_DEFAULT "/var/run/ujail"

struct jail_record {
	char path[PATH_MAX];
	int fd;			/* locked; -1: none */
};

/* What tells a process from a later one with the same pid. */
struct jail_pid_identity {
	unsigned long long start_time;	/* clock ticks after boot */
	unsigned long long pidns_ino;	/* its pid namespace (/proc/PID/ns/pid) */
};

struct jail_record_info {
	char name[NAME_MAX + 1];	/* the jail's -n */
	pid_t ujail_pid;	/* the outer ujail's, then its watcher's */
	pid_t init_pid;		/* host pid of the jail's PID 1 */
	struct jail_pid_identity init_id;	/* and who it is */
	char cgroup[PATH_MAX];	/* "": the jail has no cgroup of its own */
};

/* RUNDIR, and mkdir -p of it (0, or -1 with errno). */
const char *jail_rundir(void);
int jail_rundir_make(void);

/*
 * Take a record for @name, this process's (RUNDIR made if missing; stale
 * records of the name removed). -1 with @err if it cannot be made.
 */
int jail_record_claim(const char *name, struct jail_record *rec, char *err, size_t errlen);

/* Write @pid (alive: our child), its identity and @cgroup (NULL: none). */
int jail_record_write(struct jail_record *rec, pid_t pid, const char *cgroup, char *err,
		      size_t errlen);

/*
 * The identity of process @pid, read from /proc (the caller makes sure
 * it was @pid's, e.g. by a pidfd still alive afterwards). 0 or -1.
 */
int jail_pid_identity_read(pid_t pid, struct jail_pid_identity *id);

/* Drop the record (the jail did not start): unlinked, unlocked. */
void jail_record_abandon(struct jail_record *rec);


/*
 * The record of the running jail @which: its name (when exactly one jail
 * of that name runs), NAME@PID, or a pid (of a jail's ujail or of its PID
 * 1). -1 with @err if there is none, or when several jails have that
 * name: @err then lists them with their pids.
 */
int jail_record_read(const char *which, struct jail_record_info *info, char *err,
		     size_t errlen);

#endif
