/* SPDX-License-Identifier: GPL-2.0 */
/*
 * glibc's /etc/ld.so.cache, read without glibc: the "glibc-ld.so.cache1.1"
 * format (alone, or after the old "ld.so-1.7.0" table), either byte order.
 */
#ifndef UJAIL_LD_CACHE_H
#define UJAIL_LD_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LD_CACHE_MAX_SIZE	(64u << 20)

struct ld_cache {
	unsigned char *data;
	size_t size;
	size_t entries;		/* offset of the first new-format entry */
	uint32_t n;		/* entries */
	size_t strbase;		/* string offsets count from here */
	bool swap;
};

/* Which entries a program of some ELF class/machine may use. */
struct ld_cache_abi {
	int32_t flags;		/* FLAG_ELF_LIBC6 | the machine's "required" bits */
	bool plain_ok;		/* entries without those bits match too (i386, arm) */
	bool any;		/* machine unknown: any libc6 entry, the ELF check decides */
};

/* Loads @path (a host path; @name for messages): 0, 1 when it does not exist, -1 with @err. */
int ld_cache_load(const char *path, const char *name, struct ld_cache *c, char *err,
		  size_t errlen);
void ld_cache_free(struct ld_cache *c);

void ld_cache_abi(unsigned char elf_class, uint16_t machine, uint32_t e_flags,
		  struct ld_cache_abi *abi);

/*
 * The next entry for @soname matching @abi from *@pos on (start at 0): its
 * library path, or NULL. Entries for glibc-hwcaps subdirectories are skipped.
 */
const char *ld_cache_next(const struct ld_cache *c, const char *soname,
			  const struct ld_cache_abi *abi, size_t *pos);

#endif
