# scripts/check's arithmetic (scripts/tap-count) on canned TAP: skips apart,
# plans enforced, a silent guest and a skip under CI fail.
UNIT_TESTS += $(B)/unit/test_check

$(B)/unit/test_check: selftests/unit/test_check.sh scripts/tap-count
	@mkdir -p $(@D)
	install -m 0755 $< $@
