/* SPDX-License-Identifier: GPL-2.0 */
/* ujail-deps: print the host paths a program needs in a jail, one a line. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deps/elf_deps.h"
#include "seccomp/errmsg.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ujail-deps [OPTION]... PROGRAM...\n"
		"Print every path PROGRAM needs to start (itself, #! interpreters, ELF\n"
		"interpreter, shared libraries, the symlinks on the way), sorted.\n"
		"  --sysroot DIR        resolve inside DIR, print paths without it\n"
		"  --library-path DIRS  the LD_LIBRARY_PATH the jail will set\n"
		"  --path PATH          PATH for #!/usr/bin/env (default %s)\n"
		"  --lib VALUE          value of $LIB in RPATH/RUNPATH\n",
		ELF_DEPS_DEFAULT_PATH);
}

/* A relative PROGRAM is taken from the working directory (host only). */
static int absolute(const char *arg, const char *sysroot, char *buf)
{
	char cwd[PATH_MAX];
	int n;

	if (arg[0] == '/' || (sysroot && sysroot[0]))
		n = snprintf(buf, PATH_MAX, "%s", arg);
	else if (getcwd(cwd, sizeof(cwd)))
		n = snprintf(buf, PATH_MAX, "%s/%s", cwd, arg);
	else
		return -1;
	return n < 0 || n >= PATH_MAX ? -1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "sysroot", required_argument, NULL, 's' },
		{ "library-path", required_argument, NULL, 'L' },
		{ "path", required_argument, NULL, 'p' },
		{ "lib", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct elf_deps_opts opts = { 0 };
	struct path_set set = { 0 };
	char err[ERR_MAX], path[PATH_MAX];
	int c, status = 0;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			opts.sysroot = optarg;
			break;
		case 'L':
			opts.library_path = optarg;
			break;
		case 'p':
			opts.exec_path = optarg;
			break;
		case 'l':
			opts.dst_lib = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind == argc) {
		usage(stderr);
		return 2;
	}
	for (int i = optind; i < argc && !status; i++) {
		if (absolute(argv[i], opts.sysroot, path) < 0) {
			fprintf(stderr, "ujail-deps: %s: cannot make the path absolute\n", argv[i]);
			status = 1;
		} else if (elf_deps_collect(path, &opts, &set, err, sizeof(err)) < 0) {
			fprintf(stderr, "ujail-deps: %s\n", err);
			status = 1;
		}
	}
	if (!status)
		for (size_t i = 0; i < set.n; i++)
			puts(set.paths[i]);
	path_set_free(&set);
	if (fflush(stdout) != 0)
		status = 1;
	return status;
}
