# Unit tests for libmp-dvmctl (libmp-dvm/dvmctl.c): the launcher's
# environment, the statistics file, smaps, where libmp-dvm.so is found.
UNIT_TESTS += $(B)/unit/test_dvmctl

$(B)/unit/test_dvmctl: selftests/unit/test_dvmctl.c $(MPDVMCTL_A) \
		libmp-dvm/mp_dvmctl.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) -Ilibmp-dvm $(CFLAGS) $(WFLAGS) -o $@ \
		$< $(MPDVMCTL_A) -lcmocka
