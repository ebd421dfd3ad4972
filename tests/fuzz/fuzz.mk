# Fuzz targets: clang's libFuzzer with ASan + UBSan; included by the top
# Makefile after the userspace build files (it reuses their source lists).
#
#   build/fuzz/policy_fuzz       ujs_policy_parse()
#   build/fuzz/compile_fuzz      ujs_compile() against the reference evaluator
#   build/fuzz/jail_opts_fuzz    ujail's command line and jail file
#   build/fuzz/jailfs_opts_fuzz  jailfs' mount options (kernel/jailfs/opts.c)
#
#   make fuzz-build   the targets
#   make fuzz         each for FUZZ_SECONDS (600); FUZZ_TARGETS picks some
#
# The code under test is built again with clang and the fuzzer's coverage
# (-fsanitize=fuzzer-no-link); only the targets link libFuzzer's main.

FZ := $(B)/fuzz
FZ_SRC := $(TOP)/tests/fuzz
FUZZ_CC := clang
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?= policy compile jail_opts jailfs_opts
FZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FZ_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -D_GNU_SOURCE $(FZ_SAN) \
	-fsanitize=fuzzer-no-link
FZ_SECCOMP_CFLAGS := $(FZ_CFLAGS) -I$(US) -I$(GEN)
# -I$(US): the seccomp library's own fuzzers name its headers bare.
FZ_UJAIL_CFLAGS := $(FZ_CFLAGS) -I$(UJ_SRC) -I$(TOP)/userspace -I$(US) -I$(GEN) \
	-isystem /usr/include/libnl3
FZ_LINK := $(FUZZ_CC) -std=gnu11 -O1 -g $(FZ_SAN) -fsanitize=fuzzer
FZ_BINS := $(foreach t,policy compile jail_opts jailfs_opts,$(FZ)/$(t)_fuzz)

FZ_SECCOMP_OBJ := $(patsubst %.c,$(FZ)/seccomp/%.o,$(notdir $(SECCOMP_LIB_SRC)))
FZ_UJAIL_OBJ := $(patsubst $(UJ_SRC)/%.c,$(FZ)/ujail/%.o,$(UJ_LIB_SRC))
FZ_UTRACE_OBJ := $(patsubst $(UT_SRC)/%.c,$(FZ)/utrace-lib/%.o,$(UT_LIB_SRC))

.PHONY: fuzz fuzz-build

fuzz-build: $(FZ_BINS)

fuzz: fuzz-build
	@tests/fuzz/run.sh --seconds $(FUZZ_SECONDS) --out $(B)/results/fuzz $(FUZZ_TARGETS)

$(FZ)/seccomp/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FZ_SECCOMP_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(FZ)/ujail/%.o: $(UJ_SRC)/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FZ_UJAIL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(FZ)/utrace-lib/%.o: $(UT_SRC)/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FZ_SECCOMP_CFLAGS) $(DEPFLAGS) -I$(TOP)/userspace -c -o $@ $<

$(FZ)/utrace-lib/bpf_count.o: $(UT_SKEL)

$(FZ)/reference.o: $(TOP)/tests/unit/reference.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FZ_SECCOMP_CFLAGS) $(DEPFLAGS) -I$(TOP)/tests/unit -c -o $@ $<

# The module's option text, as the module compiles it (opts.h: no kernel
# headers but uapi ones).
$(FZ)/jailfs/opts.o: $(TOP)/kernel/jailfs/opts.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FZ_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(FZ)/libseccomp.a: $(FZ_SECCOMP_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(FZ)/libujail.a: $(FZ_UJAIL_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(FZ)/libutrace.a: $(FZ_UTRACE_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(FZ)/%_fuzz.o: $(FZ_SRC)/%_fuzz.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FZ_UJAIL_CFLAGS) $(DEPFLAGS) -I$(TOP)/tests/unit -I$(TOP)/kernel/jailfs -c -o $@ $<

DEPS += $(FZ_SECCOMP_OBJ) $(FZ_UJAIL_OBJ) $(FZ_UTRACE_OBJ) $(FZ)/reference.o $(FZ)/jailfs/opts.o \
	$(patsubst %,%.o,$(FZ_BINS))

$(FZ)/policy_fuzz: $(FZ)/policy_fuzz.o $(FZ)/libseccomp.a
	$(FZ_LINK) -o $@ $^ -ljson-c

$(FZ)/compile_fuzz: $(FZ)/compile_fuzz.o $(FZ)/reference.o $(FZ)/libseccomp.a
	$(FZ_LINK) -o $@ $^ -ljson-c

$(FZ)/jail_opts_fuzz: $(FZ)/jail_opts_fuzz.o $(FZ)/libujail.a $(FZ)/libutrace.a $(FZ)/libseccomp.a
	$(FZ_LINK) -o $@ $^ $(UJ_LDLIBS)

$(FZ)/jailfs_opts_fuzz: $(FZ)/jailfs_opts_fuzz.o $(FZ)/jailfs/opts.o
	$(FZ_LINK) -o $@ $^
