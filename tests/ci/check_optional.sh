#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The build says which optional parts it found, and for each one it lacks,
# which Debian package brings it (cmake/wai_summary.cmake; `make` prints
# those lines). Configures (no build) three ways: as this machine has it
# (every part found: install-deps.sh installed them), with every part
# turned off by its option, and with every part's files out of sight
# (pkg-config and the library search see none, the wasm probe looks in an
# empty folder). `make web` names its missing packages in one line.
# usage: tests/ci/check_optional.sh        ends with "N passed, N failed"
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$ROOT/tests/tool/lib.bash"

configure() {  # configure NAME [ENV=VALUE...] -- CMAKE_ARGS...: the wai: lines into $TMP/NAME
    local name=$1; shift
    local envs=()
    while [[ $1 != -- ]]; do envs+=("$1"); shift; done
    shift
    if env "${envs[@]}" cmake -S "$ROOT" -B "$TMP/b-$name" -DCMAKE_BUILD_TYPE=Release \
        -DWAI_BUILD_TESTS=OFF -DWAI_BUILD_BENCH=OFF "$@" >"$TMP/log-$name" 2>&1; then
        ok
    else
        fail "configure $name: $(tail -c 400 "$TMP/log-$name")"
    fi
    sed -n 's/^-- wai: //p' "$TMP/log-$name" >"$TMP/$name"
}

has() {  # has NAME LINE
    if grep -qxF -- "$2" "$TMP/$1"; then ok; else fail "$1: no line '$2' in: $(cat "$TMP/$1")"; fi
}

configure found --
has found "oneDNN: yes, the native WebNN's convolutions"
has found "libsodium: yes, Ed25519 receipts (libwai_ed25519)"
has found "libpng: yes, PNG in the wai tool"
has found "GStreamer: yes, the plugin (gst/libgstwai.so)"
has found "WebAssembly toolchain: yes, make web can build web/dist/wai.wasm"

configure off -- -DWAI_WITH_DNNL=OFF -DWAI_WITH_SODIUM=OFF -DWAI_WITH_PNG=OFF -DWAI_BUILD_GST=OFF
has off "oneDNN: no (WAI_WITH_DNNL=OFF)"
has off "libsodium: no (WAI_WITH_SODIUM=OFF)"
has off "libpng: no (WAI_WITH_PNG=OFF)"
has off "GStreamer: no (WAI_BUILD_GST=OFF)"

mkdir -p "$TMP/empty"
configure absent PKG_CONFIG_LIBDIR="$TMP/empty" PKG_CONFIG_PATH= -- \
    "-DCMAKE_IGNORE_PATH=/usr/include;/usr/lib/x86_64-linux-gnu;/usr/lib;/lib/x86_64-linux-gnu" \
    -DWAI_WASI_PROBE="$TMP/empty"
has absent "oneDNN: no; install libdnnl-dev (Debian) and configure again"
has absent "libsodium: no; install libsodium-dev (Debian) and configure again"
has absent "libpng: no; install libpng-dev (Debian) and configure again"
has absent "GStreamer: no; install libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev (Debian) and configure again"
has absent "WebAssembly toolchain: no; install wasi-libc (Debian) and configure again"

# make web's first step: one line naming what is missing, not a compiler dump.
out=$(bash "$ROOT/tools/build/wasm_prereqs.sh" "$TMP/empty"); rc=$?
[[ $rc == 1 && "$out" == wasi-libc ]] && ok || fail "wasm_prereqs.sh: exit $rc, '$out'"
out=$(PATH="$TMP/empty" /bin/bash "$ROOT/tools/build/wasm_prereqs.sh" 2>&1); rc=$?
[[ $rc == 1 && "$out" == "clang libclang-rt-14-dev-wasm32 llvm lld" ]] && ok ||
    fail "wasm_prereqs.sh without clang: exit $rc, '$out'"
out=$(bash "$ROOT/tools/build/wasm_prereqs.sh"); rc=$?
[[ $rc == 0 && -z "$out" ]] && ok || fail "wasm_prereqs.sh here: exit $rc, '$out'"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
