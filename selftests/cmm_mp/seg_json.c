// SPDX-License-Identifier: GPL-2.0
/*
 * seg_json: parse what `mpctl list` printed (stdin) and sum it up, for the
 * scenarios of thousands of segments (many.sh), whose guests have no jq.
 *
 *   mpctl list | seg_json
 *
 * The input must be one JSON array of objects, each with an integer
 * "segment". Prints one line:
 *
 *   segments=N first=F last=L unique=0|1 bytes=B devnodes=D <state>=K...
 *
 * unique=1 when no id repeats; bytes sums "size"; devnodes counts
 * "devnode"; then each state with its count. Exit: 0, 1 for input that
 * is not such an array (said on stderr), 2 for a usage error.
 */
#include <ctype.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STATES	8

struct tally {
	const char *name[MAX_STATES];
	unsigned long count[MAX_STATES];
	unsigned int nr;
};

static void tally_add(struct tally *t, const char *name)
{
	unsigned int i;

	for (i = 0; i < t->nr; i++) {
		if (!strcmp(t->name[i], name)) {
			t->count[i]++;
			return;
		}
	}
	if (t->nr < MAX_STATES) {
		t->name[t->nr] = name;
		t->count[t->nr++] = 1;
	}
}

static int only_space(const char *s, size_t n)
{
	for (; n; s++, n--)
		if (!isspace((unsigned char)*s))
			return 0;
	return 1;
}

/* The whole of stdin, parsed as one JSON value; NULL (said why) if not. */
static struct json_object *read_json(void)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *obj = NULL;
	enum json_tokener_error err = json_tokener_continue;
	char buf[65536];
	size_t n;

	if (!tok)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0) {
		obj = json_tokener_parse_ex(tok, buf, (int)n);
		err = json_tokener_get_error(tok);
		if (err != json_tokener_continue)
			break;
	}
	if (err == json_tokener_success &&
	    !only_space(buf + json_tokener_get_parse_end(tok),
			n - json_tokener_get_parse_end(tok))) {
		fprintf(stderr, "seg_json: text after the JSON value\n");
		json_object_put(obj);
		obj = NULL;
	} else if (err != json_tokener_success) {
		fprintf(stderr, "seg_json: not JSON: %s\n",
			json_tokener_error_desc(err));
		obj = NULL;
	}
	json_tokener_free(tok);
	return obj;
}

int main(int argc, char **argv)
{
	struct json_object *arr, *o, *v;
	struct tally states = { .nr = 0 };
	uint64_t first = 0, last = 0, bytes = 0;
	unsigned long devnodes = 0;
	unsigned char *seen;
	size_t i, nr;
	int unique = 1;

	if (argc != 1) {
		fprintf(stderr, "usage: mpctl list | seg_json\n");
		return 2;
	}
	arr = read_json();
	if (!arr)
		return 1;
	if (!json_object_is_type(arr, json_type_array)) {
		fprintf(stderr, "seg_json: not a JSON array\n");
		return 1;
	}
	nr = json_object_array_length(arr);
	seen = calloc(nr ? nr : 1, 1);
	if (!seen)
		return 1;
	for (i = 0; i < nr; i++) {
		uint64_t id;

		o = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, "segment", &v) ||
		    !json_object_is_type(v, json_type_int)) {
			fprintf(stderr, "seg_json: element %zu has no \"segment\"\n",
				i);
			return 1;
		}
		id = (uint64_t)json_object_get_int64(v);
		if (!i || id < first)
			first = id;
		if (!i || id > last)
			last = id;
		/* ids of a pool listed whole are 0..N-1 when unique */
		if (id >= nr || seen[id]++)
			unique = 0;
		if (json_object_object_get_ex(o, "size", &v))
			bytes += (uint64_t)json_object_get_int64(v);
		if (json_object_object_get_ex(o, "devnode", &v))
			devnodes++;
		if (json_object_object_get_ex(o, "state", &v))
			tally_add(&states, json_object_get_string(v));
	}
	printf("segments=%zu first=%llu last=%llu unique=%d bytes=%llu devnodes=%lu",
	       nr, (unsigned long long)first, (unsigned long long)last,
	       unique, (unsigned long long)bytes, devnodes);
	for (i = 0; i < states.nr; i++)
		printf(" %s=%lu", states.name[i], states.count[i]);
	printf("\n");
	free(seen);
	json_object_put(arr);
	return 0;
}
