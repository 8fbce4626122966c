# DVM's host builds.  The kernel code is the series in patches/ (quilt,
# the only copy); patches/unpack writes the files the series creates into
# $(DVM_SERIES) (kernel-tree layout), from which the host compiles the
# Permission Entry tables and the AVC (unit tests, tools/dvm-eval) and
# takes the accelerator's uapi header (test programs).  dvm/common/ holds
# what only the host runs: the R-MAT graphs and the kernel's short type
# names; dvm/host/ the <linux/types.h> the series' files see here.
# Consumers depend on $(DVM_SERIES_STAMP) and name the files in their
# recipes.
DVM_SERIES := $(B)/dvm/series
DVM_SERIES_STAMP := $(DVM_SERIES)/.unpacked
DVM_PE_SRC := $(DVM_SERIES)/drivers/iommu/dvm_pe.c \
	$(DVM_SERIES)/drivers/misc/dvm_accel/dvm_avc.c
# <linux/dvm_pe.h>, <linux/dvm_avc.h>, and the kernel's type names
DVM_PE_CPPFLAGS := -I$(CURDIR)/dvm/host -I$(DVM_SERIES)/include
# <linux/dvm_accel.h>
DVM_UAPI_CPPFLAGS := -I$(DVM_SERIES)/include/uapi

DVM_COMMON := dvm/common
DVM_CPPFLAGS := -I$(CURDIR)/$(DVM_COMMON)
DVM_GRAPH_SRC := $(DVM_COMMON)/dvm_graph.c
DVM_GRAPH_H := $(DVM_COMMON)/dvm_graph.h $(DVM_COMMON)/dvm_types.h

# patches/check first: a patch whose diffstat or hunk counts disagree with
# its body was edited by hand, not refreshed.
$(DVM_SERIES_STAMP): patches/unpack patches/check patches/series $(wildcard patches/*.patch)
	@mkdir -p $(B)/dvm
	@patches/check > $(B)/dvm/series-check.tap || { grep -v '^ok' $(B)/dvm/series-check.tap >&2; exit 1; }
	@rm -rf $(DVM_SERIES) $(DVM_SERIES).tmp
	@patches/unpack $(DVM_SERIES).tmp
	@touch $(DVM_SERIES).tmp/.unpacked
	@mv $(DVM_SERIES).tmp $(DVM_SERIES)

# The series' own consistency in make unit (TAP from patches/check).
UNIT_TESTS += $(B)/unit/test_dvm_series

$(B)/unit/test_dvm_series: patches/check
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec %s/patches/check\n' '$(CURDIR)' > $@.tmp
	chmod 0755 $@.tmp
	mv $@.tmp $@
