# ujail in the QEMU guest (busybox only); included by the top Makefile after
# userspace/ujail/build.mk and tests/ujail/tests.mk.
#
#   build/bin-static/ujail   the jail launcher, static: the guest has no
#                            json-c. The seccomp shims are found
#                            at ../lib from it (build/lib), as on the host.
#
# Same objects as build/bin/ujail (the archives are non-PIC), linked -static.

UJV_LIBS := $(B)/userspace/libujail.a $(B)/userspace/libutrace.a \
	$(B)/userspace/libujail-seccomp.a

.PHONY: ujail-vm

# What the guest run of tests/ujail/jail_test.sh needs (see scripts/check.sh).
ujail-vm: $(B)/bin-static/ujail $(B)/bin-static/ujail-seccomp ujail-jail-tests

$(B)/bin-static/ujail: $(TOP)/userspace/ujail/main.c $(UJV_LIBS)
	@mkdir -p $(@D)
	$(CC) $(UJ_CFLAGS) $(DEPFLAGS) -static -o $@ $< $(UJV_LIBS) -ljson-c $(UJ_NL_LIBS) \
		$(UT_BPF_LIBS)

DEPS += $(B)/bin-static/ujail
