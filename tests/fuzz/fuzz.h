/* SPDX-License-Identifier: GPL-2.0 */
/* What the fuzz targets share: a sink for messages, a seed from the input. */
#ifndef UJ_FUZZ_H
#define UJ_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Messages are part of what is tested (formatting), not of the output. */
static inline FILE *fuzz_sink(void)
{
	static FILE *sink;

	if (!sink)
		sink = fopen("/dev/null", "we");
	if (!sink)
		abort();
	return sink;
}

/* FNV-1a: choices an input makes for itself replay with it. */
static inline uint64_t fuzz_hash(const uint8_t *data, size_t size)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 0x100000001b3ULL;
	return h;
}

/* xorshift64 (never 0 given a non-zero state). */
static inline uint64_t fuzz_rnd(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* @size bytes of @data as a C string (a NUL in it ends it early). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	if (!text)
		abort();
	for (size_t i = 0; i < size; i++)
		text[i] = (char)data[i];
	text[size] = '\0';
	return text;
}

#endif
