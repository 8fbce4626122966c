// SPDX-License-Identifier: GPL-2.0
/*
 * A small, strict parser for /etc/cmm-mp/cmm-mp.conf:
 *
 *	# comment (also after a value)
 *	[pool]
 *	mem = 512M$0x60000000	# cmm_mp mem=, memmap= grammar (required
 *				# to load the module)
 *	seg_size = 128M		# cmm_mp seg_size=
 *	chip_id = 0x525400000001	# cmm_mp chip_id=
 *	backend = eth0		# load mp_eth with netdev=eth0
 *	hotplug = yes		# apply a segment's section when its device
 *				# appears (yes | no, default no)
 *
 *	[segments 0,1]		# a segment list, as mpctl takes it
 *	online = yes		# yes | no (default yes)
 *	zone = movable		# movable | normal (default movable)
 *
 * Anything else is an error naming its line: unknown sections and keys,
 * a key given twice, a segment named by two sections, malformed values,
 * control characters, over-long lines. Nothing is guessed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "config.h"
#include "mp_seg.h"

enum section { SEC_NONE, SEC_POOL, SEC_SEGMENTS };

#define MEM_GRAMMAR	"SIZE$BASE or SIZE!BASE (e.g. 512M$0x60000000)"
#define POOL_KEYS	"mem, seg_size, chip_id, backend or hotplug"

/* Where each key was seen (0: not yet), to refuse duplicates. */
enum pool_key { PK_MEM, PK_SEG_SIZE, PK_CHIP_ID, PK_BACKEND, PK_HOTPLUG,
		PK_NR };
enum seg_key { SK_ONLINE, SK_ZONE, SK_NR };

static const char * const pool_keys[PK_NR] = {
	[PK_MEM] = "mem", [PK_SEG_SIZE] = "seg_size",
	[PK_CHIP_ID] = "chip_id", [PK_BACKEND] = "backend",
	[PK_HOTPLUG] = "hotplug",
};

static const char * const seg_keys[SK_NR] = {
	[SK_ONLINE] = "online", [SK_ZONE] = "zone",
};

struct parser {
	struct mpctl_config *c;
	char *err;
	size_t errlen;
	unsigned int line;

	enum section sec;
	unsigned int pool_line;		/* of [pool], 0 when none yet */
	unsigned int pool_seen[PK_NR];

	/* the [segments ...] section being read */
	struct mpctl_seglist list;
	unsigned int seg_line;
	unsigned int seg_seen[SK_NR];
	bool online;
	enum mpctl_zone zone;
	size_t alloc;
};

__attribute__((format(printf, 2, 3)))
static int perr(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(p->err, p->errlen, "%u: ", p->line);
	if (n >= 0 && (size_t)n < p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err + n, p->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int cmp_seg(const void *a, const void *b)
{
	const struct mpctl_config_seg *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/**
 * mpctl_config_find() - the configuration of one segment
 * @c: a parsed configuration
 * @id: segment id
 *
 * Return: the entry, or NULL when no [segments] section names @id.
 */
const struct mpctl_config_seg *mpctl_config_find(const struct mpctl_config *c,
						 uint32_t id)
{
	struct mpctl_config_seg key = { .id = id };

	if (!c->nr_segs)
		return NULL;
	return bsearch(&key, c->segs, c->nr_segs, sizeof(key), cmp_seg);
}

const char *mpctl_zone_name(enum mpctl_zone zone)
{
	return zone == MPCTL_ZONE_NORMAL ? "normal" : "movable";
}

/* Close the [segments ...] section being read: add its ids. */
static int end_segments(struct parser *p)
{
	struct mpctl_config *c = p->c;
	size_t i;

	if (p->sec != SEC_SEGMENTS)
		return 0;
	p->sec = SEC_NONE;
	if (p->seg_seen[SK_ZONE] && !p->online) {
		p->line = p->seg_seen[SK_ZONE];
		return perr(p, "'zone' given for segments that stay offline");
	}
	for (i = 0; i < p->list.nr; i++) {
		struct mpctl_config_seg *s = &c->segs[c->nr_segs++];

		s->id = p->list.ids[i];
		s->online = p->online;
		s->zone = p->zone;
		s->line = p->seg_line;
	}
	qsort(c->segs, c->nr_segs, sizeof(*c->segs), cmp_seg);
	mpctl_seglist_free(&p->list);
	return 0;
}

static int start_segments(struct parser *p, const char *list)
{
	struct mpctl_config *c = p->c;
	const struct mpctl_config_seg *dup;
	const char *bad;
	size_t i;
	int rc;

	while (*list == ' ' || *list == '\t')
		list++;
	if (!*list)
		return perr(p, "[segments] needs a segment list, e.g. [segments 0-3]");
	if (!strcmp(list, "all"))
		return perr(p, "[segments all] is not allowed: name the segments");
	rc = mpctl_seglist_parse(&p->list, list, &bad);
	if (rc == -EEXIST)
		return perr(p, "segment list '%s' names a segment twice, at '%s'",
			    list, bad);
	if (rc == -EDOM)
		return perr(p, "segment list '%s': range '%.*s' goes down",
			    list, (int)strcspn(bad, ","), bad);
	if (rc == -ERANGE)
		return perr(p, "segment list '%s': id too big at '%s'", list,
			    bad);
	if (rc == -E2BIG)
		return perr(p, "segment list '%s' is too long (max %u)", list,
			    MPCTL_SEGLIST_MAX);
	if (rc == -ENOMEM)
		return rc;
	if (rc)
		return perr(p, "invalid segment list '%s' at '%s'", list, bad);

	for (i = 0; i < p->list.nr; i++) {
		dup = mpctl_config_find(c, p->list.ids[i]);
		if (dup)
			return perr(p, "segment %u is already configured at line %u",
				    dup->id, dup->line);
	}
	if (c->nr_segs + p->list.nr > MPCTL_SEGLIST_MAX)
		return perr(p, "more than %u segments configured",
			    MPCTL_SEGLIST_MAX);
	if (c->nr_segs + p->list.nr > p->alloc) {
		size_t n = c->nr_segs + p->list.nr;
		struct mpctl_config_seg *v = realloc(c->segs, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		c->segs = v;
		p->alloc = n;
	}
	p->sec = SEC_SEGMENTS;
	p->seg_line = p->line;
	memset(p->seg_seen, 0, sizeof(p->seg_seen));
	p->online = true;
	p->zone = MPCTL_ZONE_MOVABLE;
	return 0;
}

/* "[...]" with the brackets already checked; @name is what is inside. */
static int parse_header(struct parser *p, char *name)
{
	size_t n = strlen(name);
	int rc;

	rc = end_segments(p);
	if (rc)
		return rc;
	while (n && (name[n - 1] == ' ' || name[n - 1] == '\t'))
		name[--n] = '\0';
	while (*name == ' ' || *name == '\t')
		name++;
	if (!strcmp(name, "pool")) {
		if (p->pool_line)
			return perr(p, "duplicate [pool] section (first at line %u)",
				    p->pool_line);
		p->pool_line = p->line;
		p->sec = SEC_POOL;
		return 0;
	}
	if (!strncmp(name, "segments", 8) &&
	    (!name[8] || name[8] == ' ' || name[8] == '\t'))
		return start_segments(p, name + 8);
	return perr(p, "unknown section [%s] (expected [pool] or [segments LIST])",
		    name);
}

/* A whole-string u64, decimal or 0x-hex, no sign, no suffix. */
static int parse_u64(const char *s, uint64_t *v)
{
	unsigned long long x;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno)
		return -errno;
	if (*end)
		return -EINVAL;
	*v = x;
	return 0;
}

/* What a netdev name may be here: what the kernel takes, and plain. */
static bool valid_ifname(const char *s)
{
	size_t i, n = strlen(s);

	if (!n || n >= MPCTL_IFNAMSIZ || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (i = 0; i < n; i++) {
		char ch = s[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' ||
		      ch == '.'))
			return false;
	}
	return true;
}

/* yes/true or no/false; -EINVAL otherwise */
static int parse_bool(const char *v, bool *b)
{
	if (!strcmp(v, "yes") || !strcmp(v, "true"))
		*b = true;
	else if (!strcmp(v, "no") || !strcmp(v, "false"))
		*b = false;
	else
		return -EINVAL;
	return 0;
}

static int pool_value(struct parser *p, enum pool_key k, const char *v)
{
	struct mpctl_config *c = p->c;
	struct mp_range r;
	const char *end;
	uint64_t x;
	u64 size;
	int rc;

	switch (k) {
	case PK_MEM:
		if (strlen(v) >= sizeof(c->mem))
			return perr(p, "mem '%.20s...' is too long", v);
		rc = mp_parse_range(v, &r);
		if (rc)
			return perr(p, "mem '%s' is not " MEM_GRAMMAR, v);
		snprintf(c->mem, sizeof(c->mem), "%s", v);
		c->has_mem = true;
		c->mem_base = r.base;
		c->mem_size = r.size;
		c->mem_pmem = r.kind == MP_RANGE_PMEM;
		return 0;
	case PK_SEG_SIZE:
		rc = mp_parse_size(v, &size, &end);
		if (rc || *end)
			return perr(p, "seg_size '%s' is not a size (e.g. 128M)", v);
		if (!size)
			return perr(p, "seg_size must not be 0");
		c->seg_size = size;
		return 0;
	case PK_CHIP_ID:
		if (parse_u64(v, &x))
			return perr(p, "chip_id '%s' is not a number (decimal or 0x hex)",
				    v);
		c->chip_id = x;
		c->has_chip_id = true;
		return 0;
	case PK_BACKEND:
		if (!valid_ifname(v))
			return perr(p, "backend '%s' is not a network interface name",
				    v);
		snprintf(c->backend, sizeof(c->backend), "%s", v);
		return 0;
	case PK_HOTPLUG:
		if (parse_bool(v, &c->hotplug))
			return perr(p, "hotplug '%s' is not yes or no", v);
		return 0;
	default:
		return -EINVAL;
	}
}

static int seg_value(struct parser *p, enum seg_key k, const char *v)
{
	switch (k) {
	case SK_ONLINE:
		if (parse_bool(v, &p->online))
			return perr(p, "online '%s' is not yes or no", v);
		return 0;
	case SK_ZONE:
		if (!strcmp(v, "movable"))
			p->zone = MPCTL_ZONE_MOVABLE;
		else if (!strcmp(v, "normal"))
			p->zone = MPCTL_ZONE_NORMAL;
		else
			return perr(p, "zone '%s' is not movable or normal", v);
		return 0;
	default:
		return -EINVAL;
	}
}

static int find_key(const char * const *keys, int nr, const char *k)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(keys[i], k))
			return i;
	return -1;
}

static int assignment(struct parser *p, char *s)
{
	char *eq = strchr(s, '='), *k = s, *v, *e;
	unsigned int *seen;
	int i;

	if (!eq)
		return perr(p, "expected 'key = value', [pool] or [segments LIST]");
	*eq = '\0';
	v = eq + 1;
	for (e = eq; e > k && (e[-1] == ' ' || e[-1] == '\t'); e--)
		e[-1] = '\0';
	while (*v == ' ' || *v == '\t')
		v++;
	if (!*k)
		return perr(p, "missing key before '='");
	if (strpbrk(k, " \t"))
		return perr(p, "key '%s' must be one word", k);
	if (!*v)
		return perr(p, "missing value for '%s'", k);
	if (strpbrk(v, " \t="))
		return perr(p, "value of '%s' must be one word: '%s'", k, v);

	switch (p->sec) {
	case SEC_POOL:
		i = find_key(pool_keys, PK_NR, k);
		if (i < 0)
			return perr(p, "unknown key '%s' in [pool] (expected " POOL_KEYS ")",
				    k);
		seen = &p->pool_seen[i];
		break;
	case SEC_SEGMENTS:
		i = find_key(seg_keys, SK_NR, k);
		if (i < 0)
			return perr(p, "unknown key '%s' in [segments] (expected online or zone)",
				    k);
		seen = &p->seg_seen[i];
		break;
	default:
		return perr(p, "'%s' outside a section (start with [pool] or [segments LIST])",
			    k);
	}
	if (*seen)
		return perr(p, "duplicate key '%s' (first at line %u)", k, *seen);
	*seen = p->line;
	return p->sec == SEC_POOL ? pool_value(p, i, v) : seg_value(p, i, v);
}

/* One line, without its '\n'; @s is a writable copy. */
static int one_line(struct parser *p, char *s)
{
	char *hash, *e;
	size_t n;

	for (e = s; *e; e++) {
		if (*e == '\r')
			return perr(p, "carriage return (DOS line ending?)");
		if ((*e < ' ' && *e != '\t') || *e == 0x7f)
			return perr(p, "control character 0x%02x",
				    (unsigned char)*e);
	}
	hash = strchr(s, '#');
	if (hash)
		*hash = '\0';
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return 0;
	if (*s == '[') {
		n = strlen(s);
		if (s[n - 1] != ']')
			return perr(p, "section header without a closing ']'");
		s[n - 1] = '\0';
		return parse_header(p, s + 1);
	}
	return assignment(p, s);
}

/* Checks that need the whole file. */
static int finish(struct parser *p)
{
	struct mpctl_config *c = p->c;
	uint64_t seg = c->seg_size;

	if (c->has_mem && seg && c->mem_size % seg) {
		p->line = p->pool_seen[PK_SEG_SIZE];
		return perr(p, "mem size %llu is not a whole number of %llu-byte segments",
			    (unsigned long long)c->mem_size,
			    (unsigned long long)seg);
	}
	if (seg && !c->has_mem) {
		p->line = p->pool_seen[PK_SEG_SIZE];
		return perr(p, "seg_size without mem");
	}
	if (c->has_chip_id && !c->has_mem) {
		p->line = p->pool_seen[PK_CHIP_ID];
		return perr(p, "chip_id without mem");
	}
	return 0;
}

/**
 * mpctl_config_parse() - parse a configuration held in memory
 * @c: result; release with mpctl_config_free() (also after an error)
 * @text: the file's contents (need not end in a newline or a NUL)
 * @len: its length
 * @err: on -EINVAL, "LINE: what is wrong"
 * @errlen: size of @err (MPCTL_CONFIG_ERR_MAX is enough)
 *
 * Return: 0, -EINVAL (the text is wrong, @err says where), -EFBIG (over
 * MPCTL_CONFIG_SIZE_MAX), -ENOMEM.
 */
int mpctl_config_parse(struct mpctl_config *c, const char *text, size_t len,
		       char *err, size_t errlen)
{
	struct parser p = { .c = c, .err = err, .errlen = errlen };
	char buf[MPCTL_CONFIG_LINE_MAX + 1];
	size_t off = 0;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	if (errlen)
		err[0] = '\0';
	if (len > MPCTL_CONFIG_SIZE_MAX) {
		snprintf(err, errlen, "bigger than %d bytes",
			 MPCTL_CONFIG_SIZE_MAX);
		return -EFBIG;
	}
	while (off < len) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t n = (nl ? (size_t)(nl - text) : len) - off;

		p.line++;
		if (n > MPCTL_CONFIG_LINE_MAX) {
			rc = perr(&p, "line longer than %d bytes",
				  MPCTL_CONFIG_LINE_MAX);
			break;
		}
		if (memchr(text + off, '\0', n)) {
			rc = perr(&p, "NUL byte");
			break;
		}
		memcpy(buf, text + off, n);
		buf[n] = '\0';
		rc = one_line(&p, buf);
		if (rc)
			break;
		off += n + 1;
	}
	if (!rc)
		rc = end_segments(&p);
	if (!rc)
		rc = finish(&p);
	mpctl_seglist_free(&p.list);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s", strerror(ENOMEM));
	return rc;
}

/**
 * mpctl_config_load() - read and parse a configuration file
 * @c: result; release with mpctl_config_free() (also after an error)
 * @path: the file
 * @err: on error, "PATH:LINE: what is wrong" or "PATH: strerror"
 * @errlen: size of @err
 *
 * Return: 0 or a negative errno (-EINVAL: the contents are wrong).
 */
int mpctl_config_load(struct mpctl_config *c, const char *path, char *err,
		      size_t errlen)
{
	char msg[MPCTL_CONFIG_ERR_MAX];
	struct stat st;
	size_t len;
	char *text;
	ssize_t n;
	int fd, rc;

	memset(c, 0, sizeof(*c));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	if (fstat(fd, &st)) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		close(fd);
		return rc;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	if (st.st_size > MPCTL_CONFIG_SIZE_MAX) {
		snprintf(err, errlen, "%s: bigger than %d bytes", path,
			 MPCTL_CONFIG_SIZE_MAX);
		close(fd);
		return -EFBIG;
	}
	/* One byte more than allowed, to notice a file that grew. */
	text = malloc(MPCTL_CONFIG_SIZE_MAX + 1);
	if (!text) {
		close(fd);
		snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		return -ENOMEM;
	}
	len = 0;
	rc = 0;
	while (len <= MPCTL_CONFIG_SIZE_MAX) {
		n = read(fd, text + len, MPCTL_CONFIG_SIZE_MAX + 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			rc = -errno;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (rc) {
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
	} else {
		rc = mpctl_config_parse(c, text, len, msg, sizeof(msg));
		if (rc == -EINVAL)
			snprintf(err, errlen, "%s:%s", path, msg);
		else if (rc)
			snprintf(err, errlen, "%s: %s", path, msg);
	}
	free(text);
	return rc;
}

void mpctl_config_free(struct mpctl_config *c)
{
	free(c->segs);
	c->segs = NULL;
	c->nr_segs = 0;
}
