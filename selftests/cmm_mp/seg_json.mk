# seg_json: checks and sums up `mpctl list` inside the guests (many.sh).
GUEST_BINS += $(B)/selftests/seg_json
USERSPACE += $(B)/selftests/seg_json

$(B)/selftests/seg_json: selftests/cmm_mp/seg_json.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WFLAGS) $(JSONC_CFLAGS) -o $@ $< $(JSONC_LIBS)
