# Unit tests for the DVM Permission Entry tables, the AVC and the TLB model.
UNIT_TESTS += $(B)/unit/test_dvm_pe

$(B)/unit/test_dvm_pe: selftests/unit/test_dvm_pe.c kernel/common/dvm_pe.c \
		kernel/common/dvm_avc.c kernel/common/dvm_pe.h kernel/common/dvm_avc.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^) -lcmocka

UNIT_TESTS += $(B)/unit/test_dvm_graph

$(B)/unit/test_dvm_graph: selftests/unit/test_dvm_graph.c kernel/common/dvm_graph.c \
		kernel/common/dvm_graph.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^) -lcmocka
