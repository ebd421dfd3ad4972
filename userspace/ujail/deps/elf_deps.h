/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a program needs from the filesystem to start: the executable, its
 * #! interpreters, its ELF interpreter and the shared libraries the loader
 * will map, found the way glibc's and musl's loaders search for them.
 *
 * The symlink rule. For each file the kernel or a loader opens by a name N
 * (the program, a #! interpreter, PT_INTERP, a library as found by the
 * search), the set gets:
 *   1. N itself, with "//" and "." removed, unless it holds a ".."
 *      (a "$ORIGIN/../lib" name: the walk below already covers it);
 *   2. every symbolic link met while resolving N component by component
 *      as the kernel does, files and directories alike, under the name it
 *      has at that point (its directory already resolved): the link, each
 *      link of a chain, and links in the target's directories;
 *   3. the real path of the file, with no link in it.
 * Example, Debian 12 (merged /usr), N = /lib64/ld-linux-x86-64.so.2:
 *   /lib64                                        -> usr/lib64 (directory)
 *   /lib64/ld-linux-x86-64.so.2                   N as named
 *   /usr/lib64/ld-linux-x86-64.so.2               -> /lib/x86_64-linux-gnu/...
 *   /lib                                          -> usr/lib (directory)
 *   /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2  the real file
 * So a jail can be staged either way: (a) recreate every entry that is a
 * link (lstat) as the same link and bind the other entries, regular files,
 * at their own path: every name resolves in the jail as on the host; or
 * (b) bind each entry that is not a directory once resolved (stat) at its
 * own path and skip directory links: each name then reaches the same file.
 * Only regular files and links are listed, never a directory itself.
 *
 * Also listed, when the loader would read them: /etc/ld.so.cache (glibc,
 * once a search reaches the cache) and musl's /etc/ld-musl-ARCH.path.
 */
#ifndef UJAIL_ELF_DEPS_H
#define UJAIL_ELF_DEPS_H

#include <stddef.h>

#include "deps/ld_cache.h"
#include "deps/path_walk_memo.h"
#include "deps/pathset.h"

/* PATH for "#!/usr/bin/env NAME" when the caller gives none (Debian's root PATH). */
#define ELF_DEPS_DEFAULT_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

/* Nested #! interpreters followed at most, as the kernel (then ELOOP). */
#define ELF_DEPS_MAX_INTERP 5

/*
 * What the elf_deps_collect() calls filling one set (a jail's plan: its
 * command, then each -r/-w program) share: glibc's ld.so.cache, read and
 * staged once, and the programs whose closure the set already holds,
 * which are not walked again, and each path's resolution (every program
 * walks /lib64, ld.so and libc.so.6 alike). Zero-initialised;
 * elf_deps_session_free().
 * Every call given a session must fill the same set with the same options.
 */
struct elf_deps_session {
	struct ld_cache cache;
	int cache_state;	/* 0: not read yet, 1: loaded, -1: absent or unusable */
	struct path_set programs; /* exec'd by name, collected whole */
	struct path_walk_memo walks; /* each path resolved, and where it led */
};

void elf_deps_session_free(struct elf_deps_session *s);

struct elf_deps_opts {
	/*
	 * Resolve every path inside this directory as if chrooted there
	 * (absolute links restart at it); paths are reported without it.
	 * NULL or "": the host's root.
	 */
	const char *sysroot;
	/*
	 * Extra library directories (colon-separated), searched where the
	 * loader searches LD_LIBRARY_PATH: give the LD_LIBRARY_PATH the jail
	 * will set. The caller's own environment is never read. NULL: none.
	 */
	const char *library_path;
	/* PATH searched for the command of "#!/usr/bin/env NAME"; NULL: default. */
	const char *exec_path;
	/*
	 * Value of $LIB in DT_RPATH/DT_RUNPATH; NULL: "lib/<multiarch
	 * triplet>" as Debian's glibc (lib64 or lib when no triplet is known).
	 */
	const char *dst_lib;
	/* Shared with the other calls filling the same set; NULL: none. */
	struct elf_deps_session *session;
};

/*
 * Adds to @out every host path @path needs, as described above. @path
 * must be absolute; @opts may be NULL. Returns 0, or -1 with a message in
 * @err naming the file (and, for a library, which object needs it); @out
 * may then hold part of the set (the caller frees it).
 *
 * Errors: neither ELF nor #!, malformed ELF (all offsets are checked),
 * a wrong class/machine for the program's interpreter, a missing library
 * or interpreter, symlink loops, more than ELF_DEPS_MAX_INTERP #! levels.
 * A library of another class/machine is skipped as the loaders do.
 */
int elf_deps_collect(const char *path, const struct elf_deps_opts *opts, struct path_set *out,
		     char *err, size_t errlen);

#endif
