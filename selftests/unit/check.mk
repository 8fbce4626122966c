# scripts/check's arithmetic (scripts/tap-count) on canned TAP: skips apart,
# plans enforced, a silent guest and a skip under CI fail.
UNIT_TESTS += $(B)/unit/test_check

$(B)/unit/test_check: selftests/unit/test_check.sh scripts/tap-count
	@mkdir -p $(@D)
	install -m 0755 $< $@

# scripts/check-results on canned logs: the results file and table of a
# check run (make check-debug's evidence), counted as scripts/check counts.
UNIT_TESTS += $(B)/unit/test_check_results

$(B)/unit/test_check_results: selftests/unit/test_check_results.sh scripts/check-results \
		$(B)/unit/lib.sh
	@mkdir -p $(@D)
	install -m 0755 $< $@
