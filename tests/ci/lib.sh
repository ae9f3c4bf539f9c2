# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=bash
# Shared helpers for the tests/ci scripts (sourced, not run).

# The repository root, whatever the caller's directory.
WAI_REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"

# node flags for WASI: older nodes (Debian 12's 18.x) may want the flag,
# newer ones accept it as a no-op; --no-warnings keeps the
# "WASI is experimental" line out of the output. The probe is a node start
# of its own: wasi_node_probe runs it once and exports the answer
# (WAI_WASI_NODE_FLAG), so the hundreds of runs after it do not repeat it.
wasi_node_probe() {
    if [[ -z "${WAI_WASI_NODE_FLAG+set}" ]]; then
        WAI_WASI_NODE_FLAG=""
        if node --experimental-wasi-unstable-preview1 -e 0 >/dev/null 2>&1; then
            WAI_WASI_NODE_FLAG=--experimental-wasi-unstable-preview1
        fi
        export WAI_WASI_NODE_FLAG
    fi
}

wasi_node_cmd() {
    wasi_node_probe
    local flags=(--no-warnings)
    [[ -z "$WAI_WASI_NODE_FLAG" ]] || flags+=("$WAI_WASI_NODE_FLAG")
    printf '%s\n' node "${flags[@]}" "$WAI_REPO/tests/ci/run-wasi.mjs"
}

# How to run i386 programs here: natively, unless this kernel cannot (no
# IA32 emulation, as on some VMs and sandboxes); then under qemu-i386.
# Probed once with a trivial gcc -m32 program; cached in WAI_I386_RUNNER.
i386_runner() {
    if [[ -z "${WAI_I386_RUNNER:-}" ]]; then
        local probe
        probe="$(mktemp -d)"
        WAI_I386_RUNNER=native
        if printf 'int main(void) { return 0; }\n' >"$probe/p.c" &&
            gcc -m32 -o "$probe/p" "$probe/p.c" 2>/dev/null &&
            ! "$probe/p" 2>/dev/null && command -v qemu-i386 >/dev/null; then
            WAI_I386_RUNNER=qemu-i386
        fi
        rm -rf "$probe"
        export WAI_I386_RUNNER
    fi
    echo "$WAI_I386_RUNNER"
}

# run_for_arch ARCH PROGRAM [ARGS...]: runs a program built for ARCH on this
# x86-64 host (natively, under qemu-user or under node).
run_for_arch() {
    local arch="$1"; shift
    case "$arch" in
        x86-64) "$@" ;;
        i386)
            if [[ "$(i386_runner)" == native ]]; then "$@"; else qemu-i386 "$@"; fi ;;
        aarch64) qemu-aarch64 -L "${WAI_AARCH64_ROOT:-/usr/aarch64-linux-gnu}" "$@" ;;
        wasm32)
            local -a node_cmd
            mapfile -t node_cmd < <(wasi_node_cmd)
            "${node_cmd[@]}" "$@" ;;
        *) echo "run_for_arch: unknown arch $arch" >&2; return 2 ;;
    esac
}

# find_program DIR NAME: the built executable NAME (or NAME.wasm) under DIR.
find_program() {
    local dir="$1" name="$2" f
    for f in "$name" "$name.wasm"; do
        local hit
        hit="$(find "$dir" -type f \( -name "$f" \) -perm -u+x 2>/dev/null | sort | head -n 1)"
        if [[ -z "$hit" && "$f" == *.wasm ]]; then
            hit="$(find "$dir" -type f -name "$f" 2>/dev/null | sort | head -n 1)"
        fi
        if [[ -n "$hit" ]]; then printf '%s\n' "$hit"; return 0; fi
    done
    return 1
}

# closing_counts FILE: prints "PASSED FAILED SKIPPED" from the last
# "N passed, N failed" line of FILE (", N skipped" after it where a test
# could not run here: a build without the library it needs), or nothing
# when there is none.
closing_counts() {
    grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$1" 2>/dev/null | tail -n 1 |
        sed -E 's/^([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?$/\1 \2 \4/' |
        awk '{print $1, $2, ($3 == "" ? 0 : $3)}'
}
