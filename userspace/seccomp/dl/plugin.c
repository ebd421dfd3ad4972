// SPDX-License-Identifier: GPL-2.0
/* Loading a plugin from beside libujail-seccomp.so.0; see plugin.h. */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "errmsg.h"
#include "plugin.h"

/* The directory this library was loaded from, as the loader found it. */
static int own_dir(char *out, size_t len)
{
	Dl_info info;
	const char *slash;

	if (!dladdr((void *)own_dir, &info) || !info.dli_fname)
		return -1;
	slash = strrchr(info.dli_fname, '/');
	if (!slash)
		return (size_t)snprintf(out, len, ".") < len ? 0 : -1;
	return (size_t)snprintf(out, len, "%.*s", (int)(slash - info.dli_fname),
				info.dli_fname) < len ? 0 : -1;
}

/* dlerror() names the file too, most of the time: once is enough. */
static const char *without_path(const char *why, const char *path)
{
	size_t n = strlen(path);

	return !strncmp(why, path, n) && !strncmp(why + n, ": ", 2) ? why + n + 2 : why;
}

const void *ujs_plugin_load(const char *file, const char *sym, char *err, size_t errlen)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];
	const char *why;
	void *h, *addr;

	if (own_dir(dir, sizeof(dir)) < 0) {
		ujs_fail(err, errlen, "%s: cannot locate libujail-seccomp.so.0's directory", file);
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	/* Kept loaded: its functions are called until the program ends. */
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		why = dlerror();
		ujs_fail(err, errlen, "plugin %s: %s (installed with ujail)", path,
			 why ? without_path(why, path) : "cannot load");
		return NULL;
	}
	addr = dlsym(h, sym);
	if (!addr) {
		ujs_fail(err, errlen, "plugin %s: no %s (not this ujail's build?)", path, sym);
		dlclose(h);
		return NULL;
	}
	return addr;
}
