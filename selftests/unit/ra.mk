# Unit tests for kernel/common/mp_ra.c (/dev/mpb's read-ahead bookkeeping).
UNIT_TESTS += $(B)/unit/test_ra

$(B)/unit/test_ra: selftests/unit/test_ra.c kernel/common/mp_ra.c kernel/common/mp_ra.h \
		kernel/common/mp_types.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^) -lcmocka
