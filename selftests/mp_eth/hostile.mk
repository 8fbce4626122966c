# mp_hostile: a hostile host on the pool's segment (AF_PACKET, not our module).
GUEST_BINS += $(B)/selftests/mp_hostile
USERSPACE += $(B)/selftests/mp_hostile

$(B)/selftests/mp_hostile: selftests/mp_eth/mp_hostile.c include/uapi/linux/mp_eth.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ $<
