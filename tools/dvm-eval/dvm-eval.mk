# dvm-eval: the DVM paper's tables (page-table bytes, AVC, TLB, overhead)
# from a model of the device side that runs the accelerator's own table
# and AVC code on the host, and one boot of the patched kernel for what the
# accelerator and the DVM heap measure in a guest.  `make dvm-eval` writes
# runs/dvm-<timestamp>/results.json and regenerates the tables in
# Documentation/dvm.rst (tools/dvm-eval/dvm-tables) and dvm-heap.rst
# (tools/dvm-eval/heap-tables) from it; `make unit` runs a smoke of it
# (tools/dvm-eval/smoke.sh: the results file's shape, the tables).
DVM_EVAL_SRC := tools/dvm-eval/dvm_eval.c $(DVM_GRAPH_SRC)

USERSPACE += $(B)/dvm-eval/dvm_eval
UNIT_TESTS += $(B)/unit/test_dvm_eval

$(B)/dvm-eval/dvm_eval: $(DVM_EVAL_SRC) $(DVM_GRAPH_H) $(DVM_SERIES_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(DVM_CPPFLAGS) $(DVM_PE_CPPFLAGS) $(CFLAGS) $(WFLAGS) -o $@ \
		$(filter %.c,$^) $(DVM_PE_SRC)

$(B)/unit/test_dvm_eval: tools/dvm-eval/smoke.sh $(B)/dvm-eval/dvm_eval \
		tools/dvm-eval/dvm-tables tools/dvm-eval/collect tools/dvm-eval/heap_tap.py \
		tools/dvm-eval/heap-tables
	@mkdir -p $(@D)
	sed 's|@ROOT@|$(CURDIR)|; s|@BIN@|$(B)/dvm-eval/dvm_eval|' $< > $@.tmp
	chmod 0755 $@.tmp
	mv $@.tmp $@

# the guest part's programs (an image of its own holds just these, the
# host tools of scripts/guest-tools and the scenarios): the accelerator's,
# and the DVM heap scenarios' (selftests/dvm_heap/*.sh: mpctl dvm run,
# libmp-dvm.so, dvm_structs and its companions; redis and sort are host
# tools)
DVM_EVAL_GUEST_BINS := $(B)/selftests/dvm/dvm_accel $(B)/selftests/dvm/dvm_mix \
	$(B)/mpctl/mpctl $(MPDVM_SO) $(DVMH_BINS)

.PHONY: dvm-eval
dvm-eval: $(B)/dvm-eval/dvm_eval $(DVM_EVAL_GUEST_BINS)
	@DVM_EVAL_GUEST_BINS="$(DVM_EVAL_GUEST_BINS)" tools/dvm-eval/run $(B)/dvm-eval/dvm_eval
