# Benchmarks (Documentation/performance.rst), not part of `make check`:
#   make bench             every part of bench/run (BENCH_PARTS= picks some)
#   make bench-transport   mp_eth against Soft-RoCE alone (bench/transport.sh)
#   make soak              stressapptest for SOAK_SECONDS (600) on local pool
#                          memory (MP-L) and on an mmap of remote pool memory
#                          (MP-R): the memory and remote parts, results in
#                          runs/soak/
# `make check` runs bench/run_smoke.sh as a stage of its own (bench-smoke,
# after the build): bench/run on the memory part, 2 rounds of tiny sizes,
# and results.json checked well formed. It boots a guest, so it is not a
# unit test (`make unit` stays on the host).
SOAK_SECONDS ?= 600
.PHONY: bench bench-transport soak
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
