# mps_test: drives /dev/mps<N> (remote-backed segments) in the guests.
GUEST_BINS += $(B)/selftests/mps_test
USERSPACE += $(B)/selftests/mps_test

$(B)/selftests/mps_test: selftests/pool/mps_test.c include/uapi/linux/cmm_mp.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ $<
