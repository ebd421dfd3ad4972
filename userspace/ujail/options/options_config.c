/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --config FILE: a JSON jail file. Its keys are the option table's
 * json_key; each value goes through the same setters as the command line,
 * and messages name it as "FILE: key[i].sub".
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <json-c/json_object_iterator.h>

#include "options/options_int.h"

#define MAX_CONFIG_SIZE (1 << 20)

static int json_text(struct json_object *v, const char *where, const char **text)
{
	if (!json_object_is_type(v, json_type_string))
		return opt_fail(where, "expected a string");
	*text = json_object_get_string(v);
	if ((size_t)json_object_get_string_len(v) != strlen(*text))
		return opt_fail(where, "contains a NUL character");
	return 0;
}

/* Calls @fn for each key of object @obj; @fn sees "WHERE.KEY". */
typedef int (*member_fn)(void *ctx, const char *key, struct json_object *v,
			 const char *where);

static int each_member(struct json_object *obj, const char *where,
		       member_fn fn, void *ctx)
{
	struct json_object_iterator it = json_object_iter_begin(obj);
	struct json_object_iterator end = json_object_iter_end(obj);
	char sub[WHERE_MAX];

	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *key = json_object_iter_peek_name(&it);

		opt_where(sub, "%s.%s", where, key);
		if (fn(ctx, key, json_object_iter_peek_value(&it), sub))
			return -1;
	}
	return 0;
}

/* {"src": ..., "dst": ...} */
struct path_object {
	struct json_object *src, *dst;
};

static int path_member(void *ctx, const char *key, struct json_object *v,
		       const char *where)
{
	struct path_object *p = ctx;

	if (!strcmp(key, "src"))
		p->src = v;
	else if (!strcmp(key, "dst"))
		p->dst = v;
	else
		return opt_fail(where, "unknown key");
	return 0;
}

static int stage_object(struct jail_opts *o, struct json_object *obj,
			bool writable, const char *where)
{
	struct path_object p = { NULL, NULL };
	char sub[WHERE_MAX];
	const char *text;
	char *src, *dst;

	if (each_member(obj, where, path_member, &p))
		return -1;
	if (!p.src)
		return opt_fail(where, "\"src\" is missing");
	opt_where(sub, "%s.src", where);
	if (json_text(p.src, sub, &text) || opt_check_path(text, NULL, sub, &src))
		return -1;
	opt_where(sub, "%s.dst", where);
	if (!p.dst)
		dst = strdup(src);
	else if (json_text(p.dst, sub, &text) || opt_check_path(text, NULL, sub, &dst)) {
		free(src);
		return -1;
	}
	if (!dst) {
		free(src);
		return opt_oom();
	}
	return opt_stage(o, src, dst, writable, where);
}

/* {"pid": N, "namespaces": [...]}, procd's own "setns" entry */
struct join_object {
	struct json_object *pid, *namespaces;
};

static int join_member(void *ctx, const char *key, struct json_object *v,
		       const char *where)
{
	struct join_object *j = ctx;

	if (!strcmp(key, "pid"))
		j->pid = v;
	else if (!strcmp(key, "namespaces"))
		j->namespaces = v;
	else
		return opt_fail(where, "unknown key");
	return 0;
}

static int join_object(struct jail_opts *o, struct json_object *obj,
		       const char *where)
{
	struct join_object j = { NULL, NULL };
	unsigned int flags = 0;
	char sub[WHERE_MAX];
	int64_t pid;
	size_t n;

	if (each_member(obj, where, join_member, &j))
		return -1;
	if (!j.pid)
		return opt_fail(where, "\"pid\" is missing");
	if (!j.namespaces)
		return opt_fail(where, "\"namespaces\" is missing");
	opt_where(sub, "%s.pid", where);
	pid = json_object_get_int64(j.pid);
	if (!json_object_is_type(j.pid, json_type_int) || pid < 1 || pid > INT_MAX)
		return opt_fail(sub, "expected a process id");
	opt_where(sub, "%s.namespaces", where);
	if (!json_object_is_type(j.namespaces, json_type_array) ||
	    !(n = json_object_array_length(j.namespaces)))
		return opt_fail(sub, "expected a non-empty array of namespace names");
	for (size_t i = 0; i < n; i++) {
		const char *ns;

		opt_where(sub, "%s.namespaces[%zu]", where, i);
		if (json_text(json_object_array_get_idx(j.namespaces, i), sub, &ns) ||
		    opt_join_ns(o, &flags, ns, sub))
			return -1;
	}
	return opt_add_join(o, (pid_t)pid, flags);
}

/* One element of a list key (keep_env, ro, rw, join). */
static int list_element(struct jail_opts *o, const struct opt_spec *s,
			struct json_object *v, const char *where)
{
	bool is_object = json_object_is_type(v, json_type_object);
	bool is_string = json_object_is_type(v, json_type_string);
	bool writable = s->kind == OPT_PATH_RW;
	const char *text;

	switch (s->kind) {
	case OPT_KEEP_ENV:
		if (json_text(v, where, &text))
			return -1;
		return opt_keep_env(o, text, where);
	case OPT_PATH_RO:
	case OPT_PATH_RW:
		if (is_object)
			return stage_object(o, v, writable, where);
		if (!is_string)
			return opt_fail(where,
					"expected \"SRC[:DST]\" or {\"src\": ..., \"dst\": ...}");
		if (json_text(v, where, &text))
			return -1;
		return opt_stage_arg(o, text, writable, where);
	case OPT_JOIN:
		if (is_object)
			return join_object(o, v, where);
		if (!is_string)
			return opt_fail(where, "expected \"PID:NS[,NS...]\" or "
					"{\"pid\": ..., \"namespaces\": [...]}");
		if (json_text(v, where, &text))
			return -1;
		return opt_join_arg(o, text, where);
	default:
		return opt_fail(where, "cannot be a list");
	}
}

static int each_element(struct jail_opts *o, const struct opt_spec *s,
			struct json_object *array, const char *where)
{
	char sub[WHERE_MAX];

	if (!json_object_is_type(array, json_type_array))
		return opt_fail(where, "expected an array");
	for (size_t i = 0; i < json_object_array_length(array); i++) {
		opt_where(sub, "%s[%zu]", where, i);
		if (list_element(o, s, json_object_array_get_idx(array, i), sub))
			return -1;
	}
	return 0;
}

static int json_command(struct jail_opts *o, struct json_object *array,
			const char *where)
{
	const char **args;
	char sub[WHERE_MAX];
	size_t n;
	int ret = 0;

	if (!json_object_is_type(array, json_type_array) ||
	    !(n = json_object_array_length(array)) || n > INT_MAX)
		return opt_fail(where, "expected a non-empty array of strings");
	args = calloc(n, sizeof(*args));
	if (!args)
		return opt_oom();
	for (size_t i = 0; i < n && !ret; i++) {
		opt_where(sub, "%s[%zu]", where, i);
		ret = json_text(json_object_array_get_idx(array, i), sub, &args[i]);
	}
	if (!ret) {
		opt_where(sub, "%s[0]", where);
		ret = opt_set_command(o, args, (int)n, sub);
	}
	free(args);
	return ret;
}

static int apply_json(struct jail_opts *o, const struct opt_spec *s,
		      struct json_object *v, const char *where)
{
	const char *text;
	int64_t n;

	switch (s->kind) {
	case OPT_STRING:
		if (json_text(v, where, &text))
			return -1;
		return opt_set_string(o, s, text, where);
	case OPT_LIMIT:
		/* "pids_max": 20 as well as "memory_max": "16M". */
		if (json_object_is_type(v, json_type_int))
			return opt_set_string(o, s, json_object_get_string(v), where);
		if (!json_object_is_type(v, json_type_string))
			return opt_fail(where, "expected a string or a number");
		if (json_text(v, where, &text))
			return -1;
		return opt_set_string(o, s, text, where);
	case OPT_FLAG:
		if (!json_object_is_type(v, json_type_boolean))
			return opt_fail(where, "expected true or false");
		*opt_flag_member(o, s) = json_object_get_boolean(v);
		return 0;
	case OPT_TIMEOUT:
		n = json_object_get_int64(v);
		if (!json_object_is_type(v, json_type_int) || n < 0 || n > MAX_TIMEOUT)
			return opt_fail(where, "expected a number of seconds from 0 to %d",
					MAX_TIMEOUT);
		o->term_timeout = (unsigned int)n;
		o->timeout_given = true;
		return 0;
	case OPT_COMMAND:
		return json_command(o, v, where);
	default:
		return each_element(o, s, v, where);
	}
}

static int read_config(const char *file, char **text, size_t *len)
{
	FILE *f = fopen(file, "re");
	char *buf;

	if (!f)
		return opt_fail(file, "cannot read: %s", strerror(errno));
	buf = malloc(MAX_CONFIG_SIZE + 1);
	if (!buf) {
		fclose(f);
		return opt_oom();
	}
	*len = fread(buf, 1, MAX_CONFIG_SIZE + 1, f);
	if (ferror(f)) {
		opt_fail(file, "cannot read: %s", strerror(errno));
		goto err;
	}
	if (*len > MAX_CONFIG_SIZE) {
		opt_fail(file, "larger than 1 MiB");
		goto err;
	}
	fclose(f);
	buf[*len] = '\0';
	*text = buf;
	return 0;
err:
	fclose(f);
	free(buf);
	return -1;
}

static unsigned int line_of(const char *text, size_t offset)
{
	unsigned int line = 1;

	for (size_t i = 0; i < offset; i++)
		line += text[i] == '\n';
	return line;
}

/* The JSON value in @text, or NULL after a message with its line. */
static struct json_object *parse_json(const char *file, const char *text, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *root;
	enum json_tokener_error err;
	char where[WHERE_MAX];
	size_t end;

	if (!tok) {
		opt_oom();
		return NULL;
	}
	root = json_tokener_parse_ex(tok, text, (int)len);
	err = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	opt_where(where, "%s: line %u", file, line_of(text, end));
	if (err == json_tokener_continue) {
		opt_fail(file, "invalid JSON: unexpected end of file");
		return NULL;
	}
	if (err != json_tokener_success) {
		opt_fail(where, "invalid JSON: %s", json_tokener_error_desc(err));
		return NULL;
	}
	if (text[end + strspn(text + end, " \t\r\n")]) {
		json_object_put(root);
		opt_fail(where, "invalid JSON: text after the JSON value");
		return NULL;
	}
	return root;
}

int opt_load_config(struct jail_opts *o, const char *file)
{
	struct json_object_iterator it, end;
	struct json_object *root;
	char where[WHERE_MAX];
	char *text = NULL;
	size_t len = 0;
	int ret = -1;

	if (read_config(file, &text, &len))
		return -1;
	root = parse_json(file, text, len);
	free(text);
	if (!root)
		return -1;
	if (!json_object_is_type(root, json_type_object)) {
		opt_fail(file, "expected a JSON object at the top level");
		goto out;
	}
	it = json_object_iter_begin(root);
	end = json_object_iter_end(root);
	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *key = json_object_iter_peek_name(&it);
		const struct opt_spec *s = opt_spec_by_key(key);

		opt_where(where, "%s: %s", file, key);
		if (!s) {
			opt_fail(where, "unknown key");
			goto out;
		}
		if (apply_json(o, s, json_object_iter_peek_value(&it), where))
			goto out;
	}
	ret = 0;
out:
	json_object_put(root);
	return ret;
}
