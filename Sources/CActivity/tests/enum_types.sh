#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Compile-time checks of activity.h's enums with every C and C++ compiler given (those missing are
# skipped): see tests/enum_types.c. Usage: tests/enum_types.sh INCLUDE_DIR COMPILER...
include=$1
shift
source=$(dirname "$0")/enum_types.c
log=$(mktemp)
trap 'rm -f "$log"' EXIT
failures=0

fail() {
    echo "FAIL  $*"
    sed 's/^/  /' "$log"
    failures=$((failures + 1))
}

# compile COMPILER LANGUAGE FLAGS...: compiles enum_types.c, output in $log
compile() {
    compiler=$1
    language=$2
    shift 2
    "$compiler" -x "$language" -fsyntax-only -I"$include" "$@" "$source" >"$log" 2>&1
}

for compiler in "$@"; do
    if ! command -v "$compiler" >/dev/null 2>&1; then
        echo "skip  $compiler: not installed"
        continue
    fi
    before=$failures
    case $compiler in
    *++*) language=c++ standard=-std=c++11 ;;
    *) language=c standard=-std=c11 ;;
    esac
    compile "$compiler" "$language" "$standard" -Wall -Wextra -Werror ||
        fail "$compiler: the new names do not compile cleanly"
    if [ "$language" = c++ ]; then
        # C++ converts no enum to another: a level where a status belongs is an error.
        compile "$compiler" c++ "$standard" -DCASE_LEVEL_AS_STATUS &&
            fail "$compiler: a level passed as a status compiles"
    elif compile "$compiler" c "$standard" -Werror -Wenum-conversion -DNO_CASE; then
        # The property, in any compiler's words (clang 14 says -Wenum-conversion, clang 21
        # -Wimplicit-enum-enum-cast): the case is valid C, it fails only once warnings are errors,
        # and the diagnostic points at the line that passes one enum for the other.
        for case in CASE_LEVEL_AS_STATUS CASE_STATUS_AS_LEVEL; do
            line=$(grep -n "diagnosed: $case" "$source" | cut -d: -f1)
            if ! compile "$compiler" c "$standard" -Wenum-conversion -D$case; then
                fail "$compiler: $case does not compile even with warnings allowed"
            elif compile "$compiler" c "$standard" -Wall -Wextra -Wenum-conversion -Werror -D$case; then
                fail "$compiler: $case is not diagnosed (-Wall -Wextra -Wenum-conversion -Werror)"
            elif ! grep -q "enum_types\.c:$line:" "$log"; then
                fail "$compiler: $case fails, but not at enum_types.c:$line, the line that mixes the enums"
            fi
        done
    else
        echo "skip  $compiler: no -Wenum-conversion (gcc 10 or later, clang): it cannot tell a level from a status"
    fi
    # The names of version 0.1: still compile, with a deprecation warning that names the new one.
    if ! compile "$compiler" "$language" "$standard" -DCASE_OLD_NAMES; then
        fail "$compiler: the deprecated names no longer compile"
    elif ! grep -q "deprecated.*ACTIVITY_LEVEL_WARNING" "$log"; then
        fail "$compiler: the deprecated names compile without a deprecation warning"
    fi
    compile "$compiler" "$language" "$standard" -DCASE_OLD_NAMES -DACTIVITY_NO_DEPRECATED_NAMES &&
        fail "$compiler: ACTIVITY_NO_DEPRECATED_NAMES leaves the old names in"
    [ "$failures" -eq "$before" ] && echo "ok    enum types with $compiler"
done
[ "$failures" -eq 0 ]
