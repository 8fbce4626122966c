# Unit tests for the mp_eth transport logic in kernel/common/: frame codec,
# receive window, RIFT, freshness of tagged frames, and a randomized model
# of the whole protocol over a lossy, duplicating, reordering network.
ETH_COMMON_H := include/uapi/linux/mp_eth.h kernel/common/mp_types.h \
	kernel/common/mp_bytes.h kernel/common/mp_sn.h kernel/common/mp_frame.h \
	kernel/common/mp_window.h kernel/common/mp_rift.h kernel/common/mp_stats.h \
	kernel/common/mp_replay.h

UNIT_TESTS += $(B)/unit/test_frame $(B)/unit/test_window $(B)/unit/test_rift \
	$(B)/unit/test_model $(B)/unit/test_model_parts $(B)/unit/test_replay \
	$(B)/unit/test_own_replay

$(B)/unit/test_frame: selftests/unit/test_frame.c kernel/common/mp_frame.c $(ETH_COMMON_H)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^) -lcmocka

$(B)/unit/test_window: selftests/unit/test_window.c kernel/common/mp_window.c $(ETH_COMMON_H)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^) -lcmocka

$(B)/unit/test_rift: selftests/unit/test_rift.c kernel/common/mp_rift.c \
		kernel/common/mp_frame.c $(ETH_COMMON_H)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^) -lcmocka

# The simulated network both model tests share.
MODEL_SIM := selftests/unit/model_sim.c selftests/unit/model_sim.h

$(B)/unit/test_model: selftests/unit/test_model.c $(MODEL_SIM) kernel/common/mp_frame.c \
		kernel/common/mp_window.c kernel/common/mp_rift.c $(ETH_COMMON_H)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^) -lcmocka

# Reads in parts, and hosts of different MTUs, in the same model.
$(B)/unit/test_model_parts: selftests/unit/test_model_parts.c $(MODEL_SIM) \
		kernel/common/mp_frame.c kernel/common/mp_window.c \
		kernel/common/mp_rift.c $(ETH_COMMON_H)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^) -lcmocka

$(B)/unit/test_replay: selftests/unit/test_replay.c kernel/common/mp_replay.c $(ETH_COMMON_H)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^) -lcmocka

# Ownership commands (and their responses) replayed across the SN wrap
# under the key: both ends' real code, 65,536 SNs and more.
$(B)/unit/test_own_replay: selftests/unit/test_own_replay.c \
		kernel/common/mp_frame.c kernel/common/mp_window.c \
		kernel/common/mp_rift.c kernel/common/mp_replay.c $(ETH_COMMON_H) \
		util/util.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^) -lcmocka
