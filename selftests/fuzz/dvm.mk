# libFuzzer target for the DVM Permission Entry tables: the series' own
# drivers/iommu/dvm_pe.c (unpacked by dvm/dvm.mk) against a page-by-page
# model, with the FUZZ_CC/FUZZ_CFLAGS of fuzz.mk.
FUZZ_TARGETS += $(B)/fuzz/fuzz_dvm_pe

$(B)/fuzz/fuzz_dvm_pe: selftests/fuzz/fuzz_dvm_pe.c $(DVM_SERIES_STAMP)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS_COMMON) $(DVM_PE_CPPFLAGS) $(FUZZ_CFLAGS) $(WFLAGS) -o $@ \
		$< $(DVM_SERIES)/drivers/iommu/dvm_pe.c
