# mpctl: build/mpctl/mpctl, linked to build/libmp/libmp.so and run from the
# build tree through its rpath ($ORIGIN/../libmp).

MPCTL_SRCS	:= $(addprefix mpctl/,mpctl.c args.c json.c list.c online.c \
		   monitor.c)
MPCTL_OBJS	:= $(patsubst mpctl/%.c,$(B)/mpctl/%.o,$(MPCTL_SRCS))

USERSPACE	+= $(B)/mpctl/mpctl
GUEST_BINS	+= $(B)/mpctl/mpctl

$(MPCTL_OBJS): $(B)/mpctl/%.o: mpctl/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) $(JSONC_CFLAGS) \
		-DMPCTL_VERSION='"$(LIBMP_VERSION)"' -MMD -MP -c -o $@ $<

-include $(MPCTL_OBJS:.o=.d)

$(B)/mpctl/mpctl: $(MPCTL_OBJS) $(B)/libmp/libmp.so
	$(CC) $(CFLAGS) -o $@ $(MPCTL_OBJS) -L$(B)/libmp -lmp $(JSONC_LIBS) \
		-Wl,-rpath,'$$ORIGIN/../libmp'

.PHONY: install-mpctl
install: install-mpctl
install-mpctl: $(B)/mpctl/mpctl
	install -d $(DESTDIR)$(bindir)
	install -m 0755 $(B)/mpctl/mpctl $(DESTDIR)$(bindir)/mpctl
