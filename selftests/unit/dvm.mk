# Unit tests for the DVM Permission Entry tables, the AVC and the TLB model.
UNIT_TESTS += $(B)/unit/test_dvm_pe

$(B)/unit/test_dvm_pe: selftests/unit/test_dvm_pe.c $(DVM_PE_SRC) $(DVM_PE_H)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(DVM_CPPFLAGS) $(CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^) -lcmocka

UNIT_TESTS += $(B)/unit/test_dvm_graph

$(B)/unit/test_dvm_graph: selftests/unit/test_dvm_graph.c $(DVM_GRAPH_SRC) $(DVM_GRAPH_H)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(DVM_CPPFLAGS) $(CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^) -lcmocka
