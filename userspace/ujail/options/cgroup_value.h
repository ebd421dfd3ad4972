/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The values of ujail's cgroup options, checked and turned into what the
 * cgroup v2 files take. Pure string work: the option table converts each
 * value once into struct jail_opts, which cgroup.c writes as it is.
 */
#ifndef UJAIL_CGROUP_VALUE_H
#define UJAIL_CGROUP_VALUE_H

#include <stddef.h>

/* Room for any converted value ("17179869184 1000000", "default 10000"). */
#define CGROUP_VALUE_MAX 48

/*
 * Convert @value into @out (CGROUP_VALUE_MAX); NULL, or why @value is
 * unacceptable (@out is then undefined).
 *   memory: BYTES[K|M|G|T] (powers of 1024) or max   -> memory.max/.high
 *   cpu:    QUOTA[/PERIOD] (µs), max[/PERIOD], or N% of one CPU -> cpu.max
 *   pids:   1..4194304 or max                        -> pids.max
 *   io:     1..10000                                  -> io.weight
 */
const char *cgroup_value_memory(const char *value, char *out);
const char *cgroup_value_cpu(const char *value, char *out);
const char *cgroup_value_pids(const char *value, char *out);
const char *cgroup_value_io_weight(const char *value, char *out);

/* --cgroup-parent: an absolute path without "." or ".." components. */
const char *cgroup_check_parent(const char *value);

#endif
