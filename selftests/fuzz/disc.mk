# libFuzzer target for kernel/common/mp_disc.c (discovery decisions), with
# the FUZZ_CC/FUZZ_CFLAGS of fuzz.mk.
FUZZ_TARGETS += $(B)/fuzz/fuzz_disc

$(B)/fuzz/fuzz_disc: selftests/fuzz/fuzz_disc.c kernel/common/mp_disc.c kernel/common/mp_disc_pool.c \
		kernel/common/mp_disc_priv.h \
		kernel/common/mp_pamt.c kernel/common/mp_frame.c \
		kernel/common/mp_disc.h kernel/common/mp_pamt.h \
		kernel/common/mp_frame.h include/uapi/linux/cmm_mp.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS_COMMON) $(FUZZ_CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^)
