/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ld.so.cache layout (glibc's on-disk ABI):
 *   header: "glibc-ld.so.cache" "1.1", u32 nlibs, u32 len_strings,
 *           u8 flags (bits 0-1: 2 little, 3 big endian), 3 pad,
 *           u32 extension_offset, 3 x u32 unused           (48 bytes)
 *   entries: i32 flags, u32 key, u32 value, u32 osversion, u64 hwcap
 *   key/value: offsets of NUL-terminated strings from the header.
 * Older caches put "ld.so-1.7.0", u32 nlibs and 12-byte entries first.
 */
#include <byteswap.h>
#include <endian.h>
#include <errno.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deps/ld_cache.h"

#define CACHE_MAGIC_OLD		"ld.so-1.7.0"
#define CACHE_MAGIC_NEW		"glibc-ld.so.cache1.1"
#define CACHE_OLD_HEADER	16u
#define CACHE_OLD_ENTRY		12u
#define CACHE_NEW_HEADER	48u
#define CACHE_NEW_ENTRY		24u

#define FLAG_ELF		0x0001
#define FLAG_ELF_LIBC6		0x0003
#define FLAG_TYPE_MASK		0x00ff
#define FLAG_X8664_LIB64	0x0300
#define FLAG_S390_LIB64		0x0400
#define FLAG_POWERPC_LIB64	0x0500
#define FLAG_X8664_LIBX32	0x0800
#define FLAG_ARM_LIBHF		0x0900
#define FLAG_AARCH64_LIB64	0x0a00
#define FLAG_ARM_LIBSF		0x0b00
#define FLAG_RISCV_SOFT		0x0f00
#define FLAG_RISCV_DOUBLE	0x1000
/* hwcap bit 62: the entry is for a glibc-hwcaps subdirectory. */
#define HWCAP_EXTENSION		(1ull << 62)

#ifndef EF_ARM_ABI_FLOAT_HARD
#define EF_ARM_ABI_FLOAT_HARD	0x400
#endif
#ifndef EF_RISCV_FLOAT_ABI_DOUBLE
#define EF_RISCV_FLOAT_ABI_DOUBLE 0x4
#endif
#define EF_RISCV_FLOAT_ABI_MASK	0x6

static uint32_t c32(const struct ld_cache *c, size_t off)
{
	uint32_t v;

	memcpy(&v, c->data + off, sizeof(v));
	return c->swap ? bswap_32(v) : v;
}

static uint64_t c64(const struct ld_cache *c, size_t off)
{
	uint64_t v;

	memcpy(&v, c->data + off, sizeof(v));
	return c->swap ? bswap_64(v) : v;
}

static int read_whole(const char *path, const char *name, struct ld_cache *c, char *err,
		      size_t errlen)
{
	struct stat st;
	size_t got = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENOENT)
			return 1;
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > LD_CACHE_MAX_SIZE) {
		snprintf(err, errlen, "%s: not a regular file of at most %u bytes", name,
			 LD_CACHE_MAX_SIZE);
		close(fd);
		return -1;
	}
	c->size = (size_t)st.st_size;
	c->data = malloc(c->size + 1);
	if (!c->data) {
		snprintf(err, errlen, "%s: out of memory", name);
		close(fd);
		return -1;
	}
	while (got < c->size) {
		ssize_t n = read(fd, c->data + got, c->size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	c->size = got;
	return 0;
}

/* Where the new-format header starts: 0, or after the old table. */
static int find_new_header(const struct ld_cache *c, size_t *at)
{
	uint32_t nlibs;
	size_t end;

	if (c->size >= sizeof(CACHE_MAGIC_NEW) - 1 &&
	    !memcmp(c->data, CACHE_MAGIC_NEW, sizeof(CACHE_MAGIC_NEW) - 1)) {
		*at = 0;
		return 0;
	}
	if (c->size < CACHE_OLD_HEADER || memcmp(c->data, CACHE_MAGIC_OLD, sizeof(CACHE_MAGIC_OLD) - 1))
		return -1;
	memcpy(&nlibs, c->data + 12, sizeof(nlibs));
	if (nlibs > (c->size - CACHE_OLD_HEADER) / CACHE_OLD_ENTRY)
		return -1;
	end = CACHE_OLD_HEADER + (size_t)nlibs * CACHE_OLD_ENTRY;
	/* Aligned as glibc's struct cache_file_new: 8 on most, 4 on some ABIs. */
	for (size_t align = 8; align >= 4; align /= 2) {
		size_t off = (end + align - 1) & ~(align - 1);

		if (off <= c->size && c->size - off >= sizeof(CACHE_MAGIC_NEW) - 1 &&
		    !memcmp(c->data + off, CACHE_MAGIC_NEW, sizeof(CACHE_MAGIC_NEW) - 1)) {
			*at = off;
			return 0;
		}
	}
	return -1;
}

static int parse_header(struct ld_cache *c, size_t hdr)
{
	unsigned char order;
	uint32_t n;

	if (c->size - hdr < CACHE_NEW_HEADER)
		return -1;
	order = c->data[hdr + 28] & 3;
	if (order == 1)
		return -1;
	c->swap = order && ((order == 2) != (__BYTE_ORDER == __LITTLE_ENDIAN));
	n = c32(c, hdr + 20);
	if (n > (c->size - hdr - CACHE_NEW_HEADER) / CACHE_NEW_ENTRY)
		return -1;
	c->n = n;
	c->entries = hdr + CACHE_NEW_HEADER;
	c->strbase = hdr;
	return 0;
}

int ld_cache_load(const char *path, const char *name, struct ld_cache *c, char *err,
		  size_t errlen)
{
	size_t hdr;
	int ret;

	memset(c, 0, sizeof(*c));
	ret = read_whole(path, name, c, err, errlen);
	if (ret)
		return ret;
	if (find_new_header(c, &hdr) < 0 || parse_header(c, hdr) < 0) {
		snprintf(err, errlen, "%s: not a glibc-ld.so.cache1.1 file", name);
		ld_cache_free(c);
		return -1;
	}
	return 0;
}

void ld_cache_free(struct ld_cache *c)
{
	free(c->data);
	memset(c, 0, sizeof(*c));
}

void ld_cache_abi(unsigned char elf_class, uint16_t machine, uint32_t e_flags,
		  struct ld_cache_abi *abi)
{
	bool is64 = elf_class == ELFCLASS64;
	int32_t req = -1;

	abi->plain_ok = false;
	abi->any = false;
	switch (machine) {
	case EM_X86_64:
		req = is64 ? FLAG_X8664_LIB64 : FLAG_X8664_LIBX32;
		break;
	case EM_386:
		req = 0;
		abi->plain_ok = true;
		break;
	case EM_AARCH64:
		req = is64 ? FLAG_AARCH64_LIB64 : -1;
		break;
	case EM_ARM:
		req = e_flags & EF_ARM_ABI_FLOAT_HARD ? FLAG_ARM_LIBHF : FLAG_ARM_LIBSF;
		abi->plain_ok = true;
		break;
	case EM_S390:
		req = is64 ? FLAG_S390_LIB64 : 0;
		abi->plain_ok = !is64;
		break;
	case EM_PPC64:
		req = FLAG_POWERPC_LIB64;
		break;
	case EM_PPC:
		req = 0;
		abi->plain_ok = true;
		break;
	case EM_RISCV:
		if (is64)
			req = (e_flags & EF_RISCV_FLOAT_ABI_MASK) == EF_RISCV_FLOAT_ABI_DOUBLE ?
				FLAG_RISCV_DOUBLE : FLAG_RISCV_SOFT;
		break;
	}
	abi->any = req < 0;
	abi->flags = FLAG_ELF_LIBC6 | (req < 0 ? 0 : req);
}

static bool abi_accepts(const struct ld_cache_abi *abi, int32_t flags)
{
	if (abi->any)
		return (flags & FLAG_TYPE_MASK) == FLAG_ELF_LIBC6;
	if (flags == abi->flags)
		return true;
	return abi->plain_ok && (flags == FLAG_ELF_LIBC6 || flags == FLAG_ELF);
}

/* The string at offset @off from the header, if it is inside the file and terminated. */
static const char *cache_string(const struct ld_cache *c, uint32_t off)
{
	size_t at = c->strbase + off;

	if (off >= c->size - c->strbase || !memchr(c->data + at, '\0', c->size - at))
		return NULL;
	return (const char *)c->data + at;
}

const char *ld_cache_next(const struct ld_cache *c, const char *soname,
			  const struct ld_cache_abi *abi, size_t *pos)
{
	for (; *pos < c->n; (*pos)++) {
		size_t e = c->entries + *pos * CACHE_NEW_ENTRY;
		const char *key = cache_string(c, c32(c, e + 4));
		const char *value = cache_string(c, c32(c, e + 8));

		if (!key || !value || strcmp(key, soname))
			continue;
		if (!abi_accepts(abi, (int32_t)c32(c, e)) || (c64(c, e + 16) & HWCAP_EXTENSION))
			continue;
		(*pos)++;
		return value;
	}
	return NULL;
}
