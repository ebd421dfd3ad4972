/* SPDX-License-Identifier: GPL-2.0 */
/* The probe's kernel-surface subcommands (surface.c). */
#ifndef UJAIL_PROBE_SURFACE_H
#define UJAIL_PROBE_SURFACE_H

/* "ok" or the errno name on stdout, as probe.c's report(); returns 0. */
int probe_report(long ret);

/* Runs subcommand @cmd; -1 when it is not one of surface.c's. */
int surface_probe(const char *cmd, const char *arg);

#endif
