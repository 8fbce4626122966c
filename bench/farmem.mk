# farmem: a working set larger than its memory, checked word by word
# (bench/farmem/farmem.c), for the "far" part of `make bench`.
FARMEM		:= $(B)/bench/farmem

GUEST_BINS	+= $(FARMEM)
USERSPACE	+= $(FARMEM)

$(FARMEM): bench/farmem/farmem.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ $<
