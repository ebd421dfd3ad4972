/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Optional parts loaded only when used (scripts/install.mk): the eBPF
 * counter (utrace-ebpf.so, libbpf) and --veth (ujail-veth.so, libnl), so
 * that their libraries weigh neither on the installed programs' size nor
 * on every start. They live beside libujail-seccomp.so.0, in lib/ujail/.
 * The static builds link those parts in instead and never load one.
 */
#ifndef UJS_PLUGIN_H
#define UJS_PLUGIN_H

#include <stddef.h>

/*
 * The address of @sym in plugin @file (a name in lib/ujail/), loaded once
 * and kept; NULL with @err naming the file's path and why.
 */
const void *ujs_plugin_load(const char *file, const char *sym, char *err, size_t errlen);

#endif
