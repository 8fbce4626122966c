# Unit tests for libmp-dvm/dvm_smaps.c (smaps totals for the DVM heap).
UNIT_TESTS += $(B)/unit/test_dvm_smaps

$(B)/unit/test_dvm_smaps: selftests/unit/test_dvm_smaps.c libmp-dvm/dvm_smaps.c \
		libmp-dvm/dvm_smaps.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) -Ilibmp-dvm $(CFLAGS) $(WFLAGS) -o $@ \
		$(filter %.c,$^) -lcmocka
