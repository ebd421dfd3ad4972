/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The text of jailfs' mount options, parsed with nothing from the kernel
 * but string functions: opts.c builds into the module and, for fuzzing,
 * into a userspace program (tests/fuzz/jailfs_opts_fuzz.c).
 */
#ifndef _JAILFS_OPTS_H
#define _JAILFS_OPTS_H

/* What a mount parameter asks for. */
enum jailfs_kind {
	JAILFS_RO,	/* a host object, read-only */
	JAILFS_RW,	/* a host object, read-write */
	JAILFS_DIR,	/* an empty synthesized directory */
};

#define JAILFS_NR_KINDS 3

/* One entry's value, parsed: both paths normalised, in the caller's buffer. */
struct jailfs_value {
	char *src;		/* SRC of ro/rw, PATH of dir */
	char *dst;		/* DST; src when the value has no ':' */
	/* On error: the part at fault ("source", "destination", "path") or
	 * NULL for the whole value, and what is wrong with it.
	 */
	const char *what;
	const char *why;
};

/* The fsconfig() key of @kind, and the kind of @key (-1: none). */
const char *jailfs_key_name(enum jailfs_kind kind);
int jailfs_key_kind(const char *key);

/*
 * Parse VALUE ("SRC[:DST]", or "PATH" for a dir) into @buf, which holds
 * strlen(value) + 2 bytes. Returns 0, or -EINVAL with v->why set.
 */
int jailfs_parse_value(enum jailfs_kind kind, const char *value, char *buf,
		       struct jailfs_value *v);

/*
 * The next option of mount(2) data "KEY[=VALUE],...", empty ones skipped:
 * the key, with *@value (NULL without a '=') split off in place, or NULL
 * at the end. An entry of mount(2) data ("ro=" or "rw=" with a value) is
 * returned in *@kind; other options get -1 and go the usual way.
 */
char *jailfs_next_option(char **options, char **value, int *kind);

#endif /* _JAILFS_OPTS_H */
