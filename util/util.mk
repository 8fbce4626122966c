# util/: what the userspace programs share (util.h, option tables). Its
# objects are linked into the programs that use them (mpctl).

UTIL_SRCS	:= util/parse-options.c util/sysfs.c
UTIL_OBJS	:= $(patsubst util/%.c,$(B)/util/%.o,$(UTIL_SRCS))

$(UTIL_OBJS): $(B)/util/%.o: util/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS) $(WFLAGS) -MMD -MP -c -o $@ $<

-include $(UTIL_OBJS:.o=.d)
