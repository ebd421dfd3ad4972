# make install: the programs, dynamically linked and stripped, and the
# shims, in one of two layouts; included by the top Makefile after the
# components' build.mk. make uninstall (the same DESTDIR, PREFIX, LAYOUT)
# removes them; make size prints their sizes (bench/size.sh).
#
#   make install [DESTDIR=...] [PREFIX=/usr/local]    LAYOUT=prefix (default)
#       PREFIX/bin/ujail ujail-seccomp seccomp-trace (a link) utrace
#       PREFIX/lib/ujail/ujail-keeper libujail-seccomp.so.0
#       PREFIX/lib/ujail/utrace-ebpf.so ujail-veth.so (plugins, loaded when used)
#       PREFIX/lib/libpreload-seccomp.so, PREFIX/lib/musl/libpreload-seccomp.so
#       PREFIX/share/man/man8/ujail.8 ujail-seccomp.8 seccomp-trace.8 (a link) utrace.8
#       PREFIX/share/man/man5/jailfs.5
#       PREFIX/share/bash-completion/completions/ujail (and links for the others)
#   make install [DESTDIR=...] LAYOUT=procd            where procd looks
#       /sbin/ujail ujail-seccomp seccomp-trace (a link) utrace
#       /lib/ujail/ujail-keeper libujail-seccomp.so.0 utrace-ebpf.so ujail-veth.so
#       /lib/libpreload-seccomp.so, /lib/musl/libpreload-seccomp.so
#
# ujail finds its keeper (../lib/ujail/ujail-keeper) and the shims
# (../lib/[musl/]libpreload-seccomp.so) beside its own path, as
# ujail-seccomp and seccomp-trace find the shims: the bin and lib
# directories are siblings in both layouts. The shims run BINDIR's
# ujail-seccomp for $SECCOMP_FILE, a path fixed when they are built (under
# build/install/), so they are rebuilt when BINDIR changes. The keeper
# stays static: it runs inside the jail, where no dynamic loader may be.
#
#   build/install/shimKEY/[musl/]libpreload-seccomp.so   the shims, KEY
#                                            from the bin directory

PREFIX ?= /usr/local
LAYOUT ?= prefix
DESTDIR ?=
STRIP ?= strip
INSTALL ?= install

ifneq ($(filter install uninstall,$(MAKECMDGOALS)),)
ifeq ($(filter prefix procd,$(LAYOUT)),)
$(error LAYOUT=$(LAYOUT): prefix or procd)
endif
endif

ifeq ($(LAYOUT),procd)
INST_BIN := /sbin
INST_LIB := /lib
INST_MAN :=
INST_COMPL :=
else
INST_BIN := $(PREFIX)/bin
INST_LIB := $(PREFIX)/lib
INST_MAN := $(PREFIX)/share/man
INST_COMPL := $(PREFIX)/share/bash-completion/completions
endif

INST_MAN8 := $(UJ_SRC)/ujail.8 $(TOP)/userspace/seccomp/ujail-seccomp.8 $(TOP)/tools/utrace/utrace.8
IB := $(B)/install
# One shim build per compiler path: the path, '_' as _u and '/' as _s.
INST_SHIM_DIR := $(IB)/shim$(subst /,_s,$(subst _,_u,$(INST_BIN)))
INST_SHIMS := $(INST_SHIM_DIR)/libpreload-seccomp.so $(INST_SHIM_DIR)/musl/libpreload-seccomp.so
INST_SHIM_CFLAGS := -DUJS_SHIM_COMPILER='"$(INST_BIN)/ujail-seccomp"'
INST_STRIP := $(INSTALL) -s --strip-program=$(STRIP)

# ---- the installed programs: small (README.md, "Routers"; make size) ----
#
#   build/install/lib/ujail/libujail-seccomp.so.0   the policy parser, compiler,
#       loader, syscall tables and utrace's tracer: one copy for ujail,
#       ujail-seccomp and utrace (private: lib/ujail, found through
#       RUNPATH $ORIGIN/../lib/ujail)
#   build/install/lib/ujail/utrace-ebpf.so   the eBPF counter, libbpf
#   build/install/lib/ujail/ujail-veth.so    --veth, libnl-route
#   build/install/bin/ujail ujail-seccomp utrace
#
# The plugins are dlopen'ed from beside the library only when used
# (userspace/seccomp/plugin.h): a start without --veth or the ebpf backend
# maps neither libnl nor libbpf, libelf and zlib.
# -Os and unused sections dropped; no unwind tables (C, no backtraces);
# RELR relocations; text and read-only data in one segment
# (noseparate-code: two 4 KiB paddings less per file).
SIZE_CFLAGS := -Os -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables
# musl's loader knows RELR from 1.2.4 on (Debian 12 has 1.2.3): the musl
# shim goes without.
SIZE_LDFLAGS_MUSL := -Wl,-O1 -Wl,--gc-sections -Wl,--as-needed -Wl,-z,noseparate-code
SIZE_LDFLAGS := $(SIZE_LDFLAGS_MUSL) -Wl,-z,pack-relative-relocs
INST_RUNPATH := -Wl,-rpath,'$$ORIGIN/../lib/ujail'
ILIB := $(IB)/lib/ujail
INST_SO := $(ILIB)/libujail-seccomp.so.0
INST_PLUGINS := $(ILIB)/utrace-ebpf.so $(ILIB)/ujail-veth.so
INST_PROGS := $(IB)/bin/ujail $(IB)/bin/ujail-seccomp $(IB)/bin/utrace
# The library's sources: the seccomp library, the plugin loader, utrace's
# tracer with the ebpf counter's loader for the counter.
INST_SO_UT_SRC := $(filter-out $(UT_SRC)/bpf_count.c,$(UT_LIB_SRC)) $(UT_SRC)/dl/bpf_count_dl.c
INST_SO_SRC := $(SECCOMP_LIB_SRC) $(US)/dl/plugin.c $(INST_SO_UT_SRC)
INST_SO_OBJ := $(patsubst %.c,$(IB)/pic/%.o,$(notdir $(SECCOMP_LIB_SRC) $(US)/dl/plugin.c)) \
	$(patsubst $(UT_SRC)/%.c,$(IB)/pic/utrace/%.o,$(INST_SO_UT_SRC))
# The ebpf plugin: the counter's libbpf half, its table.
INST_BPF_OBJ := $(IB)/pic/utrace/bpf_count.o $(IB)/pic/utrace/dl/bpf_plugin.o
# ujail's own code, the veth plugin's loader for veth.c.
INST_UJ_SRC := $(filter-out $(UJ_SRC)/isolation/veth.c,$(UJ_LIB_SRC)) $(UJ_SRC)/dl/veth_dl.c
INST_UJ_OBJ := $(patsubst $(UJ_SRC)/%.c,$(IB)/uj/%.o,$(INST_UJ_SRC))
# The veth plugin: its libnl half, the address parser, its table.
INST_VETH_OBJ := $(patsubst %,$(IB)/pic/ujail/%.o,isolation/veth options/net_addr dl/veth_plugin)
# -I$(US): the generated syscall tables include the seccomp library's headers bare.
INST_CFLAGS := $(UJ_CFLAGS) -I$(US) $(SIZE_CFLAGS)
# The flags are here: a change of them rebuilds what they build (the
# headers come from the generated dependencies, -MMD).
INST_MK := $(TOP)/scripts/install.mk

.PHONY: install install-build uninstall size

install-build: $(INST_PROGS) $(INST_SO) $(INST_PLUGINS) $(INST_SHIMS) $(UJ_KEEPER)

# Only the library's exported names are global: ujs_*, utrace_*.
$(IB)/pic/%.o: %.c $(INST_MK)
	@mkdir -p $(@D)
	$(CC) $(INST_CFLAGS) $(DEPFLAGS) -fPIC -c -o $@ $<

$(IB)/pic/%.o: $(US)/dl/%.c $(INST_MK)
	@mkdir -p $(@D)
	$(CC) $(INST_CFLAGS) $(DEPFLAGS) -fPIC -c -o $@ $<

$(IB)/pic/utrace/%.o: $(UT_SRC)/%.c $(INST_MK)
	@mkdir -p $(@D)
	$(CC) $(INST_CFLAGS) $(DEPFLAGS) -fPIC -c -o $@ $<

$(IB)/pic/ujail/%.o: $(UJ_SRC)/%.c $(INST_MK)
	@mkdir -p $(@D)
	$(CC) $(INST_CFLAGS) $(DEPFLAGS) -fPIC -c -o $@ $<

$(IB)/uj/%.o: $(UJ_SRC)/%.c $(INST_MK)
	@mkdir -p $(@D)
	$(CC) $(INST_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(IB)/uj/options/options_usage.o: $(TOP)/VERSION
$(IB)/pic/utrace/bpf_count.o: $(UT_SKEL)

# What a shared object exports (a version script): MAP-NAME, the globs.
$(IB)/%.map: $(TOP)/scripts/install.mk
	@mkdir -p $(@D)
	printf '{\n\tglobal: %s;\n\tlocal: *;\n};\n' '$(INST_EXPORT_$*)' >$@

INST_EXPORT_libujail-seccomp := ujs_*; utrace_*
# A plugin exports its table only: its copies of the utrace_bpf_* and
# jail_veth_* functions bind to themselves, not to the library's loaders.
INST_EXPORT_utrace-ebpf := utrace_bpf_plugin
INST_EXPORT_ujail-veth := jail_veth_plugin

$(INST_SO): $(INST_SO_OBJ) $(IB)/libujail-seccomp.map $(TOP)/scripts/install.mk
	@mkdir -p $(@D)
	$(CC) -shared -fPIC -Wl,-soname,libujail-seccomp.so.0 -Wl,-Bsymbolic-functions \
		-Wl,--version-script=$(IB)/libujail-seccomp.map $(SIZE_LDFLAGS) -Wl,-z,now \
		-o $@ $(INST_SO_OBJ) -ljson-c

# A plugin links the library (beside it); $(1): its map.
INST_PLUGIN_LD = $(CC) -shared -fPIC -Wl,--version-script=$(1) $(SIZE_LDFLAGS) -Wl,-z,now \
	-Wl,-rpath,'$$ORIGIN' -L$(ILIB) -o $@ $(filter %.o,$^) -l:libujail-seccomp.so.0

$(ILIB)/utrace-ebpf.so: $(INST_BPF_OBJ) $(INST_SO) \
		$(IB)/utrace-ebpf.map
	$(call INST_PLUGIN_LD,$(IB)/utrace-ebpf.map) $(UT_BPF_LIBS)

$(ILIB)/ujail-veth.so: $(INST_VETH_OBJ) $(INST_SO) \
		$(IB)/ujail-veth.map
	$(call INST_PLUGIN_LD,$(IB)/ujail-veth.map) $(UJ_NL_LIBS)

INST_PROG_LD = $(CC) $(SIZE_CFLAGS) $(SIZE_LDFLAGS) $(INST_RUNPATH) -o $@ $(filter %.o,$^) \
	-L$(ILIB) -l:libujail-seccomp.so.0

$(IB)/bin/ujail: $(IB)/uj/main.o $(INST_UJ_OBJ) $(INST_SO)
	@mkdir -p $(@D)
	$(INST_PROG_LD) -ljson-c

$(IB)/bin/ujail-seccomp: $(IB)/uj/seccomp_main.o $(INST_SO)
	@mkdir -p $(@D)
	$(INST_PROG_LD) -ljson-c

$(IB)/bin/utrace: $(IB)/uj/utrace_main.o $(INST_SO)
	@mkdir -p $(@D)
	$(INST_PROG_LD) -ljson-c

$(IB)/uj/seccomp_main.o: $(US)/main.c $(INST_MK)
	@mkdir -p $(@D)
	$(CC) $(INST_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(IB)/uj/utrace_main.o: $(UT_MAIN) $(INST_MK)
	@mkdir -p $(@D)
	$(CC) $(INST_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(INST_SHIM_DIR)/libpreload-seccomp.so: $(PRELOAD_SRC) $(INST_MK)
	@mkdir -p $(@D)
	$(CC) $(USR_CFLAGS) $(SIZE_CFLAGS) $(INST_SHIM_CFLAGS) \
		-fPIC -shared -Wl,-z,now $(SIZE_LDFLAGS) -o $@ $(PRELOAD_SRC)
	$(call MULTI_DEPS,$(CC) $(USR_CFLAGS) $(INST_SHIM_CFLAGS),$(PRELOAD_SRC))

$(INST_SHIM_DIR)/musl/libpreload-seccomp.so: $(PRELOAD_SRC) $(INST_MK)
	@mkdir -p $(@D)
	musl-gcc $(USR_CFLAGS) $(SIZE_CFLAGS) $(INST_SHIM_CFLAGS) \
		-fPIC -shared -Wl,-z,now $(SIZE_LDFLAGS_MUSL) -o $@ $(PRELOAD_SRC)
	$(call MULTI_DEPS,musl-gcc $(USR_CFLAGS) $(INST_SHIM_CFLAGS),$(PRELOAD_SRC))

DEPS += $(INST_SO_OBJ) $(INST_UJ_OBJ) $(IB)/uj/main.o $(IB)/uj/seccomp_main.o \
	$(IB)/uj/utrace_main.o $(INST_BPF_OBJ) $(INST_VETH_OBJ) \
	$(INST_SHIMS)

install: install-build
	$(INSTALL) -d $(DESTDIR)$(INST_BIN) $(DESTDIR)$(INST_LIB)/ujail $(DESTDIR)$(INST_LIB)/musl
	$(INST_STRIP) -m 755 $(INST_PROGS) $(DESTDIR)$(INST_BIN)/
	ln -sfn ujail-seccomp $(DESTDIR)$(INST_BIN)/seccomp-trace
	$(INST_STRIP) -m 755 $(UJ_KEEPER) $(DESTDIR)$(INST_LIB)/ujail/
	$(INST_STRIP) -m 644 $(INST_SO) $(INST_PLUGINS) $(DESTDIR)$(INST_LIB)/ujail/
	$(INST_STRIP) -m 755 $(INST_SHIM_DIR)/libpreload-seccomp.so $(DESTDIR)$(INST_LIB)/
	$(INST_STRIP) -m 755 $(INST_SHIM_DIR)/musl/libpreload-seccomp.so $(DESTDIR)$(INST_LIB)/musl/
	$(if $(INST_MAN),$(INSTALL) -d $(DESTDIR)$(INST_MAN)/man8 $(DESTDIR)$(INST_MAN)/man5 && \
		$(INSTALL) -m 644 $(INST_MAN8) $(DESTDIR)$(INST_MAN)/man8/ && \
		ln -sfn ujail-seccomp.8 $(DESTDIR)$(INST_MAN)/man8/seccomp-trace.8 && \
		$(INSTALL) -m 644 $(TOP)/kernel/jailfs/jailfs.5 $(DESTDIR)$(INST_MAN)/man5/)
	$(if $(INST_COMPL),$(INSTALL) -d $(DESTDIR)$(INST_COMPL) && \
		$(INSTALL) -m 644 $(TOP)/contrib/bash-completion/ujail $(DESTDIR)$(INST_COMPL)/ && \
		for n in ujail-seccomp seccomp-trace utrace; do \
			ln -sfn ujail $(DESTDIR)$(INST_COMPL)/$$n || exit 1; done)

# What install wrote, for the same DESTDIR, PREFIX and LAYOUT; the
# directories go too when nothing else is left in them.
INST_FILES = $(addprefix $(INST_BIN)/,ujail ujail-seccomp seccomp-trace utrace) \
	$(addprefix $(INST_LIB)/ujail/,ujail-keeper $(notdir $(INST_SO) $(INST_PLUGINS))) \
	$(INST_LIB)/libpreload-seccomp.so $(INST_LIB)/musl/libpreload-seccomp.so \
	$(if $(INST_MAN),$(addprefix $(INST_MAN)/man8/,$(notdir $(INST_MAN8)) seccomp-trace.8) \
		$(INST_MAN)/man5/jailfs.5) \
	$(if $(INST_COMPL),$(addprefix $(INST_COMPL)/,ujail ujail-seccomp seccomp-trace utrace))

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INST_FILES))
	-rmdir $(DESTDIR)$(INST_LIB)/ujail $(DESTDIR)$(INST_LIB)/musl 2>/dev/null

# The installed files' sizes next to procd's (bench/size.sh).
size:
	@$(TOP)/bench/size.sh
