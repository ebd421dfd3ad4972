/* SPDX-License-Identifier: GPL-2.0 */
/*
 * procd's capabilities file (-C): what jail_caps_load() makes of good and
 * bad input. TAP.
 */
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "creds/creds.h"
#include "tap.h"

static char dir[] = "/tmp/caps_test.XXXXXX";

/* Writes @json to a file in the test directory; returns its path. */
static const char *caps_file(const char *name, const char *json)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(json, f) < 0 || fclose(f)) {
		perror(path);
		exit(2);
	}
	return path;
}

#define BIT(cap) (1ULL << (cap))

static void test_good_file(void)
{
	struct jail_caps c = { 0 };
	char err[512] = "";
	const char *p = caps_file("good.json",
		"{ \"bounding\": [\"CAP_NET_BIND_SERVICE\", \"CAP_NET_RAW\"],"
		"  \"effective\": [\"CAP_NET_BIND_SERVICE\"],"
		"  \"inheritable\": [\"CAP_NET_BIND_SERVICE\"],"
		"  \"permitted\": [\"CAP_NET_BIND_SERVICE\"],"
		"  \"ambient\": [\"CAP_NET_BIND_SERVICE\"] }");

	ok(jail_caps_load(p, &c, err, sizeof(err)) == 0, "procd's format loads (%s)", err);
	ok(c.bounding == (BIT(CAP_NET_BIND_SERVICE) | BIT(CAP_NET_RAW)),
	   "bounding holds both named capabilities");
	ok(c.effective == BIT(CAP_NET_BIND_SERVICE) && c.permitted == c.effective &&
	   c.inheritable == c.effective && c.ambient == c.effective,
	   "the other sets hold CAP_NET_BIND_SERVICE only");

	ok(c.given == (JAIL_CAPS_BOUNDING | JAIL_CAPS_EFFECTIVE | JAIL_CAPS_INHERITABLE |
			JAIL_CAPS_PERMITTED | JAIL_CAPS_AMBIENT), "all five sets are given");

	/* As procd: a set the file does not name stays as it is. */
	p = caps_file("partial.json", "{ \"ambient\": [\"CAP_CHOWN\"] }");
	ok(jail_caps_load(p, &c, err, sizeof(err)) == 0 && c.ambient == BIT(CAP_CHOWN) &&
	   c.given == JAIL_CAPS_AMBIENT, "a missing list is not given (stays as it is)");
	p = caps_file("empty.json", "{ \"ambient\": [] }");
	ok(jail_caps_load(p, &c, err, sizeof(err)) == 0 && c.ambient == 0 &&
	   c.given == JAIL_CAPS_AMBIENT, "an empty list is given, and empty");

	/* procd ignores other keys (comments, keys of newer formats). */
	p = caps_file("extra.json", "{ \"comment\": \"ntpd\", \"bounding\": [] }");
	ok(jail_caps_load(p, &c, err, sizeof(err)) == 0 && c.given == JAIL_CAPS_BOUNDING,
	   "an extra key is ignored (%s)", err);

	c.keep_all = true;
	ok(jail_caps_load(p, &c, err, sizeof(err)) == 0 && c.keep_all, "--keep-caps survives -C");
	c.keep_all = false;

	/* libcap's names are lower case; procd's files use upper case. */
	p = caps_file("lower.json", "{ \"ambient\": [\"cap_chown\"] }");
	ok(jail_caps_load(p, &c, err, sizeof(err)) == 0 && c.ambient == BIT(CAP_CHOWN),
	   "a lower-case name is the same capability");
	p = caps_file("mixed.json", "{ \"ambient\": [\"Cap_Net_Raw\"] }");
	ok(jail_caps_load(p, &c, err, sizeof(err)) == 0 && c.ambient == BIT(CAP_NET_RAW),
	   "any case, as procd's strcasecmp (%s)", err);
	/* The newest of the kernel's headers, which libcap 2.66 may not name. */
	p = caps_file("newest.json", "{ \"ambient\": [\"CAP_CHECKPOINT_RESTORE\"] }");
	ok(jail_caps_load(p, &c, err, sizeof(err)) == 0 &&
	   c.ambient == BIT(CAP_CHECKPOINT_RESTORE), "CAP_CHECKPOINT_RESTORE is %d (%s)",
	   CAP_CHECKPOINT_RESTORE, err);
}

struct bad_case {
	const char *json;
	const char *expect;	/* in the message */
	const char *what;
};

static const struct bad_case bad_cases[] = {
	{ "{ \"ambient\": [\"CAP_NO_SUCH\"] }", "CAP_NO_SUCH", "an unknown capability is named" },
	/* A macro of the header, no capability (procd leaves it out too). */
	{ "{ \"ambient\": [\"CAP_LAST_CAP\"] }", "unknown capability CAP_LAST_CAP",
	  "CAP_LAST_CAP is no capability" },
	{ "{ \"ambient\": [\"NET_RAW\"] }", "unknown capability NET_RAW",
	  "a name without CAP_ is unknown" },
	{ "{ \"ambient\": [\"CAP_NET_RAW_AND_A_NAME_LONGER_THAN_SIXTY_FOUR_CHARACTERS_XXXXXXXX\"] }",
	  "unknown capability", "an overlong name is unknown, not cut short" },
	{ "{ \"ambient\": \"CAP_CHOWN\" }", "ambient", "a string instead of a list names the key" },
	{ "{ \"ambient\": [1] }", "ambient", "a number in a list names the key" },
	{ "[ ]", "bad.json", "a list instead of an object names the file" },
	{ "{ \"ambient\": [", "bad.json: not valid JSON", "broken JSON is named so" },
};

static void test_bad_files(void)
{
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *b = &bad_cases[i];
		struct jail_caps c;
		char err[512] = "";
		const char *p = caps_file("bad.json", b->json);
		int rc = jail_caps_load(p, &c, err, sizeof(err));

		ok(rc == -1 && strstr(err, b->expect), "%s (%s)", b->what, err);
	}
}

static void test_missing_file(void)
{
	struct jail_caps c;
	char err[512] = "";
	char path[256];

	snprintf(path, sizeof(path), "%s/none.json", dir);
	ok(jail_caps_load(path, &c, err, sizeof(err)) == -1 &&
	   strstr(err, "none.json: No such file or directory"),
	   "a missing file is an error naming it (%s)", err);
}

int main(void)
{
	char cmd[64];
	int rc;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	test_good_file();
	test_bad_files();
	test_missing_file();
	rc = tap_done();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 2;
	return rc;
}
