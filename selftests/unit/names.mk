# Unit tests for kernel/common/mp_names.c (the state and mode names the
# kernel shows and libmp prints).
UNIT_TESTS += $(B)/unit/test_names

$(B)/unit/test_names: selftests/unit/test_names.c kernel/common/mp_names.c \
		kernel/common/mp_names.h include/uapi/linux/cmm_mp.h util/util.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^) -lcmocka
