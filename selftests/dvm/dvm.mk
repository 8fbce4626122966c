# DVM selftests (selftests/dvm/run.sh runs them in a guest booted with the
# DVM-patched kernel).  They are kselftest_harness.h tests that exist once,
# as patch 0004 of the series (tools/testing/selftests/dvm in the kernel
# tree), and are compiled there, in the patched kernel source that
# scripts/build-kernel extracts (--print-src).  Built static, so the guests
# need no libraries for them.  Left out where the series' base source is
# not installed (scripts/deps kernel installs it).
DVM_SRC_TARBALL := $(shell sed -n 's/^tarball //p' patches/BASE 2>/dev/null)

ifneq ($(wildcard $(DVM_SRC_TARBALL)),)
DVM_TESTS := $(B)/selftests/dvm/dvm_test $(B)/selftests/dvm/dvm_mix \
	$(B)/selftests/dvm/dvm_priv $(B)/selftests/dvm/dvm_offline \
	$(B)/selftests/dvm/dvm_thp \
	$(B)/selftests/dvm/dvm_reid
GUEST_BINS += $(DVM_TESTS)
USERSPACE += $(DVM_TESTS)
endif

DVM_WFLAGS := -Wall -Wextra -Werror -Wno-unused-parameter -Wno-sign-compare

$(DVM_TESTS): $(B)/selftests/dvm/%: patches/series $(wildcard patches/*.patch) \
		include/uapi/linux/dvm.h $(B)/selftests/dvm/.abi-ok
	@mkdir -p $(@D)
	@src=$$(scripts/build-kernel --print-src) || exit 1; \
	echo "  CC      $@"; \
	$(CC) $(CFLAGS) $(DVM_WFLAGS) -static-pie \
		-include $(CURDIR)/include/uapi/linux/dvm.h \
		-o $@ $$src/tools/testing/selftests/dvm/$*.c -lpthread -lm

# include/uapi/linux/dvm.h must carry the numbers the series puts in
# <linux/prctl.h>.
DVM_ABI_DEFS = sed -n '/^\#[[:space:]]*define[[:space:]]\{1,\}PR_[A-Z_]*DVM/{s|/\*.*||;s/^\#[[:space:]]*define[[:space:]]*//;s/[[:space:]]\{1,\}/ /g;s/ $$//;p;}'
$(B)/selftests/dvm/.abi-ok: include/uapi/linux/dvm.h patches/series $(wildcard patches/*.patch)
	@mkdir -p $(@D)
	@src=$$(scripts/build-kernel --print-src) || exit 1; \
	$(DVM_ABI_DEFS) $$src/include/uapi/linux/prctl.h | sort > $@.kernel; \
	$(DVM_ABI_DEFS) include/uapi/linux/dvm.h | sort > $@.ours; \
	if [ ! -s $@.kernel ] || ! cmp -s $@.kernel $@.ours; then \
		echo "selftests/dvm: include/uapi/linux/dvm.h and the series' <linux/prctl.h> disagree:" >&2; \
		diff $@.kernel $@.ours >&2; exit 1; \
	fi; \
	touch $@

# The accelerator tests (patch 0006, /dev/dvm_accel) and the R-MAT tool:
# plain programs on the uapi headers (the series' <linux/dvm_accel.h>,
# unpacked by dvm/dvm.mk) and dvm/common/.
DVM_ACCEL_BINS := $(B)/selftests/dvm/dvm_accel $(B)/selftests/dvm/dvm_rmat
GUEST_BINS += $(DVM_ACCEL_BINS)
USERSPACE += $(DVM_ACCEL_BINS)

$(DVM_ACCEL_BINS): $(B)/selftests/dvm/%: selftests/dvm/%.c $(DVM_GRAPH_SRC) $(DVM_GRAPH_H) \
		selftests/dvm/dvm_prog.h $(DVM_SERIES_STAMP) include/uapi/linux/dvm.h
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(CPPFLAGS_COMMON) $(DVM_CPPFLAGS) $(DVM_UAPI_CPPFLAGS) $(CFLAGS) $(WFLAGS) \
		-static -o $@ $< $(DVM_GRAPH_SRC) -lpthread

# Identity re-establishment (patch 0008, selftests/dvm/reidentify.sh:
# PR_DVM_REIDENTIFY checked through pagemap and /dev/dvm_accel) and the
# memory cgroup's charge of identity-mapped pages (selftests/dvm/memcg.sh):
# plain programs on the uapi headers, static like the others.
DVM_PLAIN_BINS := $(B)/selftests/dvm/dvm_reidentify $(B)/selftests/dvm/dvm_memcg
GUEST_BINS += $(DVM_PLAIN_BINS)
USERSPACE += $(DVM_PLAIN_BINS)

$(DVM_PLAIN_BINS): $(B)/selftests/dvm/%: selftests/dvm/%.c selftests/dvm/dvm_prog.h \
		$(DVM_SERIES_STAMP) include/uapi/linux/dvm.h
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(CPPFLAGS_COMMON) $(DVM_UAPI_CPPFLAGS) $(CFLAGS) $(WFLAGS) \
		-static -o $@ $<
