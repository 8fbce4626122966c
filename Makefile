# SPDX-License-Identifier: GPL-2.0
#
# cmm-mp top-level build.  `make` builds the kernel modules (out of tree,
# against the installed Debian 6.1 headers), libmp and mpctl; `make check`
# runs every test (host unit tests + QEMU guests); `make demo` boots a demo
# pool.  KVER=/KDIR= select another kernel tree.

KVER	?= $(shell scripts/kver 2>/dev/null)
KDIR	?= /lib/modules/$(KVER)/build
B	:= $(CURDIR)/build
V	?= 0

CC	?= cc
CFLAGS	?= -O2 -g
WFLAGS	:= -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow \
	   -Wmissing-prototypes -Wstrict-prototypes -Wformat=2
CPPFLAGS_COMMON := -D_GNU_SOURCE -I$(CURDIR)/include/uapi -I$(CURDIR)/kernel/common \
	   -I$(CURDIR)/libmp -I$(CURDIR)

# `make install` / `make uninstall`: DESTDIR= and PREFIX= (or prefix=, and
# the other directory variables of Documentation/install.rst) are honoured.
PREFIX	?= /usr/local
prefix	?= $(PREFIX)

.PHONY: all modules userspace unit check check-debug demo lint kernel kernel-debug bench fuzz install uninstall clean deps guest-bins
all: modules userspace

deps:
	@scripts/deps build

# cmm_mp's dax driver needs two private drivers/dax headers, taken from the
# matching linux-source (scripts/dax-headers); DKMS builds go without it.
DAX_INC	:= $(B)/dax/$(KVER)
modules:
	@scripts/dax-headers $(DAX_INC) $(KDIR)
	$(MAKE) -C $(KDIR) M=$(CURDIR)/kernel CMM_MP_DAX_INC=$(DAX_INC) \
		$(if $(W),W=$(W)) $(if $(C),C=$(C)) modules

UNIT_TESTS :=
USERSPACE :=
FUZZ_TARGETS :=
GUEST_BINS :=
# util/ first: the programs' rules name its objects.
include util/util.mk
include $(sort $(wildcard kernel/*.mk dvm/*.mk libmp/*.mk libmp-dvm/*.mk mpctl/*.mk selftests/*/*.mk \
	bench/*.mk tools/*/*.mk))

userspace: $(USERSPACE)

# Host unit tests: each prints TAP (cmocka's TAP output or kselftest).
unit: $(UNIT_TESTS)
	@scripts/run-unit $(UNIT_TESTS)

check:
	@scripts/deps check
	@scripts/check

# The guest suite on the debug kernel (KASAN, kmemleak, lockdep, list
# debugging): not part of check; see Documentation/testing.rst.
check-debug:
	@scripts/deps check
	@scripts/deps kernel
	@scripts/check-debug

demo:
	@scripts/deps demo
	@scripts/demo

# Coverage-guided fuzzing with ASan+UBSan: FUZZ_RUNS executions per target
# (10 M), FUZZ_SECONDS at most (check: 15 s per target and no run goal).
FUZZ_SECONDS ?= 3600
FUZZ_RUNS ?= 10000000
fuzz: $(FUZZ_TARGETS)
	@scripts/deps fuzz
	@FUZZ_RUNS=$(FUZZ_RUNS) scripts/run-fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

lint:
	@scripts/deps build
	@scripts/lint

kernel:
	@scripts/deps kernel
	@scripts/build-kernel

# The patched kernel with KASAN and lockdep (build/kernel-debug/bzImage).
kernel-debug:
	@scripts/deps kernel
	@scripts/build-kernel --debug

clean:
	rm -rf $(B)
	-$(MAKE) -s -C $(KDIR) M=$(CURDIR)/kernel clean

# What scripts/mkinitramfs puts in the guests' /usr/bin.
guest-bins:
	@echo $(GUEST_BINS)
