# tiering_work: a cold and a hot region under memory tiering (tiering.sh).
GUEST_BINS += $(B)/selftests/tiering_work
USERSPACE += $(B)/selftests/tiering_work

$(B)/selftests/tiering_work: selftests/pool/tiering_work.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WFLAGS) -o $@ $<
