# dvm-eval: the DVM paper's tables (page-table bytes, AVC, TLB, overhead)
# from a model of the device side that runs the accelerator's own table
# and AVC code on the host.  `make dvm-eval` writes
# runs/dvm-<timestamp>/results.json and regenerates the tables in
# Documentation/dvm.rst from it (tools/dvm-eval/dvm-tables); `make unit`
# runs a smoke of it (tools/dvm-eval/smoke.sh: the results file's shape).
DVM_EVAL_SRC := tools/dvm-eval/dvm_eval.c $(DVM_GRAPH_SRC)

USERSPACE += $(B)/dvm-eval/dvm_eval
UNIT_TESTS += $(B)/unit/test_dvm_eval

$(B)/dvm-eval/dvm_eval: $(DVM_EVAL_SRC) $(DVM_GRAPH_H) $(DVM_SERIES_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(DVM_CPPFLAGS) $(DVM_PE_CPPFLAGS) $(CFLAGS) $(WFLAGS) -o $@ \
		$(filter %.c,$^) $(DVM_PE_SRC)

$(B)/unit/test_dvm_eval: tools/dvm-eval/smoke.sh $(B)/dvm-eval/dvm_eval \
		tools/dvm-eval/dvm-tables
	@mkdir -p $(@D)
	sed 's|@ROOT@|$(CURDIR)|; s|@BIN@|$(B)/dvm-eval/dvm_eval|' $< > $@.tmp
	chmod 0755 $@.tmp
	mv $@.tmp $@

# the guest part's programs (an image of its own holds just these)
DVM_EVAL_GUEST_BINS := $(B)/selftests/dvm/dvm_accel $(B)/selftests/dvm/dvm_mix

.PHONY: dvm-eval
dvm-eval: $(B)/dvm-eval/dvm_eval $(DVM_EVAL_GUEST_BINS)
	@DVM_EVAL_GUEST_BINS="$(DVM_EVAL_GUEST_BINS)" tools/dvm-eval/run $(B)/dvm-eval/dvm_eval

# The DVM heap scenarios' measurements (Documentation/dvm-heap.rst):
# runs/dvm-heap-<timestamp>/results.json and the tables made from it.
.PHONY: dvm-heap-eval
dvm-heap-eval:
	@tools/dvm-eval/heap-run
UNIT_TESTS += $(B)/unit/test_dvm_heap_tables

$(B)/unit/test_dvm_heap_tables: tools/dvm-eval/heap-smoke.sh tools/dvm-eval/heap-collect \
		tools/dvm-eval/heap-tables
	@mkdir -p $(@D)
	sed 's|@ROOT@|$(CURDIR)|' $< > $@.tmp
	chmod 0755 $@.tmp
	mv $@.tmp $@
