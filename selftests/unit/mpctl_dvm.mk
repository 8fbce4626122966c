# mpctl dvm and libmp-dvm.so on the build host (no DVM kernel needed):
# command line, error messages, the statistics file and the exit summary.
ifneq ($(wildcard /usr/include/jemalloc/jemalloc.h),)
UNIT_TESTS += $(B)/unit/test_mpctl_dvm

$(B)/unit/test_mpctl_dvm: selftests/unit/test_mpctl_dvm.sh $(B)/mpctl/mpctl \
		$(B)/libmp-dvm/libmp-dvm.so $(B)/unit/lib.sh
	@mkdir -p $(@D)
	install -m 0755 $< $@
endif
