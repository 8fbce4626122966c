# mpsim: discrete-event simulator of many pool devices running the
# kernel's discovery and transport logic (Documentation/simulation.rst).
# `make sim` regenerates the results in Documentation/; the unit stage
# runs a smoke test of it (selftests/unit/test_mpsim.c).
MPSIM_SRC := tools/mpsim/heap.c tools/mpsim/net.c tools/mpsim/disc.c \
	tools/mpsim/xport.c
MPSIM_COMMON := kernel/common/mp_disc.c kernel/common/mp_disc_pool.c \
	kernel/common/mp_pamt.c \
	kernel/common/mp_frame.c kernel/common/mp_window.c kernel/common/mp_rift.c
MPSIM_H := tools/mpsim/sim.h kernel/common/mp_disc.h kernel/common/mp_disc_priv.h kernel/common/mp_pamt.h \
	kernel/common/mp_frame.h kernel/common/mp_window.h \
	kernel/common/mp_rift.h kernel/common/mp_sn.h kernel/common/mp_types.h \
	include/uapi/linux/mp_eth.h include/uapi/linux/cmm_mp.h
# the same sources, with room for 2048 devices in a PAMT (the module: 16)
MPSIM_FLAGS := -DMP_PAMT_MAX_DEVS=2048 -Itools/mpsim

USERSPACE += $(B)/mpsim/mpsim
UNIT_TESTS += $(B)/unit/test_mpsim

$(B)/mpsim/mpsim: tools/mpsim/main.c $(MPSIM_SRC) $(MPSIM_COMMON) $(MPSIM_H)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(MPSIM_FLAGS) $(CFLAGS) $(WFLAGS) -o $@ \
		$(filter %.c,$^)

$(B)/unit/test_mpsim: selftests/unit/test_mpsim.c $(MPSIM_SRC) \
		$(MPSIM_COMMON) $(MPSIM_H)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(MPSIM_FLAGS) $(CFLAGS) $(WFLAGS) -o $@ \
		$(filter %.c,$^) -lcmocka

.PHONY: sim
sim: $(B)/mpsim/mpsim
	@scripts/deps sim
	tools/mpsim/report $(B)/mpsim/mpsim Documentation
