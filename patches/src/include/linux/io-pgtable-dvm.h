/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DVM io-pgtable format (DVM_IDENTITY): what it offers beyond
 * struct io_pgtable_ops.
 */
#ifndef __IO_PGTABLE_DVM_H
#define __IO_PGTABLE_DVM_H

#include <linux/dvm_pe.h>

struct io_pgtable_ops;

int dvm_io_pgtable_set_perm(struct io_pgtable_ops *ops, unsigned long iova,
			    size_t size, enum dvm_perm perm, gfp_t gfp);
int dvm_io_pgtable_walk(struct io_pgtable_ops *ops, unsigned long iova,
			enum dvm_access access, dvm_walk_read_fn read,
			void *arg, struct dvm_walk *w);
void dvm_io_pgtable_bytes(struct io_pgtable_ops *ops, u64 *pe_bytes,
			  u64 *conventional_bytes);

#endif /* __IO_PGTABLE_DVM_H */
