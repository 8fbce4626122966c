# Installing the kernel modules: `make install` puts the modules built for
# KVER under /lib/modules/KVER/updates and runs depmod (-b DESTDIR when
# DESTDIR is set); `make install-dkms` installs the sources with a
# dkms.conf under /usr/src/cmm-mp-VERSION instead, for DKMS to build them
# for every installed kernel. Included by the top-level Makefile.

CMM_MP_VERSION	= $(LIBMP_VERSION)
INSTALL_MOD_DIR	?= updates
moduledir	?= /lib/modules/$(KVER)/$(INSTALL_MOD_DIR)
dkmsdir		?= /usr/src/cmm-mp-$(CMM_MP_VERSION)
DEPMOD		?= depmod
# The modules DKMS builds: mp_eth where its sources are in the tree.
DKMS_MODULES	:= cmm_mp $(if $(wildcard kernel/mp_eth/Kbuild.inc),mp_eth)

# depmod for KVER, on this system or on the tree under DESTDIR (which has
# no modules.order or modules.builtin: not worth a warning).
cmd_depmod = $(DEPMOD) $(if $(DESTDIR),-b $(DESTDIR)) $(KVER) 2>&1 | \
	{ grep -v "WARNING: could not open modules\." >&2 || :; }; \
	[ -e $(DESTDIR)/lib/modules/$(KVER)/modules.dep ]

# DKMS=1: `make install` and `make uninstall` leave the modules out, for a
# system where DKMS builds them: a copy in updates/ beside DKMS's in
# updates/dkms would compete with it in depmod's index (both are in the
# "updates" search directory, and which one wins is not defined).
MODULES_INSTALL	:= $(if $(filter 1 yes,$(DKMS)),,install-modules)

.PHONY: install-modules uninstall-modules install-dkms uninstall-dkms
install: $(MODULES_INSTALL)
install-modules: modules
	@test -n "$(KVER)" || { echo "install: no KVER" >&2; exit 1; }
	install -d $(DESTDIR)$(moduledir)
	for m in kernel/*.ko; do \
		install -m 0644 $$m $(DESTDIR)$(moduledir)/ || exit 1; \
	done
	$(cmd_depmod)

# A DESTDIR tree that holds no module any more loses the index files
# depmod made for it too.
uninstall: $(MODULES_INSTALL:install-%=uninstall-%)
uninstall-modules:
	rm -f $(addprefix $(DESTDIR)$(moduledir)/,$(addsuffix .ko,$(DKMS_MODULES)))
	-rmdir $(DESTDIR)$(moduledir) 2>/dev/null
	d=$(DESTDIR)/lib/modules/$(KVER); \
	if [ -n "$(DESTDIR)" ] && [ -d $$d ] && [ -z "$$(find $$d -name '*.ko*')" ]; then \
		rm -f $$d/modules.*; rmdir -p $$d 2>/dev/null || :; \
	elif [ -d $$d ]; then $(cmd_depmod); fi

# The DKMS source tree: dkms.conf, kernel/ (Kbuild and sources) and the
# uapi headers the Kbuild includes from ../include/uapi.
install-dkms: kernel/dkms.conf.in
	install -d $(DESTDIR)$(dkmsdir)
	sed 's|@VERSION@|$(CMM_MP_VERSION)|g' $< > $(DESTDIR)$(dkmsdir)/dkms.conf
	i=0; for m in $(DKMS_MODULES); do \
		printf 'BUILT_MODULE_NAME[%d]="%s"\nBUILT_MODULE_LOCATION[%d]="kernel/"\nDEST_MODULE_LOCATION[%d]="/$(INSTALL_MOD_DIR)/dkms"\n' \
			$$i $$m $$i $$i; i=$$((i + 1)); \
	done >> $(DESTDIR)$(dkmsdir)/dkms.conf
	cd kernel && find . -type f \( -name Kbuild -o -name Kbuild.inc -o \
		-name '*.[ch]' \) ! -name '*.mod.c' ! -name '.*' | \
		while read -r f; do \
			install -D -m 0644 "$$f" "$(DESTDIR)$(dkmsdir)/kernel/$$f" || exit 1; \
		done
	install -d $(DESTDIR)$(dkmsdir)/include/uapi/linux
	install -m 0644 include/uapi/linux/*.h $(DESTDIR)$(dkmsdir)/include/uapi/linux/

# Not part of uninstall: run `dkms remove cmm-mp/VERSION --all` first.
uninstall-dkms:
	rm -rf $(DESTDIR)$(dkmsdir)
