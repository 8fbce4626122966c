# libmp and mpctl against a fake cmm_mp generic netlink family
# (selftests/unit/fake_cmm_mp.c): the netlink paths, on a host that never
# loads the module. The fake is a preloadable library: linked ahead of libc
# into test_libmp_fake, LD_PRELOADed under mpctl by test_mpctl_cli.
UNIT_TESTS += $(B)/unit/test_libmp_fake $(B)/unit/test_mpctl_cli

$(B)/unit/fake_cmm_mp.so: selftests/unit/fake_cmm_mp.c util/cmm_mp_attrs.c \
		util/cmm_mp_attrs.h include/uapi/linux/cmm_mp.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -fPIC -shared -o $@ \
		$(filter %.c,$^) -ldl

# --no-as-needed: nothing in the test calls the fake, it must stay
# first in the lookup order all the same.
$(B)/unit/test_libmp_fake: selftests/unit/test_libmp_fake.c \
		$(B)/unit/fake_cmm_mp.so $(B)/libmp/libmp.so
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ $< \
		-Wl,--no-as-needed $(B)/unit/fake_cmm_mp.so -Wl,--as-needed \
		-L$(B)/libmp -lmp -lcmocka -Wl,-rpath,$(B)/unit:$(B)/libmp

$(B)/unit/test_mpctl_cli: selftests/unit/test_mpctl_cli.sh \
		$(B)/unit/lib.sh $(B)/unit/fake_cmm_mp.so $(B)/mpctl/mpctl
	@mkdir -p $(@D)
	install -m 0755 $< $@

# the helpers every unit script sources (selftests/unit/lib.sh)
$(B)/unit/lib.sh: selftests/unit/lib.sh
	@mkdir -p $(@D)
	install -m 0644 $< $@

# mpctl key against the fake: CMM_MP_CMD_KEY_SET, key ids, refusals.
UNIT_TESTS += $(B)/unit/test_mpctl_key

$(B)/unit/test_mpctl_key: selftests/unit/test_mpctl_key.sh \
		$(B)/unit/lib.sh $(B)/unit/fake_cmm_mp.so $(B)/mpctl/mpctl
	@mkdir -p $(@D)
	install -m 0755 $< $@

# libmp's cmmmp_ names and the mp_ aliases kept for one release.
UNIT_TESTS += $(B)/unit/test_libmp_names

$(B)/unit/test_libmp_names: selftests/unit/test_libmp_names.sh $(LIBMP_SO) \
		libmp/libmp.sym libmp/libmp.h $(B)/unit/lib.sh
	@mkdir -p $(@D)
	sed -e 's|@TOP@|$(CURDIR)|' -e 's|@B@|$(B)|' $< > $@
	chmod 0755 $@
