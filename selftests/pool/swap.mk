# swap_fill: anonymous memory through swap on /dev/mpb (swap.sh).
GUEST_BINS += $(B)/selftests/swap_fill
USERSPACE += $(B)/selftests/swap_fill

$(B)/selftests/swap_fill: selftests/pool/swap_fill.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WFLAGS) -o $@ $<
