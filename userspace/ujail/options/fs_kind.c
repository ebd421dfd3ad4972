// SPDX-License-Identifier: GPL-2.0
/* --fs and $UJAIL_FS: the stage backend's word, parsed once (fs_kind.h). */
#include <string.h>

#include "options/fs_kind.h"

static const char *const fs_words[] = {
	[JAIL_FS_AUTO] = "auto",
	[JAIL_FS_BIND] = "bind",
	[JAIL_FS_JAILFS] = "jailfs",
};

const char *jail_fs_kind_parse(const char *word, enum jail_fs_kind *out)
{
	for (size_t i = 0; i < sizeof(fs_words) / sizeof(fs_words[0]); i++)
		if (!strcmp(word, fs_words[i])) {
			*out = (enum jail_fs_kind)i;
			return NULL;
		}
	return "must be " JAIL_FS_WORDS;
}

const char *jail_fs_kind_name(enum jail_fs_kind kind)
{
	return (size_t)kind < sizeof(fs_words) / sizeof(fs_words[0]) ? fs_words[kind] : "?";
}
