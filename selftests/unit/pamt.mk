# Unit tests for kernel/common/mp_pamt.c (pool map), with room for 1024
# devices.
UNIT_TESTS += $(B)/unit/test_pamt

$(B)/unit/test_pamt: selftests/unit/test_pamt.c kernel/common/mp_pamt.c kernel/common/mp_pamt.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) -DMP_PAMT_MAX_DEVS=1024 $(CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^) -lcmocka
