# mpctl: build/mpctl/mpctl, linked to build/libmp/libmp.so and run from the
# build tree through its rpath ($ORIGIN/../libmp).

MPCTL_SRCS	:= $(addprefix mpctl/,mpctl.c args.c json.c list.c online.c \
		   monitor.c config.c config_cmd.c config_probe.c stats.c dvm.c key.c \
		   repair.c)
MPCTL_OBJS	:= $(patsubst mpctl/%.c,$(B)/mpctl/%.o,$(MPCTL_SRCS))

USERSPACE	+= $(B)/mpctl/mpctl
GUEST_BINS	+= $(B)/mpctl/mpctl

$(MPCTL_OBJS): $(B)/mpctl/%.o: mpctl/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) -I$(CURDIR)/libmp-dvm $(CFLAGS) $(WFLAGS) \
		$(JSONC_CFLAGS) -DMPCTL_VERSION='"$(LIBMP_VERSION)"' -MMD -MP \
		-c -o $@ $<

-include $(MPCTL_OBJS:.o=.d)

# The memmap= grammar of the config file's mem= is the kernel's own.
$(B)/mpctl/mp_seg.o: kernel/common/mp_seg.c kernel/common/mp_seg.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -c -o $@ $<

# `mpctl dvm` is libmp-dvmctl's client (libmp-dvm/mp_dvmctl.h).
MPCTL_LIBS	:= $(UTIL_OBJS) $(B)/mpctl/mp_seg.o $(MPDVMCTL_A)

$(B)/mpctl/mpctl: $(MPCTL_OBJS) $(MPCTL_LIBS) $(B)/libmp/libmp.so
	$(CC) $(CFLAGS) -o $@ $(MPCTL_OBJS) $(MPCTL_LIBS) -L$(B)/libmp -lmp $(JSONC_LIBS) \
		-Wl,-rpath,'$$ORIGIN/../libmp'

# The installed mpctl finds libmp in libdir like any program: linked again
# without the build-tree rpath.
$(B)/mpctl/mpctl.install: $(MPCTL_OBJS) $(MPCTL_LIBS) $(B)/libmp/libmp.so
	$(CC) $(CFLAGS) -o $@ $(MPCTL_OBJS) $(MPCTL_LIBS) -L$(B)/libmp -lmp $(JSONC_LIBS)

.PHONY: install-mpctl uninstall-mpctl
install: install-mpctl
install-mpctl: $(B)/mpctl/mpctl.install
	install -d $(DESTDIR)$(bindir)
	install -m 0755 $(B)/mpctl/mpctl.install $(DESTDIR)$(bindir)/mpctl

uninstall: uninstall-mpctl
uninstall-mpctl:
	rm -f $(DESTDIR)$(bindir)/mpctl
