#!/usr/bin/env bash
# Installs libwai (shared) into a temporary prefix and builds a small
# consumer against it twice: with CMake's find_package(wai) and with
# `pkg-config --cflags --libs wai`. Each consumer must print
# wai_status_name(WAI_stream_exhausted) == "stream_exhausted", and encode a
# stream with libwai_write that libwai decodes. Before them, the shared
# libraries' exports and the headers (check-exports.sh).
#   tests/ci/check-install.sh [WORKDIR]     (default: a fresh temp dir)
# Closes with "N passed, N failed" (three tests).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if [[ $# -ge 1 ]]; then
    work="$1"
else
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
fi
rm -rf "$work"; mkdir -p "$work"
work="$(cd "$work" && pwd -P)"
prefix="$work/prefix"
jobs="${WAI_JOBS:-2}"
passed=0 failed=0

result() {  # result NAME STATUS
    if [[ "$2" == 0 ]]; then
        echo "check-install: ok   $1"; passed=$((passed + 1))
    else
        echo "check-install: FAIL $1"; failed=$((failed + 1))
    fi
}

# Only the library: the consumer needs nothing else. The prefix is given at
# configure time because wai.pc records it.
echo "check-install: building and installing libwai into $prefix"
cmake -S "$WAI_REPO" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
    -DBUILD_SHARED_LIBS=ON -DCMAKE_INSTALL_PREFIX="$prefix" -DWAI_WITH_DNNL=OFF \
    -DWAI_BUILD_TOOLS=OFF -DWAI_BUILD_TESTS=OFF -DWAI_BUILD_BENCH=OFF -DWAI_BUILD_FUZZ=OFF
cmake --build "$work/build" -j"$jobs"
cmake --install "$work/build"

libdir="$(dirname "$(find "$prefix" -name 'libwai.so*' | head -n 1)")"

consumer_cmake() {
    cmake -S "$WAI_REPO/tests/ci/consumer" -B "$work/consumer-cmake" \
        -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release &&
        cmake --build "$work/consumer-cmake" &&
        "$work/consumer-cmake/consumer"
}

consumer_pkgconfig() {
    local pcdir flags
    pcdir="$(dirname "$(find "$prefix" -name wai.pc | head -n 1)")"
    flags="$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs wai_write wai)" || return 1
    echo "pkg-config --cflags --libs wai_write wai: $flags"
    # shellcheck disable=SC2086  # the flags are meant to split
    cc -std=c11 -Wall -Werror -o "$work/consumer-pc" "$WAI_REPO/tests/ci/consumer/main.c" $flags &&
        LD_LIBRARY_PATH="$libdir" "$work/consumer-pc"
}

rc=0; bash "$WAI_REPO/tests/ci/check-exports.sh" "$work/build" || rc=$?
result "exports, dependencies and headers alone (check-exports.sh)" "$rc"
rc=0; consumer_cmake || rc=$?; result "find_package(wai) consumer" "$rc"
rc=0; consumer_pkgconfig || rc=$?; result "pkg-config wai consumer" "$rc"
echo "$passed passed, $failed failed"
((failed == 0))
