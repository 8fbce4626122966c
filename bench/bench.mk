# Benchmarks. `make bench-transport`: mp_eth against Soft-RoCE between two
# guests on one link (bench/transport.sh; numbers in
# Documentation/performance.rst).
.PHONY: bench-transport
bench-transport: all
	@bench/transport.sh
