/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strict JSON input for the policy parser; see json_input.h. A policy is
 * a security boundary: what json-c would accept loosely (comments, a
 * trailing comma, an integer clamped to 64 bits) is an error here.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errmsg.h"
#include "json_input.h"

/* ---- messages and paths ---- */

static void vformat(const struct ujs_json_err *je, char *buf, size_t len,
		    const char *path, const char *fmt, va_list ap)
{
	int n = snprintf(buf, len, "%s: %s: ", je->file,
			 *path ? path : "(top level)");

	ujs_vappend(buf, len, n, fmt, ap);
}

int ujs_json_fail(const struct ujs_json_err *je, const char *path,
		  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vformat(je, je->buf, je->len, path, fmt, ap);
	va_end(ap);
	return -1;
}

void ujs_json_warn(const struct ujs_json_err *je, FILE *out, const char *path,
		   const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!out)
		return;
	va_start(ap, fmt);
	vformat(je, line, sizeof(line), path, fmt, ap);
	va_end(ap);
	fprintf(out, "%s\n", line);
}

int ujs_json_fail_file(const struct ujs_json_err *je, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(je->buf, je->len, "%s: ", je->file);

	va_start(ap, fmt);
	ujs_vappend(je->buf, je->len, n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Paths are short; should one not fit, it ends in "..." rather than lie. */
static void mark_truncated(char *buf, int n)
{
	if (n >= UJS_JSON_PATH_LEN)
		strcpy(buf + UJS_JSON_PATH_LEN - 4, "...");
}

void ujs_json_path_key(char *buf, const char *parent, const char *key)
{
	mark_truncated(buf, snprintf(buf, UJS_JSON_PATH_LEN, "%s%s%s", parent,
				     *parent ? "." : "", key));
}

void ujs_json_path_index(char *buf, const char *parent, size_t i)
{
	mark_truncated(buf, snprintf(buf, UJS_JSON_PATH_LEN, "%s[%zu]", parent, i));
}

/* ---- the file ---- */

/* Makes room for more after @used bytes (and a NUL); false when out of memory. */
static bool grow_buffer(char **buf, size_t *cap, size_t used)
{
	char *bigger;

	if (*buf && used < *cap)
		return true;
	if (*buf)
		*cap *= 2;
	bigger = realloc(*buf, *cap + 1);
	if (!bigger)
		return false;
	*buf = bigger;
	return true;
}

/* Reads @fd to its end, or just past the size cap. */
static int read_all(const struct ujs_json_err *je, int fd, char **buf,
		    size_t *used)
{
	size_t cap = 64 << 10;

	for (;;) {
		ssize_t n;

		if (!grow_buffer(buf, &cap, *used))
			return ujs_json_fail_file(je, "out of memory");
		n = read(fd, *buf + *used, cap - *used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ujs_json_fail_file(je, "cannot read: %s",
						  strerror(errno));
		if (n == 0)
			break;
		*used += n;
		if (*used > UJS_JSON_MAX_SIZE)
			break;
	}
	(*buf)[*used] = '\0';
	return 0;
}

int ujs_json_read_file(const struct ujs_json_err *je, char **text, size_t *len)
{
	int fd, ret;

	*text = NULL;
	*len = 0;
	fd = open(je->file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ujs_json_fail_file(je, "cannot open: %s", strerror(errno));
	ret = read_all(je, fd, text, len);
	if (ret) {
		free(*text);
		*text = NULL;
	}
	close(fd);
	return ret;
}

/* ---- the text ---- */

static void line_col(const char *text, size_t offset, size_t *line, size_t *col)
{
	size_t i, start = 0;

	*line = 1;
	for (i = 0; i < offset; i++) {
		if (text[i] == '\n') {
			(*line)++;
			start = i + 1;
		}
	}
	*col = offset - start + 1;
}

/* Errors in the JSON text: "FILE:LINE:COLUMN: message"; returns -1. */
__attribute__((format(printf, 4, 5)))
static int fail_at(const struct ujs_json_err *je, const char *text,
		   size_t offset, const char *fmt, ...)
{
	size_t line, col;
	va_list ap;
	int n;

	line_col(text, offset, &line, &col);
	n = snprintf(je->buf, je->len, "%s:%zu:%zu: ", je->file, line, col);
	va_start(ap, fmt);
	ujs_vappend(je->buf, je->len, n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Does the decimal integer @digits (@n digits, no sign) fit in 64 bits? */
static bool fits_64(const char *digits, size_t n, bool negative)
{
	const char *limit = negative ? "9223372036854775808" : "18446744073709551615";
	size_t len = strlen(limit);

	return n < len || (n == len && memcmp(digits, limit, n) <= 0);
}

/* Index just past the string literal that starts (with its quote) at @i. */
static size_t skip_string(const char *text, size_t len, size_t i)
{
	char quote = text[i];

	for (i++; i < len && text[i] != quote; i++)
		if (text[i] == '\\')
			i++;
	return i + 1;
}

/*
 * json-c silently clamps integers beyond 64 bits: find them in the text
 * (already valid JSON) so that a typo in a mask is not turned into
 * UINT64_MAX.
 */
static int check_int_ranges(const struct ujs_json_err *je, const char *text,
			    size_t len)
{
	size_t i = 0;

	while (i < len) {
		char c = text[i];
		size_t start = i, digits;
		bool negative;

		if (c == '"' || c == '\'') {
			i = skip_string(text, len, i);
			continue;
		}
		if (c != '-' && (c < '0' || c > '9')) {
			i++;
			continue;
		}
		negative = c == '-';
		if (negative)
			i++;
		digits = i;
		while (i < len && text[i] >= '0' && text[i] <= '9')
			i++;
		/* Fractions and exponents make a double, rejected later. */
		if (i < len && strchr(".eE", text[i]) && text[i]) {
			while (i < len && text[i] && strchr("0123456789.eE+-", text[i]))
				i++;
			continue;
		}
		if (!fits_64(text + digits, i - digits, negative))
			return fail_at(je, text, start,
				       "integer out of range (more than 64 bits)");
	}
	return 0;
}

static bool all_space(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!strchr(" \t\r\n", s[i]) || !s[i])
			return false;
	return true;
}

/* What a file must be before json-c sees it. */
static int check_text(const struct ujs_json_err *je, const char *text, size_t len)
{
	const char *nul;

	if (len > UJS_JSON_MAX_SIZE)
		return ujs_json_fail_file(je, "file too large (more than %u MiB)",
					  UJS_JSON_MAX_SIZE >> 20);
	if (all_space(text, len))
		return ujs_json_fail_file(je, "empty file (expected a JSON object)");
	nul = memchr(text, '\0', len);
	if (nul)
		return fail_at(je, text, nul - text, "JSON syntax error: NUL byte");
	return 0;
}

/* json-c's strict parse of @text; *@end: where it stopped. */
static enum json_tokener_error tokenize(struct json_tokener *tok,
					const char *text, size_t len,
					struct json_object **root, size_t *end)
{
	enum json_tokener_error jerr;

	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	*root = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	*end = json_tokener_get_parse_end(tok);
	if (jerr == json_tokener_continue) {
		/* A NUL ends the input: completes a final number, or fails. */
		*root = json_tokener_parse_ex(tok, "", 1);
		jerr = json_tokener_get_error(tok);
		*end = len;
	}
	/* json-c stops after the bad byte of a UTF-8 error: point at it. */
	if (jerr == json_tokener_error_parse_utf8_string && *end)
		(*end)--;
	return jerr;
}

/* What json-c accepted that a policy may not be; frees *@root then. */
static int check_parsed(const struct ujs_json_err *je, const char *text,
			size_t len, size_t end, struct json_object **root)
{
	int ret = 0;

	if (end < len && !all_space(text + end, len - end))
		ret = fail_at(je, text, end,
			      "JSON syntax error: data after the JSON value");
	else if (check_int_ranges(je, text, len))
		ret = -1;
	if (ret) {
		json_object_put(*root);
		*root = NULL;
	}
	return ret;
}

int ujs_json_parse(const struct ujs_json_err *je, const char *text, size_t len,
		   struct json_object **root)
{
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	size_t end;

	if (check_text(je, text, len))
		return -1;
	tok = json_tokener_new();
	if (!tok)
		return ujs_json_fail_file(je, "out of memory");
	jerr = tokenize(tok, text, len, root, &end);
	json_tokener_free(tok);
	if (jerr != json_tokener_success)
		return fail_at(je, text, end, "JSON syntax error: %s",
			       json_tokener_error_desc(jerr));
	return check_parsed(je, text, len, end, root);
}

/* ---- typed getters ---- */

static const char *type_desc(struct json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return "a boolean";
	case json_type_double:
		return "a number with a fraction or exponent";
	case json_type_int:
		return "an integer";
	case json_type_string:
		return "a string";
	case json_type_array:
		return "an array";
	case json_type_object:
		return "an object";
	}
	return "an unknown JSON type";
}

int ujs_json_get_object(const struct ujs_json_err *je, const char *path,
			struct json_object *o, const char *what)
{
	if (!json_object_is_type(o, json_type_object))
		return ujs_json_fail(je, path, "expected %s, found %s", what,
				     type_desc(o));
	return 0;
}

/* A string without NUL bytes (C sees the rest as not there). */
static bool plain_string(struct json_object *o)
{
	return strlen(json_object_get_string(o)) ==
	       (size_t)json_object_get_string_len(o);
}

int ujs_json_get_string(const struct ujs_json_err *je, const char *path,
			struct json_object *o, const char **out)
{
	if (!json_object_is_type(o, json_type_string))
		return ujs_json_fail(je, path, "expected a string, found %s",
				     type_desc(o));
	*out = json_object_get_string(o);
	if (!plain_string(o))
		return ujs_json_fail(je, path, "string contains a NUL character");
	return 0;
}

int ujs_json_get_int(const struct ujs_json_err *je, const char *path,
		     struct json_object *o, int64_t min, int64_t max,
		     int64_t *out)
{
	int64_t v;

	if (!json_object_is_type(o, json_type_int))
		return ujs_json_fail(je, path, "expected an integer, found %s",
				     type_desc(o));
	v = json_object_get_int64(o);
	if (v < min || v > max) {
		/* json-c stops int64 at INT64_MAX; show the real value. */
		if (v >= 0)
			return ujs_json_fail(je, path, "%" PRIu64 " is out of range (%" PRId64 "..%" PRId64 ")",
					     json_object_get_uint64(o), min, max);
		return ujs_json_fail(je, path, "%" PRId64 " is out of range (%" PRId64 "..%" PRId64 ")",
				     v, min, max);
	}
	*out = v;
	return 0;
}

static bool parse_hex64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	size_t n;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	s += 2;
	n = strspn(s, "0123456789abcdefABCDEF");
	/* Leading zeros are fine; more than 64 significant bits are not. */
	while (n > 16 && *s == '0') {
		s++;
		n--;
	}
	if (n == 0 || n > 16 || s[n])
		return false;
	for (; *s; s++) {
		unsigned int d = *s <= '9' ? *s - '0' : (*s | 0x20) - 'a' + 10;

		v = v << 4 | d;
	}
	*out = v;
	return true;
}

int ujs_json_get_u64(const struct ujs_json_err *je, const char *path,
		     struct json_object *o, uint64_t *out)
{
	const char *s;
	int64_t v;

	switch (json_object_get_type(o)) {
	case json_type_int:
		v = json_object_get_int64(o);
		*out = v < 0 ? (uint64_t)v : json_object_get_uint64(o);
		return 0;
	case json_type_string:
		s = json_object_get_string(o);
		if (plain_string(o) && parse_hex64(s, out))
			return 0;
		return ujs_json_fail(je, path, "\"%s\" is not a 64-bit \"0x...\" hex number", s);
	default:
		return ujs_json_fail(je, path, "expected a 64-bit integer or a \"0x...\" hex string, found %s",
				     type_desc(o));
	}
}

int ujs_json_require(const struct ujs_json_err *je, const char *path,
		     struct json_object *obj, const char *key,
		     struct json_object **out)
{
	if (!json_object_object_get_ex(obj, key, out))
		return ujs_json_fail(je, path, "missing \"%s\"", key);
	return 0;
}

static bool key_listed(const char *key, const char *const *keys)
{
	for (; *keys; keys++)
		if (!strcmp(key, *keys))
			return true;
	return false;
}

int ujs_json_check_keys(const struct ujs_json_err *je, const char *path,
			struct json_object *obj, const char *const *keys,
			const char *expected)
{
	struct json_object_iterator it = json_object_iter_begin(obj);
	struct json_object_iterator end = json_object_iter_end(obj);

	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *key = json_object_iter_peek_name(&it);

		if (strcmp(key, "comment") && !key_listed(key, keys))
			return ujs_json_fail(je, path, "unknown key \"%s\" (expected %s)",
					     key, expected);
	}
	return 0;
}

/* ---- arrays ---- */

int ujs_json_array(const struct ujs_json_err *je, const char *path,
		   struct json_object *o, const char *what,
		   struct ujs_json_array *arr)
{
	memset(arr, 0, sizeof(*arr));
	if (!json_object_is_type(o, json_type_array))
		return ujs_json_fail(je, path, "expected %s, found %s", what,
				     type_desc(o));
	arr->a = o;
	arr->path = path;
	arr->n = json_object_array_length(o);
	return 0;
}

bool ujs_json_next(struct ujs_json_array *arr, struct json_object **elem)
{
	if (arr->next >= arr->n)
		return false;
	arr->index = arr->next++;
	ujs_json_path_index(arr->elem_path, arr->path, arr->index);
	*elem = json_object_array_get_idx(arr->a, arr->index);
	return true;
}
