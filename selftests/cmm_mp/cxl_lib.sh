# SPDX-License-Identifier: GPL-2.0
# Helpers of the CXL scenarios (sourced after /selftests/lib.sh; guests
# booted with scripts/vmrun --cxl SIZE).
CXL=/sys/bus/cxl/devices

# cxl_window_node: the CXL window's node, possible (CEDT/SRAT) but
# offline until memory is added
cxl_window_node() {
	awk -v p="$(cat /sys/devices/system/node/possible)" -v o="$(cat /sys/devices/system/node/online)" 'BEGIN {
		split(p, a, ","); split(o, b, ",")
		for (i in b) { n = split(b[i], r, "-"); for (j = r[1]; j <= r[n]; j++) on[j] = 1 }
		for (i in a) { n = split(a[i], r, "-"); for (j = r[1]; j <= r[n]; j++) if (!on[j]) { print j; exit } }
	}'
}

# cxl_enumerate: load the CXL and nvdimm drivers, wait until cxl_mem has
# bound mem0 (its endpoint port is up: cxl create-region takes only such an
# "active" memdev).  cxl_port is loaded before cxl_mem by name: Debian's
# kernel and the debug kernel have it built in, but where it is a module
# the guest's modprobe does not follow cxl_mem's softdep on it; without it
# no port is enabled, cxl_mem's probe fails (-ENXIO, silently) and is not
# tried again when cxl_port comes later.
cxl_enumerate() {
	for _m in cxl_acpi cxl_port cxl_pci cxl_mem cxl_pmem libnvdimm nd_pmem; do
		modprobe $_m 2>&1 | sed 's/^/# modprobe: /'
	done
	wait_until 30 "ls $CXL | grep -q '^endpoint' && test -e $CXL/mem0/driver"
	# the nvdimm bridge and the memdev's nmem must be bound before a pmem
	# region probes: Debian 6.1's cxl_pmem oopses in its probe's error
	# path (release_mappings) when the region comes up first
	wait_until 30 "ls $CXL | grep -q '^nvdimm-bridge' && ls $CXL | grep -q '^pmem' &&
		ls /sys/bus/nd/devices | grep -q '^nmem'"
	test -e $CXL/root0 -a -e $CXL/mem0/driver || {
		diag "$CXL: $(ls $CXL | tr '\n' ' ')"
		return 1
	}
}

# cxl_region_create: a pmem region over mem0 on the first root decoder;
# sets R (its name), BASE (its host physical base) and SIZE (bytes)
cxl_region_create() {
	_rd=$(ls $CXL | grep -m1 '^decoder0\.')
	cxl create-region -m -d "$_rd" -w 1 -t pmem mem0 > /tmp/cr.out 2>&1 || {
		sed 's/^/# /' /tmp/cr.out | head -n 20
		return 1
	}
	R=$(ls $CXL | grep -m1 '^region')
	BASE=$(cat $CXL/$R/resource 2>/dev/null)
	SIZE=$(($(cat $CXL/$R/size 2>/dev/null || echo 0)))
	test -n "$R"
}
