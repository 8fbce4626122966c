// SPDX-License-Identifier: GPL-2.0
/*
 * Is the pool device of [pool] mem= on this host? Where no CXL hardware
 * exists, the device is a range of DRAM the kernel command line reserved
 * (memmap=SIZE$BASE: "Reserved" in /proc/iomem; memmap=SIZE!BASE:
 * "Persistent Memory (legacy)"). The same configuration is often rolled
 * out to every host of a fleet, some without that reservation: there
 * cmm-mp.service must skip itself (ExecCondition=mpctl check-config
 * --device) instead of failing the boot, and must never hand System RAM
 * to cmm_mp. Pure text parsing, unit-tested in test_mpctl_config.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#define NOT_RESERVED "is not memory reserved for the pool (memmap=)"

/* One line of /proc/iomem: "START-END : NAME", nested ones indented. */
static bool iomem_line(const char *line, size_t len, uint64_t *start,
		       uint64_t *end, const char **name, size_t *name_len)
{
	char buf[64], *p;
	const char *colon = memchr(line, ':', len);

	if (!colon || colon == line || line[0] == ' ' ||
	    (size_t)(colon - line) >= sizeof(buf))
		return false;
	memcpy(buf, line, colon - line);
	buf[colon - line] = '\0';
	errno = 0;
	*start = strtoull(buf, &p, 16);
	if (errno || *p != '-')
		return false;
	*end = strtoull(p + 1, &p, 16);
	if (errno || (*p && *p != ' '))
		return false;
	*name = colon + 1;
	while (*name < line + len && **name == ' ')
		(*name)++;
	*name_len = line + len - *name;
	return true;
}

static bool name_is(const char *name, size_t len, const char *want)
{
	return len == strlen(want) && !memcmp(name, want, len);
}

/**
 * mpctl_config_iomem_check() - is [pool] mem= memory reserved for the pool?
 * @c: the configuration (has_mem)
 * @iomem: the text of /proc/iomem, NUL-terminated
 * @why: where to say why not (or which region it is)
 * @len: its size
 *
 * Return: 1 when the whole range lies in one top-level region reserved
 * by memmap= ("Reserved", or "Persistent Memory (legacy)" for '!'), 0
 * when it does not (System RAM, another region, or nothing there: @why
 * says which), -EPERM when the addresses are hidden (all zero: not
 * root), -EINVAL without mem=.
 */
int mpctl_config_iomem_check(const struct mpctl_config *c, const char *iomem,
			     char *why, size_t len)
{
	uint64_t first, last, start, end;
	bool any_addr = false;
	const char *line, *nl, *name;
	size_t name_len;

	if (!c->has_mem || !c->mem_size)
		return -EINVAL;
	first = c->mem_base;
	last = c->mem_base + c->mem_size - 1;
	for (line = iomem; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line);
		if (!iomem_line(line, nl - line, &start, &end, &name,
				&name_len)) {
			if (!*nl)
				break;
			continue;
		}
		any_addr |= start || end;
		if (start <= last && end >= first) {
			if (start <= first && end >= last &&
			    (name_is(name, name_len, "Reserved") ||
			     name_is(name, name_len,
				     "Persistent Memory (legacy)"))) {
				snprintf(why, len, "%.*s %" PRIx64 "-%" PRIx64,
					 (int)name_len, name, start, end);
				return 1;
			}
			snprintf(why, len, "mem=%s " NOT_RESERVED
				 ": it meets '%.*s' at %" PRIx64 "-%" PRIx64,
				 c->mem, (int)name_len, name, start, end);
			return 0;
		}
		if (!*nl)
			break;
	}
	if (!any_addr) {
		snprintf(why, len, "the addresses in /proc/iomem are hidden (not root)");
		return -EPERM;
	}
	snprintf(why, len, "mem=%s " NOT_RESERVED ": no memory there", c->mem);
	return 0;
}
