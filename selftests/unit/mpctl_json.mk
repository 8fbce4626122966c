# mpctl's JSON against golden files (selftests/unit/golden/*.json), every
# key checked against the documented ones, one exit status per failure
# class; against the fake cmm_mp family and a fake sysfs.
UNIT_TESTS += $(B)/unit/test_mpctl_json

MPCTL_GOLDEN := $(sort $(wildcard selftests/unit/golden/*.json))

$(B)/unit/test_mpctl_json: selftests/unit/test_mpctl_json.sh \
		$(B)/unit/lib.sh $(B)/unit/fake_cmm_mp.so $(B)/mpctl/mpctl \
		$(MPCTL_GOLDEN) Documentation/mpctl.rst
	@mkdir -p $(@D)/golden
	rm -f $(@D)/golden/*.json
	$(if $(MPCTL_GOLDEN),cp $(MPCTL_GOLDEN) $(@D)/golden/)
	cp Documentation/mpctl.rst $(@D)/golden/mpctl.rst
	install -m 0755 $< $@
