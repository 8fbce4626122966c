# Installing what goes with mpctl: manual pages (rst2man, from
# Documentation/), bash completion, the configuration file, the systemd
# unit that applies it at boot, and the udev rule with its template unit
# that apply it per segment as segments appear. Included by the top-level
# Makefile.

datadir		?= $(prefix)/share
mandir		?= $(datadir)/man
# The configuration is read from /etc whatever the prefix (the unit names
# the file explicitly, so another sysconfdir works too).
sysconfdir	?= /etc
systemdsystemunitdir ?= $(prefix)/lib/systemd/system
udevrulesdir	?= $(prefix)/lib/udev/rules.d
# The rule runs it by absolute path (udev's PROGRAM has no PATH search
# outside /usr/lib/udev).
SYSTEMD_ESCAPE	?= /usr/bin/systemd-escape
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

# The units and the rule are made at install time, so they name the
# installed paths.
MPCTL_UNITS	:= $(B)/mpctl/cmm-mp.service $(B)/mpctl/cmm-mp-segment@.service
MPCTL_RULES	:= $(B)/mpctl/90-cmm-mp.rules

$(MPCTL_UNITS) $(MPCTL_RULES): $(B)/mpctl/%: mpctl/%.in mpctl/install.mk
	@mkdir -p $(@D)
	sed -e 's|@bindir@|$(bindir)|g' -e 's|@sysconfdir@|$(sysconfdir)|g' \
		-e 's|@SYSTEMD_ESCAPE@|$(SYSTEMD_ESCAPE)|g' $< > $@

install: install-man install-config
install-man: man
	install -d $(DESTDIR)$(mandir)/man8 $(DESTDIR)$(mandir)/man5
	install -m 0644 $(MAN8) $(DESTDIR)$(mandir)/man8/
	install -m 0644 $(MAN5) $(DESTDIR)$(mandir)/man5/

# An existing configuration is the administrator's: never overwritten.
install-config: $(MPCTL_UNITS) $(MPCTL_RULES)
	install -d $(DESTDIR)$(sysconfdir)/cmm-mp $(DESTDIR)$(bashcompdir) \
		$(DESTDIR)$(systemdsystemunitdir) $(DESTDIR)$(udevrulesdir)
	[ -e $(DESTDIR)$(sysconfdir)/cmm-mp/cmm-mp.conf ] || \
		install -m 0644 mpctl/cmm-mp.conf $(DESTDIR)$(sysconfdir)/cmm-mp/cmm-mp.conf
	install -m 0644 mpctl/mpctl.bash-completion $(DESTDIR)$(bashcompdir)/mpctl
	install -m 0644 $(MPCTL_UNITS) $(DESTDIR)$(systemdsystemunitdir)/
	install -m 0644 $(MPCTL_RULES) $(DESTDIR)$(udevrulesdir)/

uninstall: uninstall-man uninstall-config
uninstall-man:
	rm -f $(addprefix $(DESTDIR)$(mandir)/man8/,$(notdir $(MAN8))) \
		$(addprefix $(DESTDIR)$(mandir)/man5/,$(notdir $(MAN5)))

# A configuration that was changed stays (as dpkg keeps a conffile).
uninstall-config:
	rm -f $(DESTDIR)$(bashcompdir)/mpctl \
		$(addprefix $(DESTDIR)$(systemdsystemunitdir)/,$(notdir $(MPCTL_UNITS))) \
		$(addprefix $(DESTDIR)$(udevrulesdir)/,$(notdir $(MPCTL_RULES)))
	c=$(DESTDIR)$(sysconfdir)/cmm-mp/cmm-mp.conf; \
	if cmp -s mpctl/cmm-mp.conf $$c; then rm -f $$c; \
	elif [ -e $$c ]; then echo "uninstall: keeping $$c (changed)"; fi
	-rmdir $(DESTDIR)$(sysconfdir)/cmm-mp 2>/dev/null
