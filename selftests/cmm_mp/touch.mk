# mp_touch: data placement and survival checks inside the guests.
GUEST_BINS += $(B)/selftests/mp_touch
USERSPACE += $(B)/selftests/mp_touch

$(B)/selftests/mp_touch: selftests/cmm_mp/mp_touch.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WFLAGS) -o $@ $<
