# nl_fuzz: seeded, bounded fuzzing of cmm_mp's netlink family and ioctls
# (run in guests by selftests/cmm_mp/fuzz.sh).
GUEST_BINS += $(B)/selftests/nl_fuzz
USERSPACE += $(B)/selftests/nl_fuzz

$(B)/selftests/nl_fuzz: selftests/cmm_mp/nl_fuzz.c include/uapi/linux/cmm_mp.h \
		include/uapi/linux/mp_eth_test.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ $<
