# Unit tests for libmp/memblock.c: memory block onlining against a fake
# sysfs tree (MP_SYSFS_ROOT) in a temporary directory.
UNIT_TESTS += $(B)/unit/test_libmp_memblock

$(B)/unit/test_libmp_memblock: selftests/unit/test_libmp_memblock.c \
		libmp/memblock.c libmp/libmp-private.h libmp/libmp.h \
		util/sysfs.c util/sysfs.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ \
		$(filter %.c,$^) -lcmocka
