// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/PID/smaps totals for DVM: identity-mapped bytes (the "DvmIdentity:"
 * lines the DVM patch series adds), areas created identity mapped ("id" in
 * VmFlags) and anonymous memory, one line at a time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dvm_smaps.h"

void dvm_smaps_init(struct dvm_smaps *s)
{
	memset(s, 0, sizeof(*s));
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* "start-end perms ...": the first line of an area */
static int area_header(struct dvm_smaps *s, const char *line)
{
	unsigned long long start, end;
	char *p;

	errno = 0;
	start = strtoull(line, &p, 16);
	if (errno || *p != '-' || !is_hex(p[1]))
		return -EINVAL;
	end = strtoull(p + 1, &p, 16);
	if (errno || *p != ' ' || end < start)
		return -EINVAL;
	s->cur_size = end - start;
	s->in_area = true;
	s->areas++;
	return 0;
}

/* "Name:   N kB" */
static int kb_field(const char *v, uint64_t *out)
{
	unsigned long long n;
	char *p;

	while (*v == ' ' || *v == '\t')
		v++;
	if (*v < '0' || *v > '9')
		return -EINVAL;
	errno = 0;
	n = strtoull(v, &p, 10);
	if (errno || strcmp(p, " kB") || n > UINT64_MAX / 1024)
		return -EINVAL;
	*out = n * 1024;
	return 0;
}

static bool has_flag(const char *flags, const char *flag)
{
	size_t n = strlen(flag);
	const char *p;

	for (p = flags; (p = strstr(p, flag)); p += n)
		if ((p == flags || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

/**
 * dvm_smaps_line() - account one line of /proc/PID/smaps
 * @s: totals (dvm_smaps_init() first)
 * @line: the line, without its newline
 *
 * Return: 0, or -EINVAL for a line that is not smaps syntax (the totals are
 * left as they were).
 */
int dvm_smaps_line(struct dvm_smaps *s, const char *line)
{
	const char *p = line;
	uint64_t v;
	int rc;

	while (is_hex(*p))
		p++;
	if (p != line && *p == '-')
		return area_header(s, line);
	if (!s->in_area)
		return -EINVAL;
	if (!strncmp(line, "VmFlags:", 8)) {
		if (has_flag(line + 8, "id")) {
			s->id_area_bytes += s->cur_size;
			s->id_areas++;
		}
		return 0;
	}
	if (!strncmp(line, "DvmIdentity:", 12)) {
		rc = kb_field(line + 12, &v);
		if (!rc)
			s->identity_bytes += v;
		return rc;
	}
	if (!strncmp(line, "Anonymous:", 10)) {
		rc = kb_field(line + 10, &v);
		if (!rc)
			s->anon_bytes += v;
		return rc;
	}
	if (!strchr(line, ':'))
		return -EINVAL;
	return 0;
}
