# blk_verify: random O_DIRECT I/O on /dev/mpb, checked against a model.
GUEST_BINS += $(B)/selftests/blk_verify
USERSPACE += $(B)/selftests/blk_verify

$(B)/selftests/blk_verify: selftests/pool/blk_verify.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WFLAGS) -pthread -o $@ $<
