# Unit tests for util/: option tables (usage, errors) and the attribute
# table (every attribute of the uapi header in it).
UNIT_TESTS += $(B)/unit/test_util_options

$(B)/unit/test_util_options: selftests/unit/test_util_options.c \
		util/parse-options.c util/parse-options.h util/util.h \
		util/cmm_mp_attrs.c util/cmm_mp_attrs.h include/uapi/linux/cmm_mp.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ \
		$(filter %.c,$^) -lcmocka
