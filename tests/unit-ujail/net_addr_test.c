/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --veth's interface names and the addresses of --host-addr, --jail-addr
 * and --gateway (options/net_addr.c): each row a value and what it parses
 * to, or the message it is refused with. Prints TAP.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "options/net_addr.h"
#include "tap.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

#define NOT_AN_ADDRESS "not an IPv4 or IPv6 address"
#define LEN4_WHY "prefix length: expected 0 to 32"
#define LEN6_WHY "prefix length: expected 0 to 128"
#define LONG_NAME "0123456789abcdef"	/* IFNAMSIZ characters: one too many */

static const struct {
	const char *in;
	bool with_len;		/* ADDR/LEN (--host-addr, --jail-addr), else ADDR */
	int family;		/* 0: refused */
	const char *addr;	/* what the bytes are, written as inet_pton takes it */
	int prefixlen;
	const char *why;
} addr_rows[] = {
	{ "10.0.0.1/24", true, AF_INET, "10.0.0.1", 24, NULL },
	{ "10.0.0.1/0", true, AF_INET, "10.0.0.1", 0, NULL },
	{ "10.0.0.1/32", true, AF_INET, "10.0.0.1", 32, NULL },
	{ "10.0.0.1", false, AF_INET, "10.0.0.1", -1, NULL },
	{ "fd00::1/64", true, AF_INET6, "fd00::1", 64, NULL },
	{ "fd00::1/128", true, AF_INET6, "fd00::1", 128, NULL },
	{ "::1", false, AF_INET6, "::1", -1, NULL },
	{ "::ffff:10.0.0.1", false, AF_INET6, "::ffff:10.0.0.1", -1, NULL },
	{ "10.0.0.1", true, 0, NULL, 0, "expected ADDR/LEN, an address and its prefix length" },
	{ "10.0.0.1/24", false, 0, NULL, 0, "expected an address, without /LEN" },
	{ "10.0.0.256/24", true, 0, NULL, 0, NOT_AN_ADDRESS },
	{ "010.0.0.1", false, 0, NULL, 0, NOT_AN_ADDRESS },	/* no leading zeros */
	{ " 10.0.0.1", false, 0, NULL, 0, NOT_AN_ADDRESS },
	{ "host.example", false, 0, NULL, 0, NOT_AN_ADDRESS },
	{ "", false, 0, NULL, 0, NOT_AN_ADDRESS },
	{ "1111:2222:3333:4444:5555:6666:7777:8888:9999", false, 0, NULL, 0, NOT_AN_ADDRESS },
	{ "10.0.0.1/33", true, 0, NULL, 0, LEN4_WHY },
	{ "10.0.0.1/08", true, 0, NULL, 0, LEN4_WHY },
	{ "10.0.0.1/", true, 0, NULL, 0, LEN4_WHY },
	{ "10.0.0.1/-1", true, 0, NULL, 0, LEN4_WHY },
	{ "fd00::1/129", true, 0, NULL, 0, LEN6_WHY },
};

static bool same_bytes(const struct jail_ipaddr *a, int family, const char *text)
{
	unsigned char want[16];

	return inet_pton(family, text, want) == 1 &&
	       !memcmp(a->bytes, want, family == AF_INET ? 4 : 16);
}

static void test_addresses(void)
{
	for (size_t i = 0; i < N_OF(addr_rows); i++) {
		struct jail_ipaddr a;
		const char *why = jail_ipaddr_parse(addr_rows[i].in, addr_rows[i].with_len, &a);

		if (addr_rows[i].family)
			ok(!why && a.family == addr_rows[i].family &&
			   same_bytes(&a, a.family, addr_rows[i].addr) &&
			   a.prefixlen == addr_rows[i].prefixlen,
			   "address '%s': %s, /%d (got %s)", addr_rows[i].in, addr_rows[i].addr,
			   addr_rows[i].prefixlen, why ? why : "parsed");
		else
			ok(why && !strcmp(why, addr_rows[i].why), "address '%s' refused: %s (got %s)",
			   addr_rows[i].in, addr_rows[i].why, why ? why : "accepted");
	}
}

static const struct {
	const char *in;
	const char *host, *jail;	/* NULL: refused */
	const char *why;
} veth_rows[] = {
	{ "vh0", "vh0", "eth0", NULL },		/* the jail's end defaults to eth0 */
	{ "vh0:eth1", "vh0", "eth1", NULL },
	{ "0123456789abcde:x", "0123456789abcde", "x", NULL },	/* 15: the longest */
	{ "vh0:lo", NULL, NULL, "the jail already has lo" },
	{ "", NULL, NULL, "empty interface name" },
	{ ":eth1", NULL, NULL, "empty interface name" },
	{ "vh0:", NULL, NULL, "empty interface name" },
	{ LONG_NAME, NULL, NULL, "interface name longer than 15 characters" },
	{ "vh0:" LONG_NAME, NULL, NULL, "interface name longer than 15 characters" },
	{ ".", NULL, NULL, "'.' and '..' are not interface names" },
	{ "vh0:..", NULL, NULL, "'.' and '..' are not interface names" },
	{ "a/b", NULL, NULL, "interface name with '/', ':' or '%'" },
	{ "vh%d", NULL, NULL, "interface name with '/', ':' or '%'" },
	{ "vh0:a:b", NULL, NULL, "interface name with '/', ':' or '%'" },
	{ "vh 0", NULL, NULL, "interface name with a blank or control character" },
	{ "vh0:e\tth", NULL, NULL, "interface name with a blank or control character" },
};

static void test_veth(void)
{
	for (size_t i = 0; i < N_OF(veth_rows); i++) {
		struct jail_veth_names n = { "", "" };
		const char *why = jail_veth_split(veth_rows[i].in, &n);

		if (veth_rows[i].host)
			ok(!why && !strcmp(n.host, veth_rows[i].host) &&
			   !strcmp(n.jail, veth_rows[i].jail), "--veth '%s': %s and %s (got %s)",
			   veth_rows[i].in, veth_rows[i].host, veth_rows[i].jail, why ? why : "parsed");
		else
			ok(why && !strcmp(why, veth_rows[i].why), "--veth '%s' refused: %s (got %s)",
			   veth_rows[i].in, veth_rows[i].why, why ? why : "accepted");
	}
}

/* jail_ipaddr_same(): the address only, the prefix lengths aside; none is no address. */
static const struct {
	const char *a, *b;	/* "" : not given */
	bool same;
} same_rows[] = {
	{ "10.0.0.1/24", "10.0.0.1/30", true },
	{ "10.0.0.1/24", "10.0.0.2/24", false },
	{ "fd00::1/64", "fd00::1/64", true },
	{ "fd00::1/64", "fd00::2/64", false },
	{ "::ffff:10.0.0.1/128", "10.0.0.1/32", false },	/* another family */
	{ "", "", false },
	{ "", "10.0.0.1/24", false },
};

static void test_same(void)
{
	for (size_t i = 0; i < N_OF(same_rows); i++) {
		struct jail_ipaddr a = { 0 }, b = { 0 };

		if (*same_rows[i].a)
			jail_ipaddr_parse(same_rows[i].a, true, &a);
		if (*same_rows[i].b)
			jail_ipaddr_parse(same_rows[i].b, true, &b);
		ok(jail_ipaddr_same(&a, &b) == same_rows[i].same, "'%s' and '%s': %s",
		   same_rows[i].a, same_rows[i].b, same_rows[i].same ? "the same" : "not the same");
	}
}

int main(void)
{
	test_addresses();
	test_veth();
	test_same();
	return tap_done();
}
