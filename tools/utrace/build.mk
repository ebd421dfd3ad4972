# SPDX-License-Identifier: GPL-2.0
# utrace, the policy learner; included by the top Makefile after
# userspace/seccomp/build.mk (it links the seccomp library).
#
#   build/userspace/libutrace.a        the tracer, filter, counts and policy
#                                      writer (ujail --trace links it too)
#   build/bin/utrace                   the command
#   build/bin-asan/utrace              the same with ASan + UBSan, for tests
#   build/bin-static/utrace            static, for the QEMU guest

UT_SRC := $(TOP)/tools/utrace
UT_CFLAGS := $(USR_CFLAGS) -I$(UT_SRC)
UT_HDRS := $(wildcard $(UT_SRC)/*.h) $(USR_HDRS)
UT_LIB_SRC := $(filter-out $(UT_SRC)/main.c,$(wildcard $(UT_SRC)/*.c))
UT_LIB_OBJ := $(patsubst $(UT_SRC)/%.c,$(UB)/utrace-obj/%.o,$(UT_LIB_SRC))
UT_LIB_ASAN := $(patsubst $(UT_SRC)/%.c,$(UB)/utrace-asan/%.o,$(UT_LIB_SRC))

.PHONY: utrace utrace-clang-check

utrace: $(B)/bin/utrace $(B)/bin-asan/utrace $(B)/bin-static/utrace

$(UB)/utrace-obj/%.o: $(UT_SRC)/%.c $(UT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(UT_CFLAGS) -c -o $@ $<

$(UB)/utrace-asan/%.o: $(UT_SRC)/%.c $(UT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(UT_CFLAGS) $(SANITIZE) -c -o $@ $<

$(UB)/libutrace.a: $(UT_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(UB)/libutrace-asan.a: $(UT_LIB_ASAN)
	@rm -f $@
	ar rcs $@ $^

$(B)/bin/utrace: $(UT_SRC)/main.c $(UB)/libutrace.a $(UB)/libujail-seccomp.a $(UT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(UT_CFLAGS) -o $@ $< $(UB)/libutrace.a $(UB)/libujail-seccomp.a -ljson-c

$(B)/bin-asan/utrace: $(UT_SRC)/main.c $(UB)/libutrace-asan.a $(UB)/libujail-seccomp-asan.a \
		$(UT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(UT_CFLAGS) $(SANITIZE) -o $@ $< $(UB)/libutrace-asan.a \
		$(UB)/libujail-seccomp-asan.a -ljson-c

$(B)/bin-static/utrace: $(UT_SRC)/main.c $(UB)/libutrace.a $(UB)/libujail-seccomp.a $(UT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(UT_CFLAGS) -static -o $@ $< $(UB)/libutrace.a $(UB)/libujail-seccomp.a -ljson-c

utrace-clang-check:
	@for f in $(UT_LIB_SRC) $(UT_SRC)/main.c; do \
		clang $(UT_CFLAGS) -c -o /dev/null $$f || exit 1; \
	done; echo "clang: utrace, $(words $(UT_LIB_SRC) x) files without a warning"
