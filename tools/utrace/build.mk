# SPDX-License-Identifier: GPL-2.0
# utrace, the policy learner; included by the top Makefile after
# userspace/seccomp/build.mk (it links the seccomp library).
#
#   build/userspace/libutrace.a        the tracer, filter, counts and policy
#                                      writer (ujail --trace links it too)
#   build/bin/utrace                   the command
#   build/bin-asan/utrace              the same with ASan + UBSan, for tests
#   build/bin-static/utrace            static, for the QEMU guest
#   build/gen/count.bpf.o              the ebpf backend's kernel side, and
#   build/gen/count.skel.h             its skeleton (bpftool), which embeds it

UT_SRC := $(TOP)/tools/utrace
UT_CFLAGS := $(USR_CFLAGS) -I$(UT_SRC)
UT_SKEL := $(GEN)/count.skel.h
UT_HDRS := $(wildcard $(UT_SRC)/*.h) $(USR_HDRS) $(UT_SKEL)
UT_LIB_SRC := $(filter-out $(UT_SRC)/main.c $(UT_SRC)/%.bpf.c,$(wildcard $(UT_SRC)/*.c))
# libbpf, and what its static archive needs (ujail and the guest's utrace
# are static).
UT_BPF_LIBS := -lbpf -lelf -lz
# The BPF side: CO-RE against the running kernel's BTF, so no vmlinux.h.
UT_BPF_ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
# BPF_PROG() hands every argument over, used or not.
UT_BPF_CFLAGS := -target bpf -O2 -g -Wall -Wextra -Wno-unused-parameter -Werror -D__TARGET_ARCH_$(UT_BPF_ARCH) \
	-I$(UT_SRC) -idirafter /usr/include/$(shell gcc -dumpmachine)
UT_LIB_OBJ := $(patsubst $(UT_SRC)/%.c,$(UB)/utrace-obj/%.o,$(UT_LIB_SRC))
UT_LIB_ASAN := $(patsubst $(UT_SRC)/%.c,$(UB)/utrace-asan/%.o,$(UT_LIB_SRC))

.PHONY: utrace utrace-clang-check

utrace: $(B)/bin/utrace $(B)/bin-asan/utrace $(B)/bin-static/utrace

$(GEN)/count.bpf.o: $(UT_SRC)/count.bpf.c $(UT_SRC)/count_bpf.h
	@mkdir -p $(@D)
	clang $(UT_BPF_CFLAGS) -c -o $@ $<

$(UT_SKEL): $(GEN)/count.bpf.o
	bpftool gen skeleton $< name utrace_kcount > $@.tmp && mv $@.tmp $@

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
	$(CC) $(UT_CFLAGS) -o $@ $< $(UB)/libutrace.a $(UB)/libujail-seccomp.a -ljson-c \
		$(UT_BPF_LIBS)

$(B)/bin-asan/utrace: $(UT_SRC)/main.c $(UB)/libutrace-asan.a $(UB)/libujail-seccomp-asan.a \
		$(UT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(UT_CFLAGS) $(SANITIZE) -o $@ $< $(UB)/libutrace-asan.a \
		$(UB)/libujail-seccomp-asan.a -ljson-c $(UT_BPF_LIBS)

$(B)/bin-static/utrace: $(UT_SRC)/main.c $(UB)/libutrace.a $(UB)/libujail-seccomp.a $(UT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(UT_CFLAGS) -static -o $@ $< $(UB)/libutrace.a $(UB)/libujail-seccomp.a -ljson-c \
		$(UT_BPF_LIBS)

# The counter's other architecture branch (aarch64) compiles too.
utrace-clang-check: $(UT_SKEL)
	@for f in $(UT_LIB_SRC) $(UT_SRC)/main.c $(wildcard $(UT_SRC)/dl/*.c); do \
		clang $(UT_CFLAGS) -c -o /dev/null $$f || exit 1; \
	done; echo "clang: utrace, $(words $(UT_LIB_SRC) x $(wildcard $(UT_SRC)/dl/*.c)) files without a warning"
	@clang $(subst __TARGET_ARCH_$(UT_BPF_ARCH),__TARGET_ARCH_arm64,$(UT_BPF_CFLAGS)) \
		-c -o /dev/null $(UT_SRC)/count.bpf.c && \
		echo "clang: count.bpf.c for arm64 without a warning"
