#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Whether this machine can build the WebAssembly module (`make web`):
# clang, LLVM's archiver, the wasm linker, Debian's wasi-libc and clang's
# wasm32 builtins. Prints the Debian packages that are missing on one line
# and exits 1; prints nothing and exits 0 when everything is there. `make
# web` runs it first, and CMake's summary of optional parts reports it.
#   tools/build/wasm_prereqs.sh [WASI_SYSROOT]      (default /usr)
set -u
sysroot=${1:-/usr}
missing=()
have() { command -v "$1" >/dev/null 2>&1; }
if have clang; then
    major=$(clang -dumpversion | cut -d. -f1)
    rt=$(clang --target=wasm32-wasi -print-libgcc-file-name 2>/dev/null)
    [[ -n "$rt" && -e "$rt" ]] || missing+=("libclang-rt-$major-dev-wasm32")
else
    major=14
    missing+=(clang "libclang-rt-$major-dev-wasm32")
fi
have llvm-ar || have "llvm-ar-$major" || missing+=(llvm)
have wasm-ld || have "wasm-ld-$major" || missing+=(lld)
[[ -e "$sysroot/lib/wasm32-wasi/crt1.o" ]] || missing+=(wasi-libc)
((${#missing[@]} == 0)) && exit 0
echo "${missing[*]}"
exit 1
