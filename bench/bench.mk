# Benchmarks (Documentation/performance.rst), not part of `make check`:
#   make bench             every part of bench/run (BENCH_PARTS= picks some)
#   make bench-transport   mp_eth against Soft-RoCE alone (bench/transport.sh)
.PHONY: bench bench-transport
bench: all
	@scripts/deps bench
	@bench/run

bench-transport: all
	@scripts/deps bench
	@bench/transport.sh
