# Unit tests for kernel/common/mp_seg.c (segment math, memmap grammar).
UNIT_TESTS += $(B)/unit/test_seg

$(B)/unit/test_seg: selftests/unit/test_seg.c kernel/common/mp_seg.c kernel/common/mp_seg.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^) -lcmocka
