# dax_rw: bytes through a device-dax character device (inside the guests).
GUEST_BINS += $(B)/selftests/dax_rw
USERSPACE += $(B)/selftests/dax_rw

$(B)/selftests/dax_rw: selftests/cmm_mp/dax_rw.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WFLAGS) -o $@ $<
