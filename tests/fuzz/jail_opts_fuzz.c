/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz target: ujail's command line and jail file (jail_opts_parse()).
 * The input is argv words ending in NUL bytes; an empty word ends them,
 * and what follows is a jail file, given as "--config" in a memfd before
 * the words. Whatever the result, jail_opts_free() must leave nothing
 * behind (ASan's leak check) and a success must describe a runnable jail.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "options/options.h"

#define MAX_WORDS 64

/* The jail file in a memfd; its /proc path in @path. -1: none. */
static int config_fd(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("jail.json", MFD_CLOEXEC);

	if (fd < 0)
		abort();
	while (size) {
		ssize_t n = write(fd, data, size);

		if (n <= 0)
			abort();
		data += n;
		size -= (size_t)n;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

/* What a parse that succeeded promises main(). */
static void check_opts(const struct jail_opts *o)
{
	if (!o->argv || o->argc < 1 || !o->argv[0] || o->argv[o->argc])
		abort();
	for (size_t i = 0; i < o->n_paths; i++)
		if (!o->paths[i].src || o->paths[i].src[0] != '/' ||
		    !o->paths[i].dst || o->paths[i].dst[0] != '/')
			abort();
	if (o->n_keep_env && (!o->keep_env || o->keep_env[o->n_keep_env]))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *argv[MAX_WORDS + 4], path[64];
	size_t at = 0;
	int argc = 0, fd = -1, ret;
	struct jail_opts o;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	argv[argc++] = "ujail";
	/* Words up to an empty one; the rest is the jail file. */
	while (at < size && text[at] && argc < MAX_WORDS) {
		argv[argc++] = text + at;
		at += strlen(text + at) + 1;
	}
	if (at < size && !text[at]) {
		fd = config_fd(data + at + 1, size - at - 1, path, sizeof(path));
		memmove(argv + 3, argv + 1, (size_t)(argc - 1) * sizeof(*argv));
		argv[1] = "--config";
		argv[2] = path;
		argc += 2;
	}
	argv[argc] = NULL;

	jail_err = jail_out = fuzz_sink();
	ret = jail_opts_parse(&o, argc, argv);
	if (ret == 0)
		check_opts(&o);
	else if (ret != 1 && ret != -1)
		abort();
	jail_opts_free(&o);
	if (fd >= 0)
		close(fd);
	free(text);
	return 0;
}
