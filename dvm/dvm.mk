# DVM's pure logic (dvm/common/): the Permission Entry tables and the AVC,
# which patches 0005 and 0006 carry into the kernel (patches/mkpatch), and
# the graphs of the accelerator tests and dvm-eval.  Kept apart from the
# pool's kernel/common/: the two share no code.
DVM_COMMON := dvm/common
DVM_CPPFLAGS := -I$(CURDIR)/$(DVM_COMMON)
DVM_PE_SRC := $(DVM_COMMON)/dvm_pe.c $(DVM_COMMON)/dvm_avc.c
DVM_PE_H := $(DVM_COMMON)/dvm_pe.h $(DVM_COMMON)/dvm_avc.h $(DVM_COMMON)/dvm_types.h
DVM_GRAPH_SRC := $(DVM_COMMON)/dvm_graph.c
DVM_GRAPH_H := $(DVM_COMMON)/dvm_graph.h $(DVM_COMMON)/dvm_types.h
