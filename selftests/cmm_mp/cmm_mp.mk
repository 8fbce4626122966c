# nl_bad: malformed generic netlink requests to cmm_mp (run in guests).
GUEST_BINS += $(B)/selftests/nl_bad
USERSPACE += $(B)/selftests/nl_bad

$(B)/selftests/nl_bad: selftests/cmm_mp/nl_bad.c include/uapi/linux/cmm_mp.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ $<
