# libmpmap.so: large aligned allocations of an unmodified program on a
# mapping of a file or device (bench/mpmap/mpmap.c); `make bench` runs
# stressapptest on remote pool memory (an mmap of /dev/mpsN) with it.
MPMAP_SO	:= $(B)/bench/libmpmap.so

GUEST_BINS	+= $(MPMAP_SO)
USERSPACE	+= $(MPMAP_SO)
UNIT_TESTS	+= bench/mpmap_smoke.sh

$(MPMAP_SO): bench/mpmap/mpmap.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WFLAGS) -fPIC -shared -Wl,-soname,libmpmap.so -Wl,-z,defs \
		-o $@ $< -ldl -lpthread
bench/mpmap_smoke.sh: $(MPMAP_SO)
