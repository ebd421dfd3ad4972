// SPDX-License-Identifier: GPL-2.0
/* The cgroup options' values; see cgroup_value.h. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "options/cgroup_value.h"

#define CPU_PERIOD_DEFAULT 100000ULL	/* the kernel's default, µs */
#define CPU_PERIOD_MIN 1000ULL		/* the kernel's limits, µs */
#define CPU_PERIOD_MAX 1000000ULL
#define CPU_QUOTA_MIN 1000ULL
#define CPU_QUOTA_MAX 1000000000000ULL	/* 10^6 s: a typo beyond */
#define PIDS_MAX 4194304ULL		/* PID_MAX_LIMIT */
#define IO_WEIGHT_MAX 10000ULL

/* Leading decimal digits of *@s into *@v (at most @max), *@s moved past. */
static bool digits(const char **s, unsigned long long max, unsigned long long *v)
{
	const char *p = *s;

	*v = 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		*v = *v * 10 + (unsigned long long)(*p - '0');
		if (*v > max)
			return false;
	}
	if (p == *s)
		return false;
	*s = p;
	return true;
}

/* The whole of @s is a number in [@min, @max]. */
static bool whole_number(const char *s, unsigned long long min, unsigned long long max,
			 unsigned long long *v)
{
	return digits(&s, max, v) && !*s && *v >= min;
}

const char *cgroup_value_memory(const char *value, char *out)
{
	static const char units[] = "KMGT";
	const char *why = "expected BYTES with an optional K, M, G or T suffix, or max";
	const char *s = value, *unit;
	unsigned long long v;
	unsigned int shift = 0;

	if (!strcmp(value, "max"))
		return strcpy(out, "max"), NULL;
	if (!digits(&s, UINT64_MAX / 10, &v))
		return why;
	if (*s) {
		unit = strchr(units, *s & ~0x20);
		if (!unit || s[1])
			return why;
		shift = 10 * (unsigned int)(unit - units + 1);
	}
	if (v > (UINT64_MAX >> shift) / 2)
		return "too large";
	if (!v)
		return "must be more than 0";
	snprintf(out, CGROUP_VALUE_MAX, "%llu", v << shift);
	return NULL;
}

const char *cgroup_value_cpu(const char *value, char *out)
{
	const char *why = "expected QUOTA[/PERIOD] in microseconds (QUOTA at least 1000, "
			  "PERIOD 1000 to 1000000), N% of one CPU, or max";
	unsigned long long quota = 0, period = CPU_PERIOD_DEFAULT;
	const char *s = value;
	bool max = !strncmp(s, "max", 3);

	if (max)
		s += 3;
	else if (!digits(&s, CPU_QUOTA_MAX, &quota))
		return why;
	if (!max && !strcmp(s, "%")) {
		/* N% of one CPU over the default period. */
		if (quota < 1 || quota > CPU_QUOTA_MAX / 1000)
			return why;
		snprintf(out, CGROUP_VALUE_MAX, "%llu %llu", quota * 1000, period);
		return NULL;
	}
	if (*s == '/') {
		s++;
		if (!whole_number(s, CPU_PERIOD_MIN, CPU_PERIOD_MAX, &period))
			return why;
	} else if (*s) {
		return why;
	}
	if (max)
		snprintf(out, CGROUP_VALUE_MAX, "max %llu", period);
	else if (quota < CPU_QUOTA_MIN)
		return why;
	else
		snprintf(out, CGROUP_VALUE_MAX, "%llu %llu", quota, period);
	return NULL;
}

const char *cgroup_value_pids(const char *value, char *out)
{
	unsigned long long v;

	if (!strcmp(value, "max"))
		return strcpy(out, "max"), NULL;
	if (!whole_number(value, 1, PIDS_MAX, &v))
		return "expected a number of processes from 1 to 4194304, or max";
	snprintf(out, CGROUP_VALUE_MAX, "%llu", v);
	return NULL;
}

const char *cgroup_value_io_weight(const char *value, char *out)
{
	unsigned long long v;

	if (!whole_number(value, 1, IO_WEIGHT_MAX, &v))
		return "expected a weight from 1 to 10000";
	snprintf(out, CGROUP_VALUE_MAX, "default %llu", v);
	return NULL;
}

const char *cgroup_check_parent(const char *value)
{
	const char *c;

	if (value[0] != '/')
		return "expected an absolute path";
	for (c = value; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return "must not contain control characters";
	for (c = value; (c = strchr(c, '/')); c++)
		if ((c[1] == '.' && (c[2] == '/' || !c[2])) ||
		    (c[1] == '.' && c[2] == '.' && (c[3] == '/' || !c[3])))
			return "must not contain . or .. components";
	return NULL;
}
