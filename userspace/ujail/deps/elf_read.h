/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Read what the dynamic loader needs from an ELF file: class, machine,
 * PT_INTERP and the dynamic section's strings. 32/64-bit, both byte
 * orders; every offset and size is checked against the file, which may
 * be hostile (the service's owner may control it).
 */
#ifndef UJAIL_ELF_READ_H
#define UJAIL_ELF_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Limits on what one file may make us read or allocate. */
#define ELF_READ_MAX_DYNAMIC	(1u << 20)	/* bytes of PT_DYNAMIC */
#define ELF_READ_MAX_STRING	4096u		/* one dynamic string */

struct elf_info {
	/* From the ELF header (elf_read_header). */
	unsigned char class;	/* ELFCLASS32, ELFCLASS64 */
	unsigned char data;	/* ELFDATA2LSB, ELFDATA2MSB */
	uint16_t type;		/* ET_EXEC, ET_DYN, ... */
	uint16_t machine;	/* EM_* */
	uint32_t flags;		/* e_flags: the ARM float ABI lives there */
	uint64_t phoff;
	uint32_t phnum;		/* PN_XNUM already resolved */
	uint64_t file_size;	/* as elf_read_header saw it (fstat) */
	/* From the program headers and PT_DYNAMIC (elf_read_dynamic). */
	char *interp;		/* PT_INTERP, or NULL */
	bool has_dynamic;
	char *soname, *rpath, *runpath; /* NULL when absent */
	char **needed;		/* DT_NEEDED, in order */
	size_t n_needed;
	bool nodeflib;		/* DF_1_NODEFLIB: no cache, no default dirs */
};

/*
 * Reads and checks the ELF header of the open regular file @fd; @name is
 * for messages. Returns 0, or -1 with a message naming @name in @err.
 */
int elf_read_header(int fd, const char *name, struct elf_info *info, char *err, size_t errlen);
/* The same for a file whose size the caller has (fstat) already. */
int elf_read_header_sized(int fd, uint64_t size, const char *name, struct elf_info *info,
			  char *err, size_t errlen);

/*
 * Then the rest, of the same file (its size not asked again); on error
 * @info keeps nothing to free beyond elf_info_free.
 */
int elf_read_dynamic(int fd, const char *name, struct elf_info *info, char *err, size_t errlen);

void elf_info_free(struct elf_info *info);

/* True when the first bytes @buf (@len of them) are the ELF magic. */
bool elf_has_magic(const void *buf, size_t len);

#endif
