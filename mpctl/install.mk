# Installing what goes with mpctl: manual pages (rst2man, from
# Documentation/), bash completion, the configuration file and the systemd
# unit that applies it at boot. Included by the top-level Makefile.

datadir		?= $(prefix)/share
mandir		?= $(datadir)/man
# The configuration is read from /etc whatever the prefix (the unit names
# the file explicitly, so another sysconfdir works too).
sysconfdir	?= /etc
systemdsystemunitdir ?= $(prefix)/lib/systemd/system
bashcompdir	?= $(datadir)/bash-completion/completions
RST2MAN		?= rst2man

# Section 8: mpctl and one page per command; section 5: the config file.
MAN8		:= $(patsubst Documentation/%.rst,$(B)/man/%.8,\
		   $(wildcard Documentation/mpctl.rst Documentation/mpctl-*.rst))
MAN5		:= $(B)/man/cmm-mp.conf.5

.PHONY: man install-man uninstall-man install-config uninstall-config
man: $(MAN8) $(MAN5)

# --halt=warning: a broken page fails the build instead of rendering oddly.
$(B)/man/%.8: Documentation/%.rst
	@mkdir -p $(@D)
	$(RST2MAN) --halt=warning --no-generator --no-datestamp $< $@.tmp
	mv $@.tmp $@

$(B)/man/%.5: Documentation/%.rst
	@mkdir -p $(@D)
	$(RST2MAN) --halt=warning --no-generator --no-datestamp $< $@.tmp
	mv $@.tmp $@

$(B)/mpctl/cmm-mp.service: mpctl/cmm-mp.service.in mpctl/install.mk
	@mkdir -p $(@D)
	sed -e 's|@bindir@|$(bindir)|g' -e 's|@sysconfdir@|$(sysconfdir)|g' \
		$< > $@

install: install-man install-config
install-man: man
	install -d $(DESTDIR)$(mandir)/man8 $(DESTDIR)$(mandir)/man5
	install -m 0644 $(MAN8) $(DESTDIR)$(mandir)/man8/
	install -m 0644 $(MAN5) $(DESTDIR)$(mandir)/man5/

# An existing configuration is the administrator's: never overwritten.
# The unit is made at install time, so it names the installed paths.
install-config: $(B)/mpctl/cmm-mp.service
	install -d $(DESTDIR)$(sysconfdir)/cmm-mp $(DESTDIR)$(bashcompdir) \
		$(DESTDIR)$(systemdsystemunitdir)
	[ -e $(DESTDIR)$(sysconfdir)/cmm-mp/cmm-mp.conf ] || \
		install -m 0644 mpctl/cmm-mp.conf $(DESTDIR)$(sysconfdir)/cmm-mp/cmm-mp.conf
	install -m 0644 mpctl/mpctl.bash-completion $(DESTDIR)$(bashcompdir)/mpctl
	install -m 0644 $(B)/mpctl/cmm-mp.service $(DESTDIR)$(systemdsystemunitdir)/cmm-mp.service

uninstall: uninstall-man uninstall-config
uninstall-man:
	rm -f $(addprefix $(DESTDIR)$(mandir)/man8/,$(notdir $(MAN8))) \
		$(addprefix $(DESTDIR)$(mandir)/man5/,$(notdir $(MAN5)))

# A configuration that was changed stays (as dpkg keeps a conffile).
uninstall-config:
	rm -f $(DESTDIR)$(bashcompdir)/mpctl \
		$(DESTDIR)$(systemdsystemunitdir)/cmm-mp.service
	c=$(DESTDIR)$(sysconfdir)/cmm-mp/cmm-mp.conf; \
	if cmp -s mpctl/cmm-mp.conf $$c; then rm -f $$c; \
	elif [ -e $$c ]; then echo "uninstall: keeping $$c (changed)"; fi
	-rmdir $(DESTDIR)$(sysconfdir)/cmm-mp 2>/dev/null
