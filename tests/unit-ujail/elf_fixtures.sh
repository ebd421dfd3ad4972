#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Builds the programs elf_deps_test inspects into DIR (fresh):
#   glibc/hello               plain glibc dynamic program
#   runpath/bin/prog          DT_RUNPATH=$ORIGIN/../lib: libfoo.so, libchain.so.1 -> .1.0 -> .1.0.0
#   rpath/bin/prog            DT_RPATH=$ORIGIN/../lib: libmid.so, which needs libleaf.so
#   runpath-noinherit/bin/prog  the same with DT_RUNPATH: libleaf.so is not found
#   dirlink/bin/prog          $ORIGIN/../lib where lib -> libs.real (a directory link)
#   missing/bin/prog          needs libgone.so, deleted after linking
#   static/hello              static program
#   musl/hello                musl dynamic program (when musl-gcc is there)
#   m32/hello                 32-bit program (when gcc -m32 links)
#   scripts/*                 #! scripts
#   loop/a, loop/b            a symlink loop
#   sysroot/                  a merged-/usr root with the host's glibc and an
#                             ld.so.cache from ldconfig -r; opt/special only
#                             in its ld.so.conf; sysroot-compat: compat cache
# usage: elf_fixtures.sh DIR
set -euo pipefail
dir=$1
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
CC=${CC:-gcc}

cat >hello.c <<'C'
#include <stdio.h>
int main(void) { puts("hello"); return 0; }
C
cat >foo.c <<'C'
int foo(void) { return 1; }
C
cat >leaf.c <<'C'
int leaf(void) { return 2; }
C
cat >mid.c <<'C'
int leaf(void);
int mid(void) { return leaf(); }
C
cat >usefoo.c <<'C'
int foo(void);
int main(void) { return foo() - 1; }
C
cat >usemid.c <<'C'
int mid(void);
int main(void) { return mid() - 2; }
C

lib() {	# lib OUT SONAME SRC [LDFLAGS...]
	local out=$1 soname=$2 src=$3; shift 3
	$CC -shared -fPIC -o "$out" "$src" -Wl,-soname,"$soname" "$@"
}

mkdir -p glibc
$CC -o glibc/hello hello.c

mkdir -p runpath/bin runpath/lib
lib runpath/lib/libfoo.so libfoo.so foo.c
lib runpath/lib/libchain.so.1.0.0 libchain.so.1 leaf.c
ln -s libchain.so.1.0.0 runpath/lib/libchain.so.1.0
ln -s libchain.so.1.0 runpath/lib/libchain.so.1
ln -s libchain.so.1 runpath/lib/libchain.so
$CC -o runpath/bin/prog usefoo.c -Lrunpath/lib -Wl,--no-as-needed -lfoo -lchain \
	-Wl,-rpath,'$ORIGIN/../lib' -Wl,--enable-new-dtags

for kind in rpath runpath-noinherit; do
	mkdir -p $kind/bin $kind/lib
	lib $kind/lib/libleaf.so libleaf.so leaf.c
	lib $kind/lib/libmid.so libmid.so mid.c -L$kind/lib -lleaf
done
$CC -o rpath/bin/prog usemid.c -Lrpath/lib -lmid \
	-Wl,-rpath,'$ORIGIN/../lib' -Wl,--disable-new-dtags -Wl,-rpath-link,rpath/lib
$CC -o runpath-noinherit/bin/prog usemid.c -Lrunpath-noinherit/lib -lmid \
	-Wl,-rpath,'$ORIGIN/../lib' -Wl,--enable-new-dtags -Wl,-rpath-link,runpath-noinherit/lib

mkdir -p dirlink/bin dirlink/libs.real
lib dirlink/libs.real/libfoo.so libfoo.so foo.c
ln -s libs.real dirlink/lib
$CC -o dirlink/bin/prog usefoo.c -Ldirlink/lib -lfoo -Wl,-rpath,'$ORIGIN/../lib'

mkdir -p missing/bin missing/lib
lib missing/lib/libgone.so libgone.so foo.c
$CC -o missing/bin/prog usefoo.c -Lmissing/lib -lgone -Wl,-rpath,"$dir/missing/lib"
rm missing/lib/libgone.so

mkdir -p static
$CC -static -o static/hello hello.c

if command -v musl-gcc >/dev/null; then
	mkdir -p musl
	musl-gcc -o musl/hello hello.c
fi

if $CC -m32 -o m32.tmp hello.c 2>/dev/null; then
	mkdir -p m32
	mv m32.tmp m32/hello
fi

mkdir -p scripts
printf '#!/bin/sh\necho hi\n' >scripts/sh.sh
printf '#!/usr/bin/env sh\necho hi\n' >scripts/env.sh
printf '#! /usr/bin/env -S LC_ALL=C sh -e\necho hi\n' >scripts/env-split.sh
printf '#!/usr/bin/env no-such-command-here\n' >scripts/env-missing.sh
printf '#!/bin/sh -e\n' >scripts/b.sh
printf '#!%s/scripts/b.sh\n' "$dir" >scripts/a.sh
printf '#!%s/scripts/loop.sh\n' "$dir" >scripts/loop.sh
printf '#!/no/such/interpreter\n' >scripts/nointerp.sh
printf '#!sh\n' >scripts/relative.sh
chmod +x scripts/*

mkdir -p loop
ln -s b loop/a
ln -s a loop/b

# A root of its own: merged /usr, absolute links inside it, its own cache.
r=sysroot
mkdir -p $r/usr/bin $r/usr/lib/x86_64-linux-gnu $r/usr/lib64 $r/etc $r/opt/special
ln -s usr/bin $r/bin
ln -s usr/lib $r/lib
ln -s usr/lib64 $r/lib64
cp -L /lib/x86_64-linux-gnu/libc.so.6 $r/usr/lib/x86_64-linux-gnu/
cp -L /lib64/ld-linux-x86-64.so.2 $r/usr/lib/x86_64-linux-gnu/
ln -s /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 $r/usr/lib64/ld-linux-x86-64.so.2
lib $r/opt/special/libspecial.so.1 libspecial.so.1 foo.c
ln -s libspecial.so.1 $r/opt/special/libspecial.so
$CC -o $r/usr/bin/prog usefoo.c -L$r/opt/special -lspecial
echo /opt/special >$r/etc/ld.so.conf
cp -a $r sysroot-compat
/sbin/ldconfig -r "$dir/$r"
/sbin/ldconfig -r "$dir/sysroot-compat" -c compat
