/* SPDX-License-Identifier: GPL-2.0 */
/* The -r/-w paths of a jail's plan; see plan_paths.c. */
#ifndef UJAIL_PLAN_PATHS_H
#define UJAIL_PLAN_PATHS_H

struct jail_plan;

/*
 * Fills @p->paths with the -r/-w paths the host has (the others are
 * skipped, with a line at -d 1) and adds to @p->deps the interpreter and
 * libraries of each ELF program or #! script among them. 0, or -1 when
 * out of memory.
 */
int jail_plan_paths(struct jail_plan *p);

#endif
