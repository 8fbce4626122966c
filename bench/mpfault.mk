# mpfault: the latency of a 4 KiB page fault on a mapping of /dev/mpsN
# (bench/mpfault/mpfault.c), for the "remote" part of `make bench`.
MPFAULT		:= $(B)/bench/mpfault

GUEST_BINS	+= $(MPFAULT)
USERSPACE	+= $(MPFAULT)

$(MPFAULT): bench/mpfault/mpfault.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ $<
