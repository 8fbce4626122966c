# libmp: build/libmp/libmp.so.1 (+ libmp.so link) and build/libmp/libmp.pc.
# Included by the top-level Makefile; paths are relative to the top.

LIBMP_VERSION	:= 1.8.0
LIBMP_SRCS	:= $(addprefix libmp/,ctx.c nl.c device.c segment.c \
		   memblock.c monitor.c peer.c key.c mirror.c)
LIBMP_OBJS	:= $(patsubst libmp/%.c,$(B)/libmp/%.o,$(LIBMP_SRCS)) \
		   $(B)/libmp/cmm_mp_attrs.o $(B)/libmp/sysfs.o \
		   $(B)/libmp/mp_names.o
# The mp_ names of LIBMP_1 .. LIBMP_1.5: the linker defines each as its
# cmmmp_ function, from the version script's own list.
LIBMP_OLD_NAMES	:= $(shell sed -n 's/^\tmp_\([a-z0-9_]*\);$$/-Wl,--defsym=mp_\1=cmmmp_\1/p' libmp/libmp.sym)
LIBMP_SO	:= $(B)/libmp/libmp.so.1

NL_CFLAGS	:= $(shell pkg-config --cflags libnl-genl-3.0 2>/dev/null)
NL_LIBS		:= $(shell pkg-config --libs libnl-genl-3.0 2>/dev/null)
JSONC_CFLAGS	:= $(shell pkg-config --cflags json-c 2>/dev/null)
JSONC_LIBS	:= $(shell pkg-config --libs json-c 2>/dev/null)

# Where `make install` puts things (and what libmp.pc says).
prefix		?= /usr/local
libdir		?= $(prefix)/lib
includedir	?= $(prefix)/include
bindir		?= $(prefix)/bin

USERSPACE	+= $(LIBMP_SO) $(B)/libmp/libmp.so $(B)/libmp/libmp.pc

# the attribute table and the sysfs reader are util's, the state names the
# kernel's own (kernel/common/mp_names.c), compiled in (hidden) as libmp's
LIBMP_UTIL_OBJS	:= $(B)/libmp/cmm_mp_attrs.o $(B)/libmp/sysfs.o
$(LIBMP_UTIL_OBJS): $(B)/libmp/%.o: util/%.c
$(B)/libmp/mp_names.o: $(B)/libmp/%.o: kernel/common/%.c
$(filter-out $(LIBMP_UTIL_OBJS) $(B)/libmp/mp_names.o,$(LIBMP_OBJS)): $(B)/libmp/%.o: libmp/%.c
$(LIBMP_OBJS):
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -fPIC \
		-fvisibility=hidden $(NL_CFLAGS) -MMD -MP -c -o $@ $<

-include $(LIBMP_OBJS:.o=.d)

# -z defs: every symbol must resolve at link time (no hidden dependency on
# the program); the version script exports its nodes and hides the rest.
$(LIBMP_SO): $(LIBMP_OBJS) libmp/libmp.sym
	$(CC) $(CFLAGS) -shared -Wl,-soname,libmp.so.1 \
		-Wl,--version-script=libmp/libmp.sym -Wl,-z,defs \
		$(LIBMP_OLD_NAMES) -o $@ $(LIBMP_OBJS) $(NL_LIBS)

$(B)/libmp/libmp.so: $(LIBMP_SO)
	ln -sfn libmp.so.1 $@

LIBMP_PC_SED = sed -e 's|@prefix@|$(prefix)|' -e 's|@libdir@|$(libdir)|' \
	    -e 's|@includedir@|$(includedir)|' -e 's|@version@|$(LIBMP_VERSION)|'

$(B)/libmp/libmp.pc: libmp/libmp.pc.in libmp/libmp.mk
	@mkdir -p $(@D)
	$(LIBMP_PC_SED) $< > $@

.PHONY: install-libmp
install: install-libmp
install-libmp: $(LIBMP_SO)
	install -d $(DESTDIR)$(libdir)/pkgconfig $(DESTDIR)$(includedir)
	install -m 0755 $(LIBMP_SO) $(DESTDIR)$(libdir)/libmp.so.1
	ln -sfn libmp.so.1 $(DESTDIR)$(libdir)/libmp.so
	install -m 0644 libmp/libmp.h $(DESTDIR)$(includedir)/libmp.h
	install -d $(DESTDIR)$(includedir)/cmm-mp/linux
	install -m 0644 include/uapi/linux/cmm_mp.h $(DESTDIR)$(includedir)/cmm-mp/linux/cmm_mp.h
	@# generated here: the prefix of this install, not of an earlier build
	$(LIBMP_PC_SED) libmp/libmp.pc.in > $(DESTDIR)$(libdir)/pkgconfig/libmp.pc
	chmod 0644 $(DESTDIR)$(libdir)/pkgconfig/libmp.pc
	$(if $(DESTDIR),,-ldconfig)

.PHONY: uninstall-libmp
uninstall: uninstall-libmp
uninstall-libmp:
	rm -f $(DESTDIR)$(libdir)/libmp.so.1 $(DESTDIR)$(libdir)/libmp.so \
		$(DESTDIR)$(includedir)/libmp.h \
		$(DESTDIR)$(includedir)/cmm-mp/linux/cmm_mp.h \
		$(DESTDIR)$(libdir)/pkgconfig/libmp.pc
	-rmdir -p $(DESTDIR)$(includedir)/cmm-mp/linux 2>/dev/null
	$(if $(DESTDIR),,-ldconfig)
