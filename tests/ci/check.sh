#!/usr/bin/env bash
# THE test command (`make check`, .ci/run). On a bare Debian 12 machine it
# installs what is missing, builds libwai in every configuration CI cares
# about and runs every test:
#
#   gcc, clang (-Werror)      unit tests, tool tests
#   ASan+UBSan (clang)        unit tests, tool tests
#   i386 (gcc -m32)           unit tests
#   aarch64 (clang, qemu)     unit tests
#   wasm32-wasi (clang, node) unit tests
#   libFuzzer (clang)         each target for WAI_FUZZ_SECONDS on a corpus copy
#   float check, cross-architecture exactness check, install/package check
#
# Each step's output goes to build/ci/logs/STEP.log; a failing step's log
# tail is printed. Every test program or script closes with
# "N passed, N failed"; those lines are summed (a fuzz target, or a build or
# program that fails without a closing line, counts as one test) into the
# aggregate line printed last. Exit status is non-zero when anything failed.
#
# Environment: WAI_JOBS (default: nproc), WAI_FUZZ_SECONDS (default 15),
# WAI_SKIP_DEPS=1 (do not run install-deps.sh).
set -uo pipefail   # no -e: a failing step is counted, and the others still run
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$WAI_REPO"

CI="$WAI_REPO/build/ci"
LOGS="$CI/logs"
CRASHES="$WAI_REPO/build/fuzz-crashes"   # outside build/ci: kept across runs
JOBS="${WAI_JOBS:-$(nproc 2>/dev/null || echo 2)}"
FUZZ_SECONDS="${WAI_FUZZ_SECONDS:-15}"
STEP_TIMEOUT=600   # no single test may hang the run

TOTAL_PASSED=0
TOTAL_FAILED=0
FAILED_STEPS=()
START=$SECONDS

section() { printf '\n==== %s ====\n' "$*"; }

elapsed() { printf '%ds' $((SECONDS - $1)); }

# show_log LOG: the end of a failing step's log, so the console stays short.
# Indented, so a log's own closing line is not mistaken for ours.
show_log() {
    echo "  ---- last 60 lines of $1"
    tail -n 60 "$1" | sed 's/^/  | /'
}

# show_build_log LOG: a failed build's diagnostics, then its last lines.
show_build_log() {
    echo "  ---- diagnostics in $1"
    grep -E 'error|warning|Error' "$1" | head -n 40 | sed 's/^/  | /'
    echo "  ---- last 10 lines"
    tail -n 10 "$1" | sed 's/^/  | /'
}

# count NAME PASSED FAILED: adds to the totals and remembers failures.
count() {
    TOTAL_PASSED=$((TOTAL_PASSED + $2))
    TOTAL_FAILED=$((TOTAL_FAILED + $3))
    (($3 == 0)) || FAILED_STEPS+=("$1")
}

# build NAME CMAKE_ARGS...: fresh configure + build in build/ci/NAME. A
# failed build counts as one failed test (its tests cannot run).
build() {
    local name="$1"; shift
    local dir="$CI/$name" log="$LOGS/build-$name.log" t0=$SECONDS
    section "build: $name"
    rm -rf "$dir"
    if { cmake -S "$WAI_REPO" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" &&
         cmake --build "$dir" -j"$JOBS"; } >"$log" 2>&1; then
        echo "  built $dir ($(elapsed $t0))"
        return 0
    fi
    echo "  FAIL build $name ($(elapsed $t0)); log: $log"
    show_build_log "$log"
    count "build-$name" 0 1
    return 1
}

# run_test NAME CMD...: one test program or script; its closing
# "N passed, N failed" line is added to the totals.
run_test() {
    local name="$1"; shift
    local log="$LOGS/$name.log" rc=0 t0=$SECONDS p f
    timeout --kill-after=10 "$STEP_TIMEOUT" "$@" >"$log" 2>&1 || rc=$?
    read -r p f < <(closing_counts "$log"; echo)
    if [[ -z "$p" ]]; then
        p=0 f=1   # crashed, hung or never got to its closing line
    elif ((rc != 0 && f == 0)); then
        f=1       # claimed success but exited non-zero
    fi
    count "$name" "$p" "$f"
    if ((f == 0)); then
        printf '  ok   %-28s %s passed (%s)\n' "$name" "$p" "$(elapsed $t0)"
    else
        printf '  FAIL %-28s %s passed, %s failed, exit %s (%s); log: %s\n' \
            "$name" "$p" "$f" "$rc" "$(elapsed $t0)" "$log"
        show_log "$log"
    fi
}

# unit_tests NAME ARCH DIR: the unit test binary of a build, run for ARCH.
unit_tests() {
    local name="$1" arch="$2" dir="$3" prog
    if ! prog="$(find_program "$dir" wai_unit_tests)"; then
        echo "  FAIL $name: wai_unit_tests not found in $dir"
        count "$name" 0 1
        return
    fi
    run_test "$name" bash "$WAI_REPO/tests/ci/run-arch.sh" "$arch" "$prog" --data "$WAI_REPO/tests"
}

# tool_tests NAME DIR: every tests/tool/*.sh against the build's `wai`.
tool_tests() {
    local name="$1" dir="$2" tool script
    local scripts=("$WAI_REPO"/tests/tool/*.sh)
    [[ -e "${scripts[0]}" ]] || { echo "  (no tool tests in tests/tool)"; return; }
    if ! tool="$(find_program "$dir" wai)"; then
        echo "  FAIL $name: the wai tool was not built in $dir"
        count "$name" 0 1
        return
    fi
    for script in "${scripts[@]}"; do
        run_test "$name-$(basename "$script" .sh)" bash "$script" "$tool"
    done
}

# fuzz_target DIR NAME: one libFuzzer target for FUZZ_SECONDS on a copy of
# its seed corpus (libFuzzer adds to its corpus directory; the committed one
# must not change). A crash is kept under build/fuzz-crashes/.
fuzz_target() {
    local dir="$1" name="$2" prog corpus rc=0 t0=$SECONDS
    local log="$LOGS/fuzz-$name.log"
    if ! prog="$(find_program "$dir" "$name")"; then
        echo "  FAIL fuzz $name: not built in $dir"
        count "fuzz-$name" 0 1
        return
    fi
    corpus="$(mktemp -d)"
    if [[ -d "$WAI_REPO/tests/fuzz/corpus/$name" ]]; then
        cp -R "$WAI_REPO/tests/fuzz/corpus/$name/." "$corpus/"
    fi
    local crashdir="$CRASHES/$name"
    mkdir -p "$crashdir"
    timeout --kill-after=10 $((FUZZ_SECONDS + 120)) "$prog" \
        -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$crashdir/" "$corpus" >"$log" 2>&1 || rc=$?
    rm -rf "$corpus"
    if ((rc == 0)); then
        count "fuzz-$name" 1 0
        printf '  ok   %-28s %s (%s)\n' "fuzz-$name" \
            "$(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$log" | sed 's/.*: *//') runs" \
            "$(elapsed $t0)"
    else
        count "fuzz-$name" 0 1
        echo "  FAIL fuzz-$name (exit $rc); log: $log"
        grep -E 'Test unit written to|artifact_prefix' "$log" | sed 's/^/  crash: /'
        show_log "$log"
    fi
}

# wasm32: the directory holding wasi-libc's include/ and lib/ (Debian: /usr).
wasi_sysroot() {
    local crt
    crt="$(dpkg -L wasi-libc 2>/dev/null | grep -m1 '/lib/wasm32-wasi/crt1.*\.o$')"
    if [[ -n "$crt" ]]; then dirname "$(dirname "$(dirname "$crt")")"; else echo /usr; fi
}

# ---------------------------------------------------------------------------

main() {
    section "dependencies"
    if [[ "${WAI_SKIP_DEPS:-0}" != 1 ]]; then
        if ! bash "$WAI_REPO/tests/ci/install-deps.sh"; then
            echo "FAIL: could not install the dependencies"
            echo "0 passed, 1 failed"
            exit 1
        fi
    fi

    rm -rf "$CI"
    mkdir -p "$LOGS" "$CRASHES"
    # Probe once; the scripts started below inherit the answer.
    WAI_I386_RUNNER="$(i386_runner)"
    export WAI_I386_RUNNER
    echo "i386 programs run: $WAI_I386_RUNNER"

    section "float check"
    run_test float-check bash "$WAI_REPO/tests/ci/check-no-float.sh"

    if build gcc -DCMAKE_C_COMPILER=gcc; then
        unit_tests unit-gcc x86-64 "$CI/gcc"
        tool_tests tool-gcc "$CI/gcc"
    fi

    if build clang -DCMAKE_C_COMPILER=clang; then
        unit_tests unit-clang x86-64 "$CI/clang"
        tool_tests tool-clang "$CI/clang"
    fi

    if build asan -DCMAKE_C_COMPILER=clang -DWAI_SANITIZE=ON -DWAI_BUILD_BENCH=OFF \
        -DCMAKE_C_FLAGS=-g; then
        export UBSAN_OPTIONS=print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1
        unit_tests unit-asan x86-64 "$CI/asan"
        tool_tests tool-asan "$CI/asan"
        unset UBSAN_OPTIONS ASAN_OPTIONS
    fi

    local xarch_ok=1
    if build i386 -DCMAKE_TOOLCHAIN_FILE="$WAI_REPO/cmake/toolchains/i386.cmake" \
        -DWAI_BUILD_BENCH=OFF; then
        unit_tests unit-i386 i386 "$CI/i386"
    else xarch_ok=0; fi

    if build aarch64 -DCMAKE_TOOLCHAIN_FILE="$WAI_REPO/cmake/toolchains/aarch64-linux-gnu-clang.cmake" \
        -DWAI_BUILD_BENCH=OFF; then
        unit_tests unit-aarch64 aarch64 "$CI/aarch64"
    else xarch_ok=0; fi

    if build wasm32 -DCMAKE_TOOLCHAIN_FILE="$WAI_REPO/cmake/toolchains/wasm32-wasi.cmake" \
        -DWASI_SYSROOT="$(wasi_sysroot)" -DWAI_BUILD_BENCH=OFF; then
        unit_tests unit-wasm32 wasm32 "$CI/wasm32"
    else xarch_ok=0; fi

    section "cross-architecture exactness"
    # Runs even when a build failed: the missing target then fails its test.
    [[ $xarch_ok == 1 ]] || echo "  (a cross build failed; its comparison will fail)"
    run_test xarch bash "$WAI_REPO/tests/ci/xarch.sh" "$CI/xarch" \
        x86-64="$CI/gcc" i386="$CI/i386" aarch64="$CI/aarch64" wasm32="$CI/wasm32"

    # libFuzzer needs the library itself instrumented for coverage, not only
    # the fuzz_*.c files, hence fuzzer-no-link on everything.
    local targets=() f
    for f in "$WAI_REPO"/tests/fuzz/fuzz_*.c; do
        [[ -e "$f" ]] && targets+=("$(basename "$f" .c)")
    done
    if ((${#targets[@]})) && build fuzz -DCMAKE_C_COMPILER=clang -DWAI_BUILD_FUZZ=ON \
        -DWAI_SANITIZE=ON -DCMAKE_C_FLAGS="-g -fsanitize=fuzzer-no-link" \
        -DWAI_BUILD_TOOLS=OFF -DWAI_BUILD_TESTS=OFF -DWAI_BUILD_BENCH=OFF; then
        section "fuzz (${FUZZ_SECONDS}s per target)"
        for f in "${targets[@]}"; do fuzz_target "$CI/fuzz" "$f"; done
    fi

    section "install and package"
    run_test install bash "$WAI_REPO/tests/ci/check-install.sh" "$CI/install"

    section "summary ($(elapsed $START))"
    if ((${#FAILED_STEPS[@]})); then
        echo "failed: ${FAILED_STEPS[*]}"
        echo "logs: $LOGS"
    else
        echo "all steps passed"
    fi
    echo "$TOTAL_PASSED passed, $TOTAL_FAILED failed"
    ((TOTAL_FAILED == 0))
}

main "$@"
