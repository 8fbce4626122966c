# Unit tests for the DVM Permission Entry tables, the AVC and the TLB model:
# the series' own files (patches 0005 and 0006, unpacked by dvm/dvm.mk).
UNIT_TESTS += $(B)/unit/test_dvm_pe

$(B)/unit/test_dvm_pe: selftests/unit/test_dvm_pe.c $(DVM_SERIES_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(DVM_PE_CPPFLAGS) $(CFLAGS) $(WFLAGS) -o $@ $< $(DVM_PE_SRC) -lcmocka

UNIT_TESTS += $(B)/unit/test_dvm_graph

$(B)/unit/test_dvm_graph: selftests/unit/test_dvm_graph.c $(DVM_GRAPH_SRC) $(DVM_GRAPH_H)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(DVM_CPPFLAGS) $(CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^) -lcmocka
