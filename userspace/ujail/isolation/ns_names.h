/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Namespace names: those of /proc/PID/ns/ and, as procd accepts them for
 * -j, the OCI ones ("network", "mount"). One table for the options (-j)
 * and for a --join member (exec/join.c).
 */
#ifndef UJAIL_NS_NAMES_H
#define UJAIL_NS_NAMES_H

#include "isolation/clone_flags.h"

/* The CLONE_NEW* flag of @name (either form), or 0. */
unsigned int jail_ns_flag(const char *name);

/* The /proc/PID/ns/ name of @flag (one CLONE_NEW* flag), or "?". */
const char *jail_ns_name(unsigned int flag);

#endif
