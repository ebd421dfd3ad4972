# make install: the programs, dynamically linked and stripped, and the
# shims, in one of two layouts; included by the top Makefile after the
# components' build.mk.
#
#   make install [DESTDIR=...] [PREFIX=/usr/local]    LAYOUT=prefix (default)
#       PREFIX/bin/ujail ujail-seccomp seccomp-trace (a link) utrace
#       PREFIX/lib/ujail/ujail-keeper
#       PREFIX/lib/libpreload-seccomp.so, PREFIX/lib/musl/libpreload-seccomp.so
#       PREFIX/share/man/man8/ujail.8 ujail-seccomp.8 seccomp-trace.8 (a link) utrace.8
#       PREFIX/share/man/man5/jailfs.5
#       PREFIX/share/bash-completion/completions/ujail (and links for the others)
#   make install [DESTDIR=...] LAYOUT=procd            where procd looks
#       /sbin/ujail ujail-seccomp seccomp-trace (a link) utrace
#       /lib/ujail/ujail-keeper
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
#   build/install/ujail                      ujail, dynamically linked
#   build/install/shimKEY/[musl/]libpreload-seccomp.so   the shims, KEY
#                                            from the bin directory

PREFIX ?= /usr/local
LAYOUT ?= prefix
DESTDIR ?=
STRIP ?= strip
INSTALL ?= install

ifneq ($(filter install,$(MAKECMDGOALS)),)
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
INST_PROGS := $(IB)/ujail $(B)/bin/ujail-seccomp $(B)/bin/utrace
INST_STRIP := $(INSTALL) -s --strip-program=$(STRIP)

.PHONY: install install-build

install-build: $(INST_PROGS) $(INST_SHIMS) $(UJ_KEEPER)

$(IB)/ujail: $(UJ_SRC)/main.c $(UJ_B)/libujail.a $(UJ_B)/libutrace.a $(UJ_B)/libujail-seccomp.a \
		$(UJ_HDRS)
	@mkdir -p $(@D)
	$(CC) $(UJ_CFLAGS) -o $@ $< $(UJ_B)/libujail.a $(UJ_B)/libutrace.a \
		$(UJ_B)/libujail-seccomp.a $(UJ_LDLIBS) -lcap $(UT_BPF_LIBS)

$(INST_SHIM_DIR)/libpreload-seccomp.so: $(PRELOAD_SRC) $(USR_HDRS)
	@mkdir -p $(@D)
	$(CC) $(USR_CFLAGS) -DUJS_SHIM_COMPILER='"$(INST_BIN)/ujail-seccomp"' -fPIC -shared \
		-Wl,-z,now -o $@ $(PRELOAD_SRC)

$(INST_SHIM_DIR)/musl/libpreload-seccomp.so: $(PRELOAD_SRC) $(USR_HDRS)
	@mkdir -p $(@D)
	musl-gcc $(USR_CFLAGS) -DUJS_SHIM_COMPILER='"$(INST_BIN)/ujail-seccomp"' -fPIC -shared \
		-Wl,-z,now -o $@ $(PRELOAD_SRC)

install: install-build
	$(INSTALL) -d $(DESTDIR)$(INST_BIN) $(DESTDIR)$(INST_LIB)/ujail $(DESTDIR)$(INST_LIB)/musl
	$(INST_STRIP) -m 755 $(IB)/ujail $(B)/bin/ujail-seccomp $(B)/bin/utrace $(DESTDIR)$(INST_BIN)/
	ln -sfn ujail-seccomp $(DESTDIR)$(INST_BIN)/seccomp-trace
	$(INST_STRIP) -m 755 $(UJ_KEEPER) $(DESTDIR)$(INST_LIB)/ujail/
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
