# libmp-dvm.so: the DVM heap, preloaded into unmodified programs by
# `mpctl dvm run` (Documentation/dvm-heap.rst).  Needs Debian's
# libjemalloc-dev; left out where it is not installed.

MPDVM_SRCS	:= $(addprefix libmp-dvm/,shim.c chunk.c prehook.c thread.c stats.c dvm_smaps.c)
MPDVM_OBJS	:= $(patsubst libmp-dvm/%.c,$(B)/libmp-dvm/%.o,$(MPDVM_SRCS))
MPDVM_SO	:= $(B)/libmp-dvm/libmp-dvm.so

ifneq ($(wildcard /usr/include/jemalloc/jemalloc.h),)
USERSPACE	+= $(MPDVM_SO)
GUEST_BINS	+= $(MPDVM_SO)
endif

$(MPDVM_OBJS): $(B)/libmp-dvm/%.o: libmp-dvm/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -fPIC \
		-fvisibility=hidden -MMD -MP -c -o $@ $<

-include $(MPDVM_OBJS:.o=.d)

# Exports nothing: it works through its constructor and jemalloc's hooks.
$(MPDVM_SO): $(MPDVM_OBJS)
	$(CC) $(CFLAGS) -shared -Wl,-soname,libmp-dvm.so -Wl,-z,defs \
		-o $@ $(MPDVM_OBJS) -ljemalloc -lpthread -ldl

# libmp-dvmctl.a: the control side (mp_dvmctl.h), what a launcher shares
# with the preload library: the environment it reads, its statistics
# file, the smaps parser. Linked into mpctl (`mpctl dvm`); needs no
# jemalloc, so it is always built.
MPDVMCTL_SRCS	:= $(addprefix libmp-dvm/,dvmctl.c dvm_smaps.c)
MPDVMCTL_OBJS	:= $(patsubst libmp-dvm/%.c,$(B)/libmp-dvm/ctl/%.o,$(MPDVMCTL_SRCS))
MPDVMCTL_A	:= $(B)/libmp-dvm/libmp-dvmctl.a

$(MPDVMCTL_OBJS): $(B)/libmp-dvm/ctl/%.o: libmp-dvm/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) \
		-DMP_DVM_LIBDIR='"$(libdir)"' -MMD -MP -c -o $@ $<

-include $(MPDVMCTL_OBJS:.o=.d)

$(MPDVMCTL_A): $(MPDVMCTL_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

# Installed beside libmp; the installed mpctl finds it as ../lib/libmp-dvm.so.
ifneq ($(wildcard /usr/include/jemalloc/jemalloc.h),)
.PHONY: install-mp-dvm uninstall-mp-dvm
install: install-mp-dvm
install-mp-dvm: $(MPDVM_SO)
	install -d $(DESTDIR)$(libdir)
	install -m 0755 $(MPDVM_SO) $(DESTDIR)$(libdir)/libmp-dvm.so

uninstall: uninstall-mp-dvm
uninstall-mp-dvm:
	rm -f $(DESTDIR)$(libdir)/libmp-dvm.so
endif
