# SPDX-License-Identifier: GPL-2.0
# utrace, the policy learner; included by the top Makefile after
# userspace/seccomp/build.mk (it links the seccomp library). The command is
# here (main.c); the library, which ujail --trace links too, is
# userspace/utrace/.
#
#   build/userspace/libutrace.a        the tracer, filter, counts and policy
#                                      writer (ujail --trace links it too)
#   build/bin/utrace                   the command
#   build/bin-asan/utrace              the same with ASan + UBSan, for tests
#   build/bin-static/utrace            static, for the QEMU guest
#   build/gen/utrace-count.bpf.o       the ebpf backend's kernel side, and
#   build/gen/count.skel.h             its skeleton (bpftool), which embeds it

UT_SRC := $(TOP)/userspace/utrace
UT_MAIN := $(TOP)/tools/utrace/main.c
# Includes name their component: "utrace/session.h", "seccomp/policy.h".
UT_CFLAGS := $(USR_CFLAGS) -I$(TOP)/userspace
UT_SKEL := $(GEN)/count.skel.h
UT_LIB_SRC := $(filter-out $(UT_SRC)/%.bpf.c,$(wildcard $(UT_SRC)/*.c))
# libbpf, and what its static archive needs (ujail and the guest's utrace
# are static).
UT_BPF_LIBS := -lbpf -lelf -lz
# The BPF side: CO-RE against the running kernel's BTF, so no vmlinux.h.
UT_BPF_ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
# BPF_PROG() hands every argument over, used or not.
UT_BPF_CFLAGS := -target bpf -O2 -g -Wall -Wextra -Wno-unused-parameter -Werror -D__TARGET_ARCH_$(UT_BPF_ARCH) \
	-I$(UT_SRC) -idirafter /usr/include/$(shell gcc -dumpmachine)
# Objects under utrace-lib*: not where the library's objects were before it
# moved from tools/utrace (their generated dependencies name the old path).
UT_LIB_OBJ := $(patsubst $(UT_SRC)/%.c,$(UB)/utrace-lib/%.o,$(UT_LIB_SRC))
UT_LIB_ASAN := $(patsubst $(UT_SRC)/%.c,$(UB)/utrace-lib-asan/%.o,$(UT_LIB_SRC))

.PHONY: utrace utrace-clang-check

utrace: $(B)/bin/utrace $(B)/bin-asan/utrace $(B)/bin-static/utrace

$(GEN)/utrace-count.bpf.o: $(UT_SRC)/count.bpf.c
	@mkdir -p $(@D)
	clang $(UT_BPF_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(UT_SKEL): $(GEN)/utrace-count.bpf.o
	bpftool gen skeleton $< name utrace_kcount > $@.tmp && mv $@.tmp $@

$(UB)/utrace-lib/%.o: $(UT_SRC)/%.c
	@mkdir -p $(@D)
	$(CC) $(UT_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(UB)/utrace-lib-asan/%.o: $(UT_SRC)/%.c
	@mkdir -p $(@D)
	$(CC) $(UT_CFLAGS) $(SANITIZE) $(DEPFLAGS) -c -o $@ $<

# The generated skeleton exists before the first compile reads it.
$(UB)/utrace-lib/bpf_count.o $(UB)/utrace-lib-asan/bpf_count.o: $(UT_SKEL)

$(UB)/libutrace.a: $(UT_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(UB)/libutrace-asan.a: $(UT_LIB_ASAN)
	@rm -f $@
	ar rcs $@ $^

$(B)/bin/utrace: $(UT_MAIN) $(UB)/libutrace.a $(UB)/libujail-seccomp.a
	@mkdir -p $(@D)
	$(CC) $(UT_CFLAGS) $(DEPFLAGS) -o $@ $< $(UB)/libutrace.a $(UB)/libujail-seccomp.a -ljson-c \
		$(UT_BPF_LIBS)

$(B)/bin-asan/utrace: $(UT_MAIN) $(UB)/libutrace-asan.a $(UB)/libujail-seccomp-asan.a
	@mkdir -p $(@D)
	$(CC) $(UT_CFLAGS) $(SANITIZE) $(DEPFLAGS) -o $@ $< $(UB)/libutrace-asan.a \
		$(UB)/libujail-seccomp-asan.a -ljson-c $(UT_BPF_LIBS)

$(B)/bin-static/utrace: $(UT_MAIN) $(UB)/libutrace.a $(UB)/libujail-seccomp.a
	@mkdir -p $(@D)
	$(CC) $(UT_CFLAGS) $(DEPFLAGS) -static -o $@ $< $(UB)/libutrace.a $(UB)/libujail-seccomp.a -ljson-c \
		$(UT_BPF_LIBS)

DEPS += $(GEN)/utrace-count.bpf.o $(UT_LIB_OBJ) $(UT_LIB_ASAN) $(B)/bin/utrace $(B)/bin-asan/utrace \
	$(B)/bin-static/utrace

# The counter's other architecture branch (aarch64) compiles too.
utrace-clang-check: $(UT_SKEL)
	@for f in $(UT_LIB_SRC) $(UT_MAIN) $(wildcard $(UT_SRC)/dl/*.c); do \
		clang $(UT_CFLAGS) -c -o /dev/null $$f || exit 1; \
	done; echo "clang: utrace, $(words $(UT_LIB_SRC) x $(wildcard $(UT_SRC)/dl/*.c)) files without a warning"
	@clang $(subst __TARGET_ARCH_$(UT_BPF_ARCH),__TARGET_ARCH_arm64,$(UT_BPF_CFLAGS)) \
		-c -o /dev/null $(UT_SRC)/count.bpf.c && \
		echo "clang: count.bpf.c for arm64 without a warning"
