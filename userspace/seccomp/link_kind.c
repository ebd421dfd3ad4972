/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a command is linked (ujs_link_kind(), see load.h), from its ELF
 * program headers: static, or dynamic with the glibc or the musl loader,
 * which decides whether and which preload shim can filter it.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errmsg.h"
#include "load.h"

/* Nested "#!" interpreters the kernel follows (BINPRM_MAX_RECURSION). */
#define MAX_SCRIPT_DEPTH 4

static uint16_t native_machine(void)
{
#if defined(__x86_64__)
	return EM_X86_64;
#elif defined(__i386__)
	return EM_386;
#elif defined(__aarch64__)
	return EM_AARCH64;
#elif defined(__arm__)
	return EM_ARM;
#elif defined(__mips__)
	return EM_MIPS;
#elif defined(__riscv)
	return EM_RISCV;
#else
#error "ujail-seccomp: no ELF machine for this architecture"
#endif
}

static unsigned char native_class(void)
{
	return sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32;
}

static unsigned char native_data(void)
{
	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;
}

/* The ELF header fields we need, from either class. */
struct elf_info {
	unsigned char class, data;
	uint16_t machine;
	uint64_t phoff;
	uint16_t phentsize, phnum;
};

static int read_at(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = pread(fd, buf, len, off);

	return n == (ssize_t)len ? 0 : -1;
}

static int elf_header(int fd, const char *path, struct elf_info *info,
		      char *err, size_t errlen)
{
	union {
		Elf32_Ehdr e32;
		Elf64_Ehdr e64;
	} h;

	if (read_at(fd, &h, sizeof(h.e32), 0) ||
	    memcmp(h.e32.e_ident, ELFMAG, SELFMAG) != 0)
		return ujs_fail(err, errlen, "%s: not an ELF program nor a #! script", path);
	info->class = h.e32.e_ident[EI_CLASS];
	info->data = h.e32.e_ident[EI_DATA];
	if (info->class == ELFCLASS32) {
		info->machine = h.e32.e_machine;
		info->phoff = h.e32.e_phoff;
		info->phentsize = h.e32.e_phentsize;
		info->phnum = h.e32.e_phnum;
		return info->phentsize == sizeof(Elf32_Phdr) ? 0 :
		       ujs_fail(err, errlen, "%s: bad ELF program header size", path);
	}
	if (info->class != ELFCLASS64 || read_at(fd, &h, sizeof(h.e64), 0))
		return ujs_fail(err, errlen, "%s: bad ELF header", path);
	info->machine = h.e64.e_machine;
	info->phoff = h.e64.e_phoff;
	info->phentsize = h.e64.e_phentsize;
	info->phnum = h.e64.e_phnum;
	return info->phentsize == sizeof(Elf64_Phdr) ? 0 :
	       ujs_fail(err, errlen, "%s: bad ELF program header size", path);
}

struct segment {
	uint32_t type;
	uint64_t offset, vaddr, filesz;
};

static int elf_segment(int fd, const struct elf_info *info, uint16_t i,
		       struct segment *seg)
{
	off_t at = (off_t)(info->phoff + (uint64_t)i * info->phentsize);
	union {
		Elf32_Phdr p32;
		Elf64_Phdr p64;
	} ph;

	if (read_at(fd, &ph, info->phentsize, at))
		return -1;
	if (info->class == ELFCLASS32) {
		*seg = (struct segment){ ph.p32.p_type, ph.p32.p_offset,
					 ph.p32.p_vaddr, ph.p32.p_filesz };
	} else {
		*seg = (struct segment){ ph.p64.p_type, ph.p64.p_offset,
					 ph.p64.p_vaddr, ph.p64.p_filesz };
	}
	return 0;
}

/* The first segment of @type; 1 if none, -1 on a read error. */
static int find_segment(int fd, const struct elf_info *info, uint32_t type,
			struct segment *seg)
{
	for (uint16_t i = 0; i < info->phnum; i++) {
		if (elf_segment(fd, info, i, seg))
			return -1;
		if (seg->type == type)
			return 0;
	}
	return 1;
}

/* PT_INTERP into @interp ("" if none). */
static int elf_interp(int fd, const char *path, const struct elf_info *info,
		      char *interp, size_t len, char *err, size_t errlen)
{
	struct segment seg;
	int found = find_segment(fd, info, PT_INTERP, &seg);

	interp[0] = '\0';
	if (found < 0)
		return ujs_fail(err, errlen, "%s: truncated ELF program headers", path);
	if (found > 0)
		return 0;
	if (seg.filesz == 0 || seg.filesz >= len ||
	    read_at(fd, interp, seg.filesz, (off_t)seg.offset))
		return ujs_fail(err, errlen, "%s: bad PT_INTERP", path);
	interp[seg.filesz] = '\0';
	return 0;
}

/* File offset of the virtual address @vaddr, through the PT_LOAD segments. */
static int vaddr_offset(int fd, const struct elf_info *info, uint64_t vaddr,
			uint64_t *offset)
{
	struct segment seg;

	for (uint16_t i = 0; i < info->phnum; i++) {
		if (elf_segment(fd, info, i, &seg))
			return -1;
		if (seg.type == PT_LOAD && vaddr >= seg.vaddr &&
		    vaddr < seg.vaddr + seg.filesz) {
			*offset = vaddr - seg.vaddr + seg.offset;
			return 0;
		}
	}
	return -1;
}

/* DT_STRTAB and DT_STRSZ of a native-class program. */
static int dynamic_strtab(int fd, const struct elf_info *info, uint64_t *off,
			  uint64_t *size)
{
	ElfW(Dyn) dyn;
	struct segment seg;
	uint64_t addr = 0;

	*size = 0;
	if (find_segment(fd, info, PT_DYNAMIC, &seg))
		return -1;
	for (uint64_t at = 0; at + sizeof(dyn) <= seg.filesz; at += sizeof(dyn)) {
		if (read_at(fd, &dyn, sizeof(dyn), (off_t)(seg.offset + at)) ||
		    dyn.d_tag == DT_NULL)
			break;
		if (dyn.d_tag == DT_STRTAB)
			addr = dyn.d_un.d_ptr;
		else if (dyn.d_tag == DT_STRSZ)
			*size = dyn.d_un.d_val;
	}
	if (!addr || !*size || *size > (64U << 20))
		return -1;
	return vaddr_offset(fd, info, addr, off);
}

/*
 * The shim takes over __libc_start_main(): a dynamic program that does not
 * import it (Go, a custom _start) would run unfiltered.
 */
static bool imports_libc_start_main(int fd, const struct elf_info *info)
{
	static const char name[] = "\0__libc_start_main";	/* and its NUL */
	uint64_t off, size;
	bool found = false;
	char *strtab;

	if (dynamic_strtab(fd, info, &off, &size))
		return false;
	strtab = malloc(size);
	if (strtab && read_at(fd, strtab, size, (off_t)off) == 0)
		found = memmem(strtab, size, name, sizeof(name)) != NULL;
	free(strtab);
	return found;
}

static int elf_link_kind(int fd, const char *path, enum ujs_link *kind,
			 char *err, size_t errlen)
{
	struct elf_info info = { 0 };
	char interp[PATH_MAX];
	const char *base;

	if (elf_header(fd, path, &info, err, errlen) ||
	    elf_interp(fd, path, &info, interp, sizeof(interp), err, errlen))
		return -1;
	if (!interp[0]) {
		*kind = UJS_LINK_STATIC;
		return 0;
	}
	/* A shim of another class or machine would be skipped by ld.so, and
	 * the program would run unfiltered. */
	if (info.class != native_class() || info.data != native_data() ||
	    info.machine != native_machine())
		return ujs_fail(err, errlen,
				"%s: dynamic program for another ELF class or machine (%u); the preload shim cannot load in it",
				path, info.machine);
	if (!imports_libc_start_main(fd, &info))
		return ujs_fail(err, errlen,
				"%s: dynamic program that does not start through __libc_start_main; the preload shim cannot filter it",
				path);
	base = strrchr(interp, '/');
	base = base ? base + 1 : interp;
	*kind = strncmp(base, "ld-musl-", 8) == 0 ? UJS_LINK_MUSL : UJS_LINK_GLIBC;
	return 0;
}

/* The interpreter of a "#!" script in @buf, into @out. */
static int script_interpreter(const char *buf, size_t len, const char *path,
			      char *out, size_t outlen, char *err, size_t errlen)
{
	size_t start = 2, end;

	while (start < len && (buf[start] == ' ' || buf[start] == '\t'))
		start++;
	end = start;
	while (end < len && buf[end] != ' ' && buf[end] != '\t' && buf[end] != '\n')
		end++;
	if (end == start || end == len || end - start >= outlen)
		return ujs_fail(err, errlen, "%s: bad #! line", path);
	memcpy(out, buf + start, end - start);
	out[end - start] = '\0';
	return 0;
}

static int link_kind_at(const char *path, int depth, enum ujs_link *kind,
			char *err, size_t errlen)
{
	char buf[256], interp[PATH_MAX];
	ssize_t n;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ujs_fail(err, errlen, "%s: %s", path, strerror(errno));
	n = pread(fd, buf, sizeof(buf), 0);
	if (n >= 2 && buf[0] == '#' && buf[1] == '!') {
		close(fd);
		if (depth >= MAX_SCRIPT_DEPTH)
			return ujs_fail(err, errlen, "%s: too many nested #! interpreters", path);
		if (script_interpreter(buf, (size_t)n, path, interp, sizeof(interp), err, errlen))
			return -1;
		return link_kind_at(interp, depth + 1, kind, err, errlen);
	}
	ret = elf_link_kind(fd, path, kind, err, errlen);
	close(fd);
	return ret;
}

int ujs_link_kind(const char *path, enum ujs_link *kind, char *err,
		  size_t errlen)
{
	return link_kind_at(path, 0, kind, err, errlen);
}
