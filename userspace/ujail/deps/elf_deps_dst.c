/* SPDX-License-Identifier: GPL-2.0 */
/* Dynamic string tokens in DT_RPATH, DT_RUNPATH and DT_NEEDED: $ORIGIN, $LIB, $PLATFORM. */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "deps/elf_deps_int.h"

#ifndef EF_ARM_ABI_FLOAT_HARD
#define EF_ARM_ABI_FLOAT_HARD 0x400
#endif
#ifndef EF_MIPS_ABI2
#define EF_MIPS_ABI2 0x20
#endif

const char *deps_multiarch_triplet(const struct program *p)
{
	bool is64 = p->class == ELFCLASS64;

	switch (p->machine) {
	case EM_X86_64:
		return is64 ? "x86_64-linux-gnu" : "x86_64-linux-gnux32";
	case EM_386:
		return "i386-linux-gnu";
	case EM_AARCH64:
		return is64 ? "aarch64-linux-gnu" : NULL;
	case EM_ARM:
		return p->eflags & EF_ARM_ABI_FLOAT_HARD ? "arm-linux-gnueabihf" : "arm-linux-gnueabi";
	case EM_PPC64:
		return p->data == ELFDATA2LSB ? "powerpc64le-linux-gnu" : "powerpc64-linux-gnu";
	case EM_S390:
		return is64 ? "s390x-linux-gnu" : NULL;
	case EM_RISCV:
		return is64 ? "riscv64-linux-gnu" : NULL;
	case EM_MIPS:	/* Debian's tuples: o32, n32 (ABI2), n64 */
		if (is64)
			return p->data == ELFDATA2LSB ? "mips64el-linux-gnuabi64" : "mips64-linux-gnuabi64";
		if (p->eflags & EF_MIPS_ABI2)
			return p->data == ELFDATA2LSB ? "mips64el-linux-gnuabin32" : "mips64-linux-gnuabin32";
		return p->data == ELFDATA2LSB ? "mipsel-linux-gnu" : "mips-linux-gnu";
	}
	return NULL;
}

/* AT_PLATFORM as the kernel gives it, for the machines we know. */
static const char *platform_name(const struct program *p)
{
	switch (p->machine) {
	case EM_X86_64:
		return "x86_64";
	case EM_386:
		return "i686";
	case EM_AARCH64:
		return "aarch64";
	}
	return NULL;
}

static void dst_lib_value(const struct program *p, char *buf, size_t len)
{
	const char *triplet = deps_multiarch_triplet(p);

	if (p->ctx->opts.dst_lib)
		snprintf(buf, len, "%s", p->ctx->opts.dst_lib);
	else if (triplet)
		snprintf(buf, len, "lib/%s", triplet);
	else
		snprintf(buf, len, "%s", p->class == ELFCLASS64 ? "lib64" : "lib");
}

/* Length of the $NAME or ${NAME} reference at @s if it names @var, else 0. */
static size_t dst_match(const char *s, const char *var)
{
	size_t n = strlen(var);

	if (s[1] == '{')
		return !strncmp(s + 2, var, n) && s[2 + n] == '}' ? n + 3 : 0;
	if (strncmp(s + 1, var, n))
		return 0;
	if (s[1 + n] == '_' || (s[1 + n] >= 'A' && s[1 + n] <= 'Z') ||
	    (s[1 + n] >= 'a' && s[1 + n] <= 'z') || (s[1 + n] >= '0' && s[1 + n] <= '9'))
		return 0;
	return n + 1;
}

/*
 * Expands dynamic string tokens in @in (@len bytes) for object @o into
 * @out (PATH_MAX). Unknown tokens stay as they are (glibc). Returns 0 or
 * -1 with a message; @what names the tag for it.
 */
int deps_expand_dst(struct program *p, const struct dep_obj *o, const char *in, size_t len,
		    const char *what, char *out)
{
	size_t used = 0;

	for (size_t i = 0; i < len;) {
		char value[PATH_MAX];
		const char *add = NULL;
		size_t skip, n;

		if (in[i] != '$') {
			if (used + 1 >= PATH_MAX)
				goto too_long;
			out[used++] = in[i++];
			continue;
		}
		if ((skip = dst_match(in + i, "ORIGIN"))) {
			add = o->origin;
		} else if ((skip = dst_match(in + i, "PLATFORM"))) {
			add = platform_name(p);
			if (!add)
				return deps_fail(p->ctx, "%s: $PLATFORM in %s is unknown for ELF machine %u",
						 o->name, what, p->machine);
		} else if ((skip = dst_match(in + i, "LIB"))) {
			dst_lib_value(p, value, sizeof(value));
			add = value;
		} else {
			skip = 1;
			add = "$";
		}
		n = strlen(add);
		if (used + n >= PATH_MAX)
			goto too_long;
		memcpy(out + used, add, n);
		used += n;
		i += skip;
	}
	out[used] = '\0';
	return 0;
too_long:
	return deps_fail(p->ctx, "%s: %s expands beyond PATH_MAX", o->name, what);
}

/* musl expands $ORIGIN only; a path with any other '$' is ignored whole. */
bool deps_musl_rpath_usable(const char *rpath)
{
	for (const char *s = strchr(rpath, '$'); s; s = strchr(s + 1, '$'))
		if (!dst_match(s, "ORIGIN"))
			return false;
	return true;
}
