# mpctl dvm and libmp-dvm.so on the build host (no DVM kernel needed):
# command line, error messages, the statistics file and the exit summary.
ifneq ($(wildcard /usr/include/jemalloc/jemalloc.h),)
UNIT_TESTS += $(B)/unit/test_mpctl_dvm

$(B)/unit/test_mpctl_dvm: selftests/unit/test_mpctl_dvm.sh $(B)/mpctl/mpctl \
		$(B)/libmp-dvm/libmp-dvm.so $(B)/unit/lib.sh $(B)/unit/dvm_threads
	@mkdir -p $(@D)
	install -m 0755 $< $@

# threads of a program with the library preloaded: where their stacks are
$(B)/unit/dvm_threads: selftests/unit/dvm_threads.c libmp-dvm/mp_dvm_stats.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ $< -lpthread
endif
