# Unit tests for kernel/common/mp_disc.c (discovery decisions), with
# tables for 1024 devices (the ranks of a pool that large).
UNIT_TESTS += $(B)/unit/test_disc

$(B)/unit/test_disc: selftests/unit/test_disc.c kernel/common/mp_disc.c kernel/common/mp_disc_pool.c \
		kernel/common/mp_disc_priv.h \
		kernel/common/mp_pamt.c kernel/common/mp_disc.h \
		kernel/common/mp_pamt.h kernel/common/mp_frame.h \
		include/uapi/linux/cmm_mp.h util/util.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) -DMP_PAMT_MAX_DEVS=1024 $(CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^) -lcmocka
