# Unit tests for mpctl/config.c (the cmm-mp.conf parser).
UNIT_TESTS += $(B)/unit/test_mpctl_config

$(B)/unit/test_mpctl_config: selftests/unit/test_mpctl_config.c \
		mpctl/config.c mpctl/config_probe.c mpctl/config.h mpctl/args.c mpctl/args.h \
		kernel/common/mp_seg.c kernel/common/mp_seg.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) -Impctl $(CFLAGS) $(WFLAGS) -o $@ \
		$(filter %.c,$^) -lcmocka

# apply-config / check-config / help against the fake cmm_mp family.
UNIT_TESTS += $(B)/unit/test_mpctl_config_cli

$(B)/unit/test_mpctl_config_cli: selftests/unit/test_mpctl_config_cli.sh \
		$(B)/unit/lib.sh $(B)/unit/fake_cmm_mp.so $(B)/mpctl/mpctl
	@mkdir -p $(@D)
	install -m 0755 $< $@
