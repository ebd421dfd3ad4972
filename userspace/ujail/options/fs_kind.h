/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --fs jailfs|bind|auto, or $UJAIL_FS without it (procd cannot pass
 * --fs): which stage backend builds the jail's root. Pure parsing: the
 * option table parses each value once into struct jail_opts, and
 * root/fs_backend.c reads the field.
 */
#ifndef UJAIL_FS_KIND_H
#define UJAIL_FS_KIND_H

/* What a bad value is told. */
#define JAIL_FS_WORDS "jailfs, bind or auto"

enum jail_fs_kind {
	JAIL_FS_AUTO,		/* jailfs if the kernel has it, else bind (the default) */
	JAIL_FS_BIND,
	JAIL_FS_JAILFS,
	JAIL_FS_BAD_ENV,	/* $UJAIL_FS named none: the jail's set-up fails */
};

/* "jailfs", "bind" or "auto" into @out. NULL, or why not (@out untouched). */
const char *jail_fs_kind_parse(const char *word, enum jail_fs_kind *out);

/* The word of @kind ("jailfs", "bind", "auto"; "?" for JAIL_FS_BAD_ENV). */
const char *jail_fs_kind_name(enum jail_fs_kind kind);

#endif
