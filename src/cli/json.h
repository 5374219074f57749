/*
 * json.h -- a small, strict-enough JSON reader for the `warpsim` tool.
 *
 * Models no hardware.  `warpsim collect` and `warpsim report` read the
 * statistics files that wsStatsWriteJSON writes (plus the "job" object that
 * `warpsim sweep` adds in front).  This reader parses any RFC 8259 JSON text
 * into a tree; numbers keep their literal text, so values are copied to CSV
 * exactly as the simulator printed them.  Malformed input is an error with
 * its line and column, never a crash; nesting deeper than JSON_MAX_DEPTH is
 * refused.
 */
#ifndef WARPSIM_CLI_JSON_H
#define WARPSIM_CLI_JSON_H

#include <stddef.h>

#define JSON_MAX_DEPTH 64

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	char *str;           /* STRING: decoded text (UTF-8); NUMBER: the literal as written */
	double num;          /* NUMBER: its value; BOOL: 0 or 1 */
	int n;               /* ARRAY / OBJECT: number of elements / members */
	char **keys;         /* OBJECT: member names, in document order */
	struct json *items;  /* ARRAY elements / OBJECT member values */
};

/* Parse len bytes of text.  Returns a tree (free with json_free), or NULL
 * with "line L, column C: why" in err.  Trailing whitespace is allowed,
 * anything else after the value is an error. */
struct json *json_parse(const char *text, size_t len, char *err, size_t errsz);
/* Read and parse a whole file; NULL with the reason (prefixed by the path) in err. */
struct json *json_parse_file(const char *path, char *err, size_t errsz);
void json_free(struct json *j);

/* Member `key` of an object (the last one if repeated), or NULL. */
const struct json *json_get(const struct json *obj, const char *key);
/* Text of a string member, or NULL if absent or not a string. */
const char *json_get_str(const struct json *obj, const char *key);

#endif
