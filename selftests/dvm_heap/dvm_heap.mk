# DVM heap scenarios (selftests/dvm_heap/*.sh, patched kernel): dvm_structs
# is an ordinary dynamically linked program using plain malloc(), run under
# `mpctl dvm run`; dvm_physwalk walks its structures through physical
# memory; with -a, dvm_structs also has /dev/dvm_accel chase them.
DVMH_BINS := $(addprefix $(B)/selftests/dvm_heap/,dvm_structs dvm_physwalk dvm_frag)
GUEST_BINS += $(DVMH_BINS)
USERSPACE += $(DVMH_BINS)

$(DVMH_BINS): $(B)/selftests/dvm_heap/%: selftests/dvm_heap/%.c selftests/dvm_heap/structs.h \
		selftests/dvm/dvm_prog.h $(DVM_SERIES_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(DVM_UAPI_CPPFLAGS) $(CFLAGS) $(WFLAGS) -o $@ $< -lpthread
