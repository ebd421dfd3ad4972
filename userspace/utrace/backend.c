// SPDX-License-Identifier: GPL-2.0
/* The backend's name on the command line and in the environment; see backend.h. */
#include <stdlib.h>
#include <string.h>

#include "seccomp/errmsg.h"
#include "utrace/backend.h"

static const char *const backend_names[] = {
	[UTRACE_BACKEND_AUTO] = "auto",
	[UTRACE_BACKEND_EBPF] = "ebpf",
	[UTRACE_BACKEND_PTRACE] = "ptrace",
};

/* @text's backend, or -1. */
static int backend_of(const char *text)
{
	for (size_t i = 0; i < sizeof(backend_names) / sizeof(backend_names[0]); i++)
		if (!strcmp(text, backend_names[i]))
			return (int)i;
	return -1;
}

int utrace_backend_parse(const char *text, enum utrace_backend *b, char *err,
			 size_t errlen)
{
	int i = backend_of(text);

	if (i < 0)
		return ujs_fail(err, errlen, "--backend %s: unknown backend (auto, ebpf or "
				"ptrace)", text);
	*b = (enum utrace_backend)i;
	return 0;
}

int utrace_backend_from_env(enum utrace_backend *b, char *err, size_t errlen)
{
	const char *env = getenv("UTRACE_BACKEND");
	int i;

	*b = UTRACE_BACKEND_AUTO;
	if (!env || !*env)
		return 0;
	i = backend_of(env);
	if (i < 0)
		return ujs_fail(err, errlen, "UTRACE_BACKEND=%s: unknown backend (auto, ebpf "
				"or ptrace)", env);
	*b = (enum utrace_backend)i;
	return 0;
}
