# mpe_test: drives the mp_eth test device in the guests.
GUEST_BINS += $(B)/selftests/mpe_test
USERSPACE += $(B)/selftests/mpe_test

$(B)/selftests/mpe_test: selftests/mp_eth/mpe_test.c include/uapi/linux/mp_eth_test.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -pthread -o $@ $<
