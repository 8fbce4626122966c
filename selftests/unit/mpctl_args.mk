# Unit tests for mpctl/args.c (segment lists, numbers, -u formatting).
UNIT_TESTS += $(B)/unit/test_mpctl_args

$(B)/unit/test_mpctl_args: selftests/unit/test_mpctl_args.c mpctl/args.c \
		mpctl/args.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) -Impctl $(CFLAGS) $(WFLAGS) -o $@ \
		$(filter %.c,$^) -lcmocka
