// SPDX-License-Identifier: GPL-2.0
/* Interface names and addresses of the jail's veth pair; see net_addr.h. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "options/net_addr.h"

/* Why @name cannot be an interface name: the kernel's dev_valid_name(),
 * and no '%' (that would be a template). NULL if it can. */
static const char *ifname_check(const char *name)
{
	if (!*name)
		return "empty interface name";
	if (strlen(name) >= IFNAMSIZ)
		return "interface name longer than 15 characters";
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return "'.' and '..' are not interface names";
	for (const char *c = name; *c; c++) {
		if (*c == '/' || *c == ':' || *c == '%')
			return "interface name with '/', ':' or '%'";
		if ((unsigned char)*c <= ' ' || *c == 0x7f)
			return "interface name with a blank or control character";
	}
	return NULL;
}

const char *jail_veth_split(const char *arg, struct jail_veth_names *out)
{
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);
	const char *why;
	char buf[IFNAMSIZ + 1];

	/* Cut at IFNAMSIZ + 1: still too long for the check to say so. */
	snprintf(buf, sizeof(buf), "%.*s", (int)(len < IFNAMSIZ ? len : IFNAMSIZ), arg);
	why = ifname_check(buf);
	if (why)
		return why;
	memcpy(out->host, buf, IFNAMSIZ);
	snprintf(buf, sizeof(buf), "%.*s", IFNAMSIZ, colon ? colon + 1 : JAIL_VETH_DEFAULT_JAIL);
	why = ifname_check(buf);
	if (why)
		return why;
	if (!strcmp(buf, "lo"))
		return "the jail already has lo";
	memcpy(out->jail, buf, IFNAMSIZ);
	return NULL;
}

/* An address, IPv4 first: inet_pton takes no blanks, no leading zeros. */
static int parse_host(const char *s, struct jail_ipaddr *out)
{
	if (inet_pton(AF_INET, s, out->bytes) == 1)
		return out->family = AF_INET;
	if (inet_pton(AF_INET6, s, out->bytes) == 1)
		return out->family = AF_INET6;
	return 0;
}

/* Decimal, no sign or leading zero, at most @max; -1 if not. */
static int parse_len(const char *s, int max)
{
	int v = 0;

	if (!*s || (s[0] == '0' && s[1]))
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || (v = v * 10 + (*s - '0')) > max)
			return -1;
	}
	return v;
}

const char *jail_ipaddr_parse(const char *s, bool with_len, struct jail_ipaddr *out)
{
	const char *slash = strchr(s, '/');
	char host[INET6_ADDRSTRLEN + 1];
	size_t len = slash ? (size_t)(slash - s) : strlen(s);

	memset(out, 0, sizeof(*out));
	out->prefixlen = -1;
	if (with_len && !slash)
		return "expected ADDR/LEN, an address and its prefix length";
	if (!with_len && slash)
		return "expected an address, without /LEN";
	if (len >= sizeof(host))
		return "not an IPv4 or IPv6 address";
	snprintf(host, sizeof(host), "%.*s", (int)len, s);
	if (!parse_host(host, out))
		return "not an IPv4 or IPv6 address";
	if (!slash)
		return NULL;
	out->prefixlen = parse_len(slash + 1, out->family == AF_INET ? 32 : 128);
	if (out->prefixlen < 0)
		return out->family == AF_INET ? "prefix length: expected 0 to 32"
					      : "prefix length: expected 0 to 128";
	return NULL;
}

bool jail_ipaddr_same(const struct jail_ipaddr *a, const struct jail_ipaddr *b)
{
	return a->family && a->family == b->family &&
	       !memcmp(a->bytes, b->bytes, a->family == AF_INET ? 4 : 16);
}
