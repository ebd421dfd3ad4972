/* SPDX-License-Identifier: GPL-2.0 */
/* ELF reading with pread and explicit bounds: no mmap, no trust. */
#include <byteswap.h>
#include <elf.h>
#include <endian.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deps/elf_read.h"

/* At most this many bytes of program headers (65536 64-bit entries). */
#define ELF_READ_MAX_PHDRS	(65536u * sizeof(Elf64_Phdr))

struct elf_reader {
	int fd;
	uint64_t size;
	bool swap;		/* file byte order differs from ours */
	bool is64;
	const char *name;
	char *err;
	size_t errlen;
};

/* One program header, in host order whatever the file's class. */
struct elf_seg {
	uint32_t type;
	uint64_t offset, vaddr, filesz;
};

__attribute__((format(printf, 2, 3)))
static int elf_fail(struct elf_reader *r, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(r->err, r->errlen, "%s: %s", r->name, msg);
	return -1;
}

/*
 * A member of an ELF structure (Ehdr, Phdr, Shdr, Dyn): its offset and
 * width in the 32-bit and in the 64-bit layout, so that one piece of code
 * reads either class from the raw bytes.
 */
struct elf_field {
	unsigned char off32, size32, off64, size64;
};

#define ELF_FIELD(t, m) ((struct elf_field){					\
	offsetof(Elf32_##t, m), sizeof(((Elf32_##t *)0)->m),			\
	offsetof(Elf64_##t, m), sizeof(((Elf64_##t *)0)->m) })

/* The size of structure @t in the file's class. */
#define ELF_SIZE(r, t) ((r)->is64 ? sizeof(Elf64_##t) : sizeof(Elf32_##t))

/* Member @m of the raw structure @t at @raw, in host order. */
#define ELF_GET(r, raw, t, m) field_value(r, raw, ELF_FIELD(t, m))

static uint64_t field_value(const struct elf_reader *r, const void *raw, struct elf_field f)
{
	const unsigned char *p = (const unsigned char *)raw + (r->is64 ? f.off64 : f.off32);
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (r->is64 ? f.size64 : f.size32) {
	case 2:
		memcpy(&v16, p, sizeof(v16));
		return r->swap ? bswap_16(v16) : v16;
	case 4:
		memcpy(&v32, p, sizeof(v32));
		return r->swap ? bswap_32(v32) : v32;
	default:
		memcpy(&v64, p, sizeof(v64));
		return r->swap ? bswap_64(v64) : v64;
	}
}

/* True when [off, off + len) lies inside the file. */
static bool in_file(const struct elf_reader *r, uint64_t off, uint64_t len)
{
	return off <= r->size && len <= r->size - off;
}

/* Reads exactly @len bytes at @off, which must lie inside the file. */
static int read_at(struct elf_reader *r, void *buf, size_t len, uint64_t off, const char *what)
{
	size_t got = 0;

	if (!in_file(r, off, len))
		return elf_fail(r, "%s out of file bounds", what);
	while (got < len) {
		ssize_t n = pread(r->fd, (char *)buf + got, len - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return elf_fail(r, "reading %s: %s", what, strerror(errno));
		if (n == 0)
			return elf_fail(r, "%s: file shrank while read", what);
		got += (size_t)n;
	}
	return 0;
}

/* The file's class and byte order, as elf_read_header found them. */
static void reader_layout(struct elf_reader *r, const struct elf_info *info)
{
	r->is64 = info->class == ELFCLASS64;
	r->swap = (info->data == ELFDATA2LSB) != (__BYTE_ORDER == __LITTLE_ENDIAN);
}

bool elf_has_magic(const void *buf, size_t len)
{
	return len >= SELFMAG && memcmp(buf, ELFMAG, SELFMAG) == 0;
}

static int check_ident(struct elf_reader *r, const unsigned char *ident, struct elf_info *info)
{
	if (!elf_has_magic(ident, EI_NIDENT))
		return elf_fail(r, "not an ELF file");
	if (ident[EI_CLASS] != ELFCLASS32 && ident[EI_CLASS] != ELFCLASS64)
		return elf_fail(r, "unknown ELF class %u", ident[EI_CLASS]);
	if (ident[EI_DATA] != ELFDATA2LSB && ident[EI_DATA] != ELFDATA2MSB)
		return elf_fail(r, "unknown ELF byte order %u", ident[EI_DATA]);
	if (ident[EI_VERSION] != EV_CURRENT)
		return elf_fail(r, "unknown ELF version %u", ident[EI_VERSION]);
	info->class = ident[EI_CLASS];
	info->data = ident[EI_DATA];
	reader_layout(r, info);
	return 0;
}

/* The real program header count when e_phnum is PN_XNUM: sh_info of section 0. */
static int read_xnum(struct elf_reader *r, uint64_t shoff, uint16_t shentsize, uint32_t *phnum)
{
	unsigned char sh[sizeof(Elf64_Shdr)];

	if (shentsize != ELF_SIZE(r, Shdr))
		return elf_fail(r, "bad section header size %u", shentsize);
	if (read_at(r, sh, shentsize, shoff, "section header 0") < 0)
		return -1;
	*phnum = (uint32_t)ELF_GET(r, sh, Shdr, sh_info);
	return 0;
}

int elf_read_header(int fd, const char *name, struct elf_info *info, char *err, size_t errlen)
{
	struct stat st;

	if (fstat(fd, &st) < 0) {
		memset(info, 0, sizeof(*info));
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		return -1;
	}
	return elf_read_header_sized(fd, (uint64_t)st.st_size, name, info, err, errlen);
}

int elf_read_header_sized(int fd, uint64_t size, const char *name, struct elf_info *info,
			  char *err, size_t errlen)
{
	struct elf_reader r = { .fd = fd, .size = size, .name = name, .err = err,
				.errlen = errlen };
	unsigned char eh[sizeof(Elf64_Ehdr)];
	uint64_t shoff, got;
	uint16_t phentsize, phnum, shentsize;

	memset(info, 0, sizeof(*info));
	info->file_size = r.size;
	/* One read of as much of the largest header as the file has. */
	got = r.size < sizeof(eh) ? r.size : sizeof(eh);
	if (read_at(&r, eh, (size_t)got, 0, "ELF header") < 0)
		return -1;
	/* "Not ELF" first: a short text file is not a truncated ELF file. */
	if (!elf_has_magic(eh, (size_t)got))
		return elf_fail(&r, "not an ELF file");
	if (got < EI_NIDENT)
		return elf_fail(&r, "truncated ELF header");
	if (check_ident(&r, eh, info) < 0)
		return -1;
	if (got < ELF_SIZE(&r, Ehdr))
		return elf_fail(&r, "truncated ELF header");
	info->type = (uint16_t)ELF_GET(&r, eh, Ehdr, e_type);
	info->machine = (uint16_t)ELF_GET(&r, eh, Ehdr, e_machine);
	info->flags = (uint32_t)ELF_GET(&r, eh, Ehdr, e_flags);
	info->phoff = ELF_GET(&r, eh, Ehdr, e_phoff);
	phentsize = (uint16_t)ELF_GET(&r, eh, Ehdr, e_phentsize);
	phnum = (uint16_t)ELF_GET(&r, eh, Ehdr, e_phnum);
	shoff = ELF_GET(&r, eh, Ehdr, e_shoff);
	shentsize = (uint16_t)ELF_GET(&r, eh, Ehdr, e_shentsize);
	info->phnum = phnum;
	if (phnum == PN_XNUM && read_xnum(&r, shoff, shentsize, &info->phnum) < 0)
		return -1;
	if (info->phnum == 0)
		return 0;
	if (phentsize != ELF_SIZE(&r, Phdr))
		return elf_fail(&r, "bad program header size %u", phentsize);
	if ((uint64_t)info->phnum * phentsize > ELF_READ_MAX_PHDRS)
		return elf_fail(&r, "too many program headers (%u)", info->phnum);
	if (!in_file(&r, info->phoff, (uint64_t)info->phnum * phentsize))
		return elf_fail(&r, "program header table out of file bounds");
	return 0;
}

static void seg_from_raw(const struct elf_reader *r, const void *raw, struct elf_seg *seg)
{
	seg->type = (uint32_t)ELF_GET(r, raw, Phdr, p_type);
	seg->offset = ELF_GET(r, raw, Phdr, p_offset);
	seg->vaddr = ELF_GET(r, raw, Phdr, p_vaddr);
	seg->filesz = ELF_GET(r, raw, Phdr, p_filesz);
}

static int read_segments(struct elf_reader *r, const struct elf_info *info, struct elf_seg **segs)
{
	size_t entsize = ELF_SIZE(r, Phdr), len = (size_t)info->phnum * entsize;
	unsigned char *raw;

	*segs = NULL;
	if (info->phnum == 0)
		return 0;
	raw = malloc(len);
	*segs = calloc(info->phnum, sizeof(**segs));
	if (!raw || !*segs) {
		elf_fail(r, "out of memory");
		goto fail;
	}
	if (read_at(r, raw, len, info->phoff, "program header table") < 0)
		goto fail;
	for (uint32_t i = 0; i < info->phnum; i++)
		seg_from_raw(r, raw + i * entsize, &(*segs)[i]);
	free(raw);
	return 0;
fail:
	free(raw);
	free(*segs);
	*segs = NULL;
	return -1;
}

/* Like the kernel: 2..PATH_MAX bytes, NUL-terminated, and absolute here. */
static int read_interp(struct elf_reader *r, const struct elf_seg *seg, struct elf_info *info)
{
	char buf[PATH_MAX];

	if (seg->filesz < 2 || seg->filesz > sizeof(buf))
		return elf_fail(r, "bad PT_INTERP size %llu", (unsigned long long)seg->filesz);
	if (read_at(r, buf, seg->filesz, seg->offset, "PT_INTERP") < 0)
		return -1;
	if (buf[seg->filesz - 1] != '\0')
		return elf_fail(r, "PT_INTERP is not NUL-terminated");
	if (buf[0] != '/')
		return elf_fail(r, "PT_INTERP \"%s\" is not an absolute path", buf);
	info->interp = strdup(buf);
	if (!info->interp)
		return elf_fail(r, "out of memory");
	return 0;
}

/* Where the dynamic string table is in the file, and how long. */
struct elf_strtab {
	uint64_t offset, size;
};

/* Maps the DT_STRTAB address to a file range through the PT_LOAD covering it. */
static int locate_strtab(struct elf_reader *r, const struct elf_seg *segs, uint32_t nsegs,
			 uint64_t vaddr, uint64_t strsz, struct elf_strtab *tab)
{
	for (uint32_t i = 0; i < nsegs; i++) {
		const struct elf_seg *s = &segs[i];
		uint64_t skip, avail;

		if (s->type != PT_LOAD || vaddr < s->vaddr || vaddr - s->vaddr >= s->filesz)
			continue;
		skip = vaddr - s->vaddr;
		if (s->offset > UINT64_MAX - skip || !in_file(r, s->offset + skip, 1))
			break;
		tab->offset = s->offset + skip;
		avail = s->filesz - skip;
		if (avail > r->size - tab->offset)
			avail = r->size - tab->offset;
		tab->size = strsz < avail ? strsz : avail;
		return 0;
	}
	return elf_fail(r, "DT_STRTAB 0x%llx is not in the file", (unsigned long long)vaddr);
}

/* A NUL-terminated string at @off of the string table, copied. */
static int read_dynstr(struct elf_reader *r, const struct elf_strtab *tab, uint64_t off,
		       const char *what, char **out)
{
	char buf[ELF_READ_MAX_STRING];
	uint64_t len;
	char *nul;

	if (off >= tab->size)
		return elf_fail(r, "%s string offset %llu outside DT_STRSZ", what,
				(unsigned long long)off);
	len = tab->size - off;
	if (len > sizeof(buf))
		len = sizeof(buf);
	if (read_at(r, buf, len, tab->offset + off, what) < 0)
		return -1;
	nul = memchr(buf, '\0', len);
	if (!nul)
		return elf_fail(r, "%s string is not terminated within %llu bytes", what,
				(unsigned long long)len);
	if (nul == buf)
		return elf_fail(r, "empty %s string", what);
	*out = strdup(buf);
	if (!*out)
		return elf_fail(r, "out of memory");
	return 0;
}

/* The dynamic tags we use, before their strings are read. */
struct dyn_tags {
	uint64_t strtab, strsz, soname, rpath, runpath;
	bool has_strtab, has_strsz, has_soname, has_rpath, has_runpath;
	uint64_t *needed;
	size_t n_needed;
};

static void dyn_tag(uint64_t tag, uint64_t val, struct dyn_tags *t, struct elf_info *info)
{
	switch (tag) {
	case DT_NEEDED:
		t->needed[t->n_needed++] = val;
		break;
	case DT_STRTAB:
		t->strtab = val;
		t->has_strtab = true;
		break;
	case DT_STRSZ:
		t->strsz = val;
		t->has_strsz = true;
		break;
	case DT_SONAME:
		t->soname = val;
		t->has_soname = true;
		break;
	case DT_RPATH:
		t->rpath = val;
		t->has_rpath = true;
		break;
	case DT_RUNPATH:
		t->runpath = val;
		t->has_runpath = true;
		break;
	case DT_FLAGS_1:
		info->nodeflib = val & DF_1_NODEFLIB;
		break;
	}
}

static int scan_dynamic(struct elf_reader *r, const struct elf_seg *dyn, struct dyn_tags *t,
			struct elf_info *info)
{
	size_t entsize = ELF_SIZE(r, Dyn);
	size_t count = (size_t)(dyn->filesz / entsize);
	unsigned char *raw;

	if (dyn->filesz > ELF_READ_MAX_DYNAMIC)
		return elf_fail(r, "PT_DYNAMIC too large (%llu bytes)",
				(unsigned long long)dyn->filesz);
	raw = malloc(count * entsize + 1);
	t->needed = calloc(count + 1, sizeof(*t->needed));
	if (!raw || !t->needed) {
		free(raw);
		return elf_fail(r, "out of memory");
	}
	if (read_at(r, raw, count * entsize, dyn->offset, "PT_DYNAMIC") < 0) {
		free(raw);
		return -1;
	}
	for (size_t i = 0; i < count; i++) {
		const unsigned char *d = raw + i * entsize;
		uint64_t tag = ELF_GET(r, d, Dyn, d_tag);
		uint64_t val = ELF_GET(r, d, Dyn, d_un.d_val);

		if (tag == DT_NULL)
			break;
		dyn_tag(tag, val, t, info);
	}
	free(raw);
	return 0;
}

static int read_dyn_strings(struct elf_reader *r, const struct dyn_tags *t,
			    const struct elf_strtab *tab, struct elf_info *info)
{
	if (t->has_soname && read_dynstr(r, tab, t->soname, "DT_SONAME", &info->soname) < 0)
		return -1;
	if (t->has_rpath && read_dynstr(r, tab, t->rpath, "DT_RPATH", &info->rpath) < 0)
		return -1;
	if (t->has_runpath && read_dynstr(r, tab, t->runpath, "DT_RUNPATH", &info->runpath) < 0)
		return -1;
	if (t->n_needed == 0)
		return 0;
	info->needed = calloc(t->n_needed, sizeof(*info->needed));
	if (!info->needed)
		return elf_fail(r, "out of memory");
	for (size_t i = 0; i < t->n_needed; i++) {
		if (read_dynstr(r, tab, t->needed[i], "DT_NEEDED", &info->needed[i]) < 0)
			return -1;
		info->n_needed++;
	}
	return 0;
}

static int read_dynamic(struct elf_reader *r, const struct elf_seg *segs, uint32_t nsegs,
			const struct elf_seg *dyn, struct elf_info *info)
{
	struct dyn_tags t = { 0 };
	struct elf_strtab tab = { 0 };
	int ret = -1;

	info->has_dynamic = true;
	if (scan_dynamic(r, dyn, &t, info) < 0)
		goto out;
	if (!t.has_strtab && (t.n_needed || t.has_soname || t.has_rpath || t.has_runpath)) {
		elf_fail(r, "dynamic strings without DT_STRTAB");
		goto out;
	}
	if (t.has_strtab) {
		if (!t.has_strsz) {
			elf_fail(r, "DT_STRTAB without DT_STRSZ");
			goto out;
		}
		if (locate_strtab(r, segs, nsegs, t.strtab, t.strsz, &tab) < 0)
			goto out;
		if (read_dyn_strings(r, &t, &tab, info) < 0)
			goto out;
	}
	ret = 0;
out:
	free(t.needed);
	return ret;
}

int elf_read_dynamic(int fd, const char *name, struct elf_info *info, char *err, size_t errlen)
{
	struct elf_reader r = { .fd = fd, .size = info->file_size, .name = name, .err = err,
				.errlen = errlen };
	const struct elf_seg *interp = NULL, *dyn = NULL;
	struct elf_seg *segs;
	int ret = -1;

	reader_layout(&r, info);
	if (read_segments(&r, info, &segs) < 0)
		return -1;
	/* The first of each, as the kernel and the loaders take. */
	for (uint32_t i = 0; segs && i < info->phnum; i++) {
		if (segs[i].type == PT_INTERP && !interp)
			interp = &segs[i];
		if (segs[i].type == PT_DYNAMIC && !dyn)
			dyn = &segs[i];
	}
	if (interp && read_interp(&r, interp, info) < 0)
		goto out;
	if (dyn && read_dynamic(&r, segs, info->phnum, dyn, info) < 0)
		goto out;
	ret = 0;
out:
	free(segs);
	return ret;
}

void elf_info_free(struct elf_info *info)
{
	free(info->interp);
	free(info->soname);
	free(info->rpath);
	free(info->runpath);
	for (size_t i = 0; i < info->n_needed; i++)
		free(info->needed[i]);
	free(info->needed);
	memset(info, 0, sizeof(*info));
}
