/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * DVM (devirtualized memory): userspace ABI of the cmm-mp kernel series
 * (patches/), for programs built against headers that predate it.
 *
 * The prctl options and flags are the ones the series adds to
 * <linux/prctl.h>; the definitions are token for token the same, so this
 * header can be included together with a patched <linux/prctl.h>.
 * selftests/dvm/dvm.mk checks that the numbers agree.
 *
 *   prctl(PR_SET_DVM, PR_DVM_ON | PR_DVM_INHERIT, 0, 0, 0);
 *   mode = prctl(PR_GET_DVM, 0, 0, 0, 0);
 *
 * PR_SET_DVM takes PR_DVM_OFF, or PR_DVM_ON optionally ORed with
 * PR_DVM_INHERIT; turning the mode on needs CAP_SYS_ADMIN.  The mode
 * belongs to the address space: fork() copies it; execve() keeps it only
 * with PR_DVM_INHERIT (and never for setuid/setgid/file-capability
 * programs).  In DVM mode, private anonymous mmap()s of at least
 * DVM_SYSCTL_MIN_BYTES bytes without an address hint are identity mapped
 * (virtual address == physical address) when contiguous memory and the
 * virtual range are free, else demand paged as usual: when short of
 * contiguous memory, at a virtual range equal to a physical range ("ip"
 * in smaps), so that prctl(PR_DVM_REIDENTIFY, 0, 0, 0, 0) can later move
 * it into place (it returns the number of pages that became identity
 * mapped).  See Documentation/dvm.rst.
 */
#ifndef _UAPI_LINUX_DVM_H
#define _UAPI_LINUX_DVM_H

#ifndef PR_SET_DVM
#define PR_SET_DVM		0x44564d53
#define PR_GET_DVM		0x44564d47
# define PR_DVM_OFF			0
# define PR_DVM_ON			(1 << 0)
# define PR_DVM_INHERIT			(1 << 1)	/* keep across execve() */
#endif

#ifndef PR_DVM_REIDENTIFY
/* Move mappings that fell back into identity ranges ("DVMR") */
#define PR_DVM_REIDENTIFY	0x44564d52
#endif

/* Smallest identity-mapped mapping, in bytes (default 2 MiB). */
#define DVM_SYSCTL_MIN_BYTES	"/proc/sys/vm/dvm_min_bytes"

/* /proc/vmstat counters (events since boot). */
#define DVM_VMSTAT_IDENTITY_MAPS	"dvm_identity_maps"
#define DVM_VMSTAT_IDENTITY_PAGES	"dvm_identity_pages"
#define DVM_VMSTAT_FALLBACK_NOCONTIG	"dvm_fallback_nocontig"
#define DVM_VMSTAT_FALLBACK_VABUSY	"dvm_fallback_vabusy"
#define DVM_VMSTAT_FALLBACK_POPULATE	"dvm_fallback_populate"
#define DVM_VMSTAT_ALLOC_CONTIG		"dvm_alloc_contig"
#define DVM_VMSTAT_PENDING_MAPS		"dvm_pending_maps"
#define DVM_VMSTAT_REIDENTIFY_PAGES	"dvm_reidentify_pages"

/* /proc/PID/smaps: VmFlags mnemonic and per-area line of identity areas. */
#define DVM_SMAPS_VMFLAG		"id"
#define DVM_SMAPS_VMFLAG_PENDING	"ip"	/* identity later, see below */
#define DVM_SMAPS_IDENTITY		"DvmIdentity:"

#endif /* _UAPI_LINUX_DVM_H */
