/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strict JSON input for the policy parser (internal): a file read with a
 * size cap, json-c parsing with "FILE:LINE:COLUMN:" syntax errors and a
 * scan for integers json-c would clamp, and typed getters whose errors
 * name the value by its JSON path ("FILE: PATH: message").
 */
#ifndef UJS_JSON_INPUT_H
#define UJS_JSON_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#define UJS_JSON_MAX_SIZE	(16U << 20)
#define UJS_JSON_PATH_LEN	128	/* "syscalls[N].args[N].valueTwo" and the like */

/* Where the messages go, and the file they name. */
struct ujs_json_err {
	const char *file;
	char *buf;
	size_t len;
};

/* "FILE: PATH: message" in @je's buffer; returns -1. */
__attribute__((format(printf, 3, 4)))
int ujs_json_fail(const struct ujs_json_err *je, const char *path,
		  const char *fmt, ...);
/* The same text as a line on @out (none when NULL). */
__attribute__((format(printf, 4, 5)))
void ujs_json_warn(const struct ujs_json_err *je, FILE *out, const char *path,
		   const char *fmt, ...);
/* About the file as a whole: "FILE: message"; returns -1. */
__attribute__((format(printf, 2, 3)))
int ujs_json_fail_file(const struct ujs_json_err *je, const char *fmt, ...);

/* @buf (UJS_JSON_PATH_LEN) = "PARENT.KEY" or "PARENT[I]". */
void ujs_json_path_key(char *buf, const char *parent, const char *key);
void ujs_json_path_index(char *buf, const char *parent, size_t i);

/*
 * The whole file @je->file, at most UJS_JSON_MAX_SIZE + 1 bytes (so that
 * ujs_json_parse() sees "too large"), NUL-terminated, malloc'ed.
 */
int ujs_json_read_file(const struct ujs_json_err *je, char **text, size_t *len);
/* @len bytes of @text parsed strictly (no comments, no trailing commas). */
int ujs_json_parse(const struct ujs_json_err *je, const char *text, size_t len,
		   struct json_object **root);

/*
 * Typed getters: each fails with the path of the value. @what names the
 * expected kind in the message ("an array of strings").
 */
int ujs_json_get_object(const struct ujs_json_err *je, const char *path,
			struct json_object *o, const char *what);
int ujs_json_get_string(const struct ujs_json_err *je, const char *path,
			struct json_object *o, const char **out);
/* An integer in [@min, @max]. */
int ujs_json_get_int(const struct ujs_json_err *je, const char *path,
		     struct json_object *o, int64_t min, int64_t max,
		     int64_t *out);
/* Up to UINT64_MAX, a negative one as its two's complement, or "0x...". */
int ujs_json_get_u64(const struct ujs_json_err *je, const char *path,
		     struct json_object *o, uint64_t *out);
/* The value of @key, which @obj (at @path) must have. */
int ujs_json_require(const struct ujs_json_err *je, const char *path,
		     struct json_object *obj, const char *key,
		     struct json_object **out);
/*
 * Every key of @obj must be in @keys (NULL-terminated) or be "comment";
 * @expected lists them for the message.
 */
int ujs_json_check_keys(const struct ujs_json_err *je, const char *path,
			struct json_object *obj, const char *const *keys,
			const char *expected);

/* An array being walked: its elements one by one, each with its path. */
struct ujs_json_array {
	struct json_object *a;
	const char *path;
	size_t n;				/* elements */
	size_t next;
	size_t index;				/* of the current element */
	char elem_path[UJS_JSON_PATH_LEN];	/* and its path */
};

/* @o (at @path) must be an array: @arr is ready to walk it. */
int ujs_json_array(const struct ujs_json_err *je, const char *path,
		   struct json_object *o, const char *what,
		   struct ujs_json_array *arr);
/* The next element in *@elem (NULL for a JSON null); false at the end. */
bool ujs_json_next(struct ujs_json_array *arr, struct json_object **elem);

#endif
