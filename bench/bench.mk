# Benchmarks (Documentation/performance.rst), not part of `make check`:
#   make bench             every part of bench/run (BENCH_PARTS= picks some)
#   make bench-transport   mp_eth against Soft-RoCE alone (bench/transport.sh)
#   make soak              stressapptest for SOAK_SECONDS (600) on local pool
#                          memory (MP-L) and on an mmap of remote pool memory
#                          (MP-R): the memory and remote parts, results in
#                          runs/soak/
# `make unit` (so `make check`) runs bench/run_smoke.sh: bench/run on the
# memory part, 2 rounds of tiny sizes, and results.json checked well formed.
# It boots a guest with the modules as built (make check builds them first;
# `make unit` does not rebuild them, so a tree whose kernel code is being
# edited can still run the host tests).
SOAK_SECONDS ?= 600
.PHONY: bench bench-transport soak
UNIT_TESTS	+= bench/run_smoke.sh
bench/run_smoke.sh: userspace
bench: all
	@scripts/deps bench
	@bench/run

bench-transport: all
	@scripts/deps bench
	@bench/transport.sh

soak: all
	@scripts/deps bench
	@BENCH_OUT=$(CURDIR)/runs/soak BENCH_GSAT_SECONDS=$(SOAK_SECONDS) BENCH_SECONDS=1 \
		BENCH_TIMEOUT=$$(($(SOAK_SECONDS) + 900)) bench/run memory remote
