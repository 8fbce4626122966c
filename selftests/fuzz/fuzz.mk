# libFuzzer targets (clang, ASan + UBSan; any UBSan report aborts).
# `make fuzz FUZZ_SECONDS=N` runs each for N seconds through scripts/run-fuzz,
# on a corpus in build/fuzz/corpus-<name> seeded by build/fuzz/<name>-seeds.
FUZZ_CC		?= clang
FUZZ_CFLAGS	?= -g -O1 -fsanitize=fuzzer,address,undefined \
		   -fno-sanitize-recover=all -fno-omit-frame-pointer

FUZZ_TARGETS += $(B)/fuzz/fuzz_frame

FUZZ_FRAME_SRC := selftests/fuzz/fuzz_frame.c kernel/common/mp_frame.c \
	kernel/common/mp_window.c kernel/common/mp_rift.c kernel/common/mp_replay.c
FUZZ_FRAME_H := selftests/fuzz/fuzz_frame.h include/uapi/linux/mp_eth.h \
	kernel/common/mp_types.h kernel/common/mp_bytes.h kernel/common/mp_sn.h \
	kernel/common/mp_frame.h kernel/common/mp_window.h kernel/common/mp_rift.h \
	kernel/common/mp_replay.h

# The seed generator is built with the target so run-fuzz finds it beside it.
$(B)/fuzz/fuzz_frame: $(FUZZ_FRAME_SRC) $(FUZZ_FRAME_H) | $(B)/fuzz/fuzz_frame-seeds
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS_COMMON) $(FUZZ_CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^)

$(B)/fuzz/fuzz_frame-seeds: selftests/fuzz/fuzz_frame_seeds.c kernel/common/mp_frame.c $(FUZZ_FRAME_H)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^)

# The pool map and segment geometry (discovery, mpctl, the module's mem=).
FUZZ_TARGETS += $(B)/fuzz/fuzz_pool

$(B)/fuzz/fuzz_pool: selftests/fuzz/fuzz_pool.c kernel/common/mp_pamt.c kernel/common/mp_seg.c \
		kernel/common/mp_pamt.h kernel/common/mp_seg.h kernel/common/mp_types.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS_COMMON) $(FUZZ_CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^)
