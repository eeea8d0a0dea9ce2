#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make install, checked: it works in a build directory where `make` never ran, and the activity.pc
# it installs names the PREFIX given to install, also after a `make` with the default PREFIX.
# Usage (from Sources/CActivity): tests/install_check.sh MAKE
make=${1:-make}
stage=$(mktemp -d "${TMPDIR:-/tmp}/libactivity-install.XXXXXX")
trap 'rm -rf "$stage"' EXIT
failures=0

fail() {
    echo "FAIL  make install: $*"
    failures=$((failures + 1))
}

# expect PC_FILE PREFIX LIBDIR: the .pc names these directories
expect() {
    if [ ! -f "$1" ]; then
        fail "no $1"
        return
    fi
    grep -qx "prefix=$2" "$1" || fail "$1 does not say prefix=$2: $(grep '^prefix=' "$1")"
    grep -qx "libdir=$3" "$1" || fail "$1 does not say libdir=$3: $(grep '^libdir=' "$1")"
    grep -qx "includedir=$2/include" "$1" || fail "$1 does not say includedir=$2/include"
    if command -v pkg-config >/dev/null; then
        found=$(PKG_CONFIG_PATH=$(dirname "$1") pkg-config --variable=libdir activity)
        [ "$found" = "$3" ] || fail "pkg-config reads libdir $found from $1, expected $3"
    fi
}

# A build directory of its own, never built: install builds what it installs.
$make -s --no-print-directory BUILD="$stage/fresh" install PREFIX=/opt/activity-fresh \
    DESTDIR="$stage/root-fresh" >"$stage/log" 2>&1 || { fail "without a prior make:"; cat "$stage/log"; }
root=$stage/root-fresh/opt/activity-fresh
for file in include/activity.h lib/libactivity.so.0 lib/libactivity.so lib/libactivity.a share/doc/libactivity/LICENSE; do
    [ -e "$root/$file" ] || fail "without a prior make, $file was not installed"
done
expect "$root/lib/pkgconfig/activity.pc" /opt/activity-fresh /opt/activity-fresh/lib

# `make` first (the default PREFIX), then install elsewhere, with and without a LIBDIR of its own.
$make -s --no-print-directory BUILD="$stage/built" >"$stage/log" 2>&1 || { fail "make:"; cat "$stage/log"; }
$make -s --no-print-directory BUILD="$stage/built" install PREFIX=/opt/activity-later \
    DESTDIR="$stage/root-later" >"$stage/log" 2>&1 || { fail "after make:"; cat "$stage/log"; }
expect "$stage/root-later/opt/activity-later/lib/pkgconfig/activity.pc" /opt/activity-later /opt/activity-later/lib
$make -s --no-print-directory BUILD="$stage/built" install PREFIX=/opt/activity-multiarch \
    LIBDIR=/opt/activity-multiarch/lib/x86_64-linux-gnu DESTDIR="$stage/root-multiarch" >"$stage/log" 2>&1 ||
    { fail "with LIBDIR:"; cat "$stage/log"; }
expect "$stage/root-multiarch/opt/activity-multiarch/lib/x86_64-linux-gnu/pkgconfig/activity.pc" \
    /opt/activity-multiarch /opt/activity-multiarch/lib/x86_64-linux-gnu

[ "$failures" -eq 0 ] && echo "ok    make install (no prior make; the .pc names the PREFIX given to install)"
[ "$failures" -eq 0 ]
