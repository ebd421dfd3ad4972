/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz target: ujs_policy_parse() on any text. The parse options (target,
 * strict, capabilities, kernel release) come from a hash of the input, so
 * that a crash replays with the options it had. A parsed policy is freed:
 * ASan reports what leaks on either path.
 */
#include <string.h>

#include "fuzz.h"
#include "policy.h"

static const char *const targets[] = {
	"x86_64", "i386", "aarch64", "arm", "mips", "mipsel", "x32",
};

static const char *const kernels[] = {
	"6.12.48-amd64", "6.1", "4.14.0", "5", "",
};

static const uint64_t cap_sets[] = { 0, ~0ULL, 1ULL << 21, 1ULL << 12 | 1ULL << 19 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t h = fuzz_hash(data, size);
	uint64_t caps = cap_sets[(h >> 8) % 4];
	struct ujs_parse_opts opts = {
		.target = ujs_arch_by_name(targets[h % 7]),
		.strict = (h >> 4) & 1,
		.warn = fuzz_sink(),
		.caps = &caps,
		.kernel = kernels[(h >> 16) % 5],
	};
	struct ujs_policy *p = NULL;
	char err[512];

	if (!opts.target)
		abort();
	err[0] = '\0';
	if (ujs_policy_parse((const char *)data, size, "fuzz.json", &opts, &p,
			     err, sizeof(err))) {
		/* A refusal names the file, says why, and leaves nothing behind. */
		if (p || strncmp(err, "fuzz.json:", 10) ||
		    strnlen(err, sizeof(err)) == sizeof(err))
			abort();
		return 0;
	}
	if (!p)
		abort();
	ujs_policy_free(p);
	/* --strict only refuses more: what it accepts, the default accepts. */
	if (opts.strict) {
		opts.strict = false;
		if (ujs_policy_parse((const char *)data, size, "fuzz.json", &opts, &p,
				     err, sizeof(err)))
			abort();
		ujs_policy_free(p);
	}
	return 0;
}
