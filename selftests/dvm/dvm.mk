# DVM selftests (selftests/dvm/run.sh runs them in a guest booted with the
# DVM-patched kernel).  They are kselftest_harness.h tests: the harness
# comes from the patched kernel source that scripts/build-kernel extracts
# (--print-src), where the last patch of the series carries the same tests
# as tools/testing/selftests/dvm (selftests/dvm/mkpatch keeps that patch in
# sync; the build stops when it is stale).  Built static, so the guests need
# no libraries for them.  Left out where the series' base source is not
# installed (scripts/deps kernel installs it).
DVM_SRC_TARBALL := $(shell sed -n 's/^tarball //p' patches/BASE 2>/dev/null)

ifneq ($(wildcard $(DVM_SRC_TARBALL)),)
DVM_TESTS := $(B)/selftests/dvm/dvm_test $(B)/selftests/dvm/dvm_mix \
	$(B)/selftests/dvm/dvm_priv $(B)/selftests/dvm/dvm_offline
GUEST_BINS += $(DVM_TESTS)
USERSPACE += $(DVM_TESTS)
endif

DVM_WFLAGS := -Wall -Wextra -Werror -Wno-unused-parameter -Wno-sign-compare

$(DVM_TESTS): $(B)/selftests/dvm/%: selftests/dvm/%.c selftests/dvm/dvm_util.h \
		include/uapi/linux/dvm.h $(B)/selftests/dvm/.abi-ok
	@mkdir -p $(@D)
	@src=$$(scripts/build-kernel --print-src) || exit 1; \
	echo "  CC      $@"; \
	$(CC) $(CFLAGS) $(DVM_WFLAGS) -static-pie \
		-include $(CURDIR)/include/uapi/linux/dvm.h \
		-I$$src/tools/testing/selftests/dvm -o $@ $< -lpthread -lm

# include/uapi/linux/dvm.h must carry the numbers the series puts in
# <linux/prctl.h>, and the kernel tree's copy of the tests must be current.
DVM_ABI_DEFS = sed -n '/^\#[[:space:]]*define[[:space:]]\{1,\}PR_[A-Z_]*DVM/{s|/\*.*||;s/^\#[[:space:]]*define[[:space:]]*//;s/[[:space:]]\{1,\}/ /g;s/ $$//;p;}'
$(B)/selftests/dvm/.abi-ok: include/uapi/linux/dvm.h patches/series $(wildcard patches/*.patch) \
		selftests/dvm/mkpatch $(addprefix selftests/dvm/,Makefile config dvm_test.c dvm_mix.c dvm_priv.c \
		dvm_offline.c dvm_util.h)
	@mkdir -p $(@D)
	@selftests/dvm/mkpatch --check
	@src=$$(scripts/build-kernel --print-src) || exit 1; \
	$(DVM_ABI_DEFS) $$src/include/uapi/linux/prctl.h | sort > $@.kernel; \
	$(DVM_ABI_DEFS) include/uapi/linux/dvm.h | sort > $@.ours; \
	if [ ! -s $@.kernel ] || ! cmp -s $@.kernel $@.ours; then \
		echo "selftests/dvm: include/uapi/linux/dvm.h and the series' <linux/prctl.h> disagree:" >&2; \
		diff $@.kernel $@.ours >&2; exit 1; \
	fi; \
	touch $@

# The accelerator tests (patch 0006, /dev/dvm_accel) and the R-MAT tool:
# plain programs on the repository's uapi headers and dvm/common/.
# patches/mkpatch --check: 0005 and 0006 carry the current code.
DVM_ACCEL_BINS := $(B)/selftests/dvm/dvm_accel $(B)/selftests/dvm/dvm_rmat
GUEST_BINS += $(DVM_ACCEL_BINS)
USERSPACE += $(DVM_ACCEL_BINS)

$(DVM_ACCEL_BINS): $(B)/selftests/dvm/%: selftests/dvm/%.c $(DVM_GRAPH_SRC) $(DVM_GRAPH_H) \
		include/uapi/linux/dvm_accel.h \
		include/uapi/linux/dvm.h $(B)/selftests/dvm/.mkpatch-ok
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(CPPFLAGS_COMMON) $(DVM_CPPFLAGS) $(CFLAGS) $(WFLAGS) -static -o $@ \
		$< $(DVM_GRAPH_SRC) -lpthread

$(B)/selftests/dvm/.mkpatch-ok: patches/mkpatch $(wildcard patches/src/* patches/src/*/*/* \
		patches/src/*/*/*/* patches/0005-*.patch patches/0006-*.patch) \
		$(DVM_PE_SRC) $(DVM_PE_H) include/uapi/linux/dvm_accel.h
	@mkdir -p $(@D)
	@patches/mkpatch --check
	@touch $@
