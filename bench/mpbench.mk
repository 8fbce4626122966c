# mpbench: memory latency/bandwidth of system, local-pool and remote-pool
# memory (bench/mpbench/, Documentation/performance.rst). Built for the
# host and the guests; `make unit` runs a short smoke of it on the host.
MPBENCH_SRCS	:= $(addprefix bench/mpbench/,main.c target.c lat.c bw.c verify.c util.c)

GUEST_BINS	+= $(B)/bench/mpbench
USERSPACE	+= $(B)/bench/mpbench
UNIT_TESTS	+= bench/mpbench_smoke.sh bench/report_smoke.sh

$(B)/bench/mpbench: $(MPBENCH_SRCS) bench/mpbench/mpbench.h kernel/common/mp_seg.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) $(JSONC_CFLAGS) -pthread -o $@ \
		$(MPBENCH_SRCS) kernel/common/mp_seg.c $(JSONC_LIBS)
bench/mpbench_smoke.sh: $(B)/bench/mpbench
