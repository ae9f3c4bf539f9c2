#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# THE test command (`make check`, .ci/run). On a bare Debian 12 machine it
# installs what is missing, builds libwai in every configuration CI cares
# about and runs every test:
#
#   gcc (-Werror)             unit tests, tool tests
#   gcc                       the float path's agreement (tests/bmshj2018/run.sh)
#   ASan+UBSan (clang)        unit tests, tool tests (clang's -Werror: here and below)
#   i386 (gcc -m32)           unit tests
#   aarch64 (clang, qemu)     unit tests
#   wasm32-wasi (clang, node) unit tests; the JavaScript package (web/) in node
#   libFuzzer (clang)         each target for WAI_FUZZ_SECONDS on a corpus copy
#   float check, cross-architecture exactness check, install/package check
#
# Each step's output goes to build/ci/logs/STEP.log; a failing step's log
# tail is printed. Every test program or script closes with
# "N passed, N failed"; those lines are summed (a fuzz target, or a build or
# program that fails without a closing line, counts as one test) into the
# aggregate line printed last. Exit status is non-zero when anything failed.
#
# Environment: WAI_JOBS (default: nproc), WAI_FUZZ_SECONDS (default 10),
# WAI_SKIP_DEPS=1 (do not run install-deps.sh).
set -uo pipefail   # no -e: a failing step is counted, and the others still run
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$WAI_REPO" || exit 1

CI="$WAI_REPO/build/ci"
LOGS="$CI/logs"
CRASHES="$WAI_REPO/build/fuzz-crashes"   # outside build/ci: kept across runs
JOBS="${WAI_JOBS:-$(nproc 2>/dev/null || echo 2)}"
FUZZ_SECONDS="${WAI_FUZZ_SECONDS:-10}"
STEP_TIMEOUT=600   # no single test may hang the run
# Longer for a step of many checks that shares the machine with a queue.
declare -A STEP_TIMEOUTS=([mutants]=1200)

TOTAL_PASSED=0
TOTAL_FAILED=0
TOTAL_SKIPPED=0
FAILED_STEPS=()
START=$SECONDS

section() { printf '\n==== %s ====\n' "$*"; }

elapsed() { printf '%ds' $((SECONDS - $1)); }

# show_log LOG: the end of a failing step's log, so the console stays short.
# Indented, so a log's own closing line is not mistaken for ours.
show_log() {
    # The lines that name a failure first (unit tests' "FAIL name: ...",
    # Python's "FAIL test.id: ..."): a long log's end may not reach them.
    echo "  ---- failures named in $1"
    grep -E '^ *(FAIL|ERROR)[: ]' "$1" | head -n 20 | sed 's/^/  | /'
    echo "  ---- last 60 lines of $1"
    tail -n 60 "$1" | sed 's/^/  | /'
}

# show_build_log LOG: a failed build's diagnostics, then its last lines.
show_build_log() {
    echo "  ---- diagnostics in $1"
    grep -E -A3 'error|warning|Error' "$1" | head -n 40 | sed 's/^/  | /'
    echo "  ---- last 10 lines"
    tail -n 10 "$1" | sed 's/^/  | /'
}

# The steps whose skips are the target's, not this machine's set-up: what
# an i386 or wasm32 build cannot run (no __int128, x87, no threads, no
# level beyond portable), and Dawn in node, which finds no GPU adapter
# here. A skip anywhere else is a package CI failed to install: a failure.
SKIP_BY_TARGET='^(unit-i386-.*|unit-wasm32-.*|unit-aarch64-.*|web-gpu-node)$'
SKIPPED_STEPS=()
STEP_PASSED=()   # "NAME PASSED", one a step, for the distinct count

# count NAME PASSED FAILED [SKIPPED]: adds to the totals and remembers
# failures, and which steps skipped how many.
count() {
    STEP_PASSED+=("$1 $2")
    TOTAL_PASSED=$((TOTAL_PASSED + $2))
    TOTAL_FAILED=$((TOTAL_FAILED + $3))
    TOTAL_SKIPPED=$((TOTAL_SKIPPED + ${4:-0}))
    ((${4:-0} == 0)) || SKIPPED_STEPS+=("$1 (${4})")
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

# exec_test NAME CMD...: runs one test program or script, output to
# build/ci/logs/NAME.log, "EXIT SECONDS" to NAME.status. Reports nothing.
exec_test() {
    local name="$1"; shift
    local log="$LOGS/$name.log" rc=0 t0=$SECONDS
    timeout --kill-after=10 "${STEP_TIMEOUTS[$name]:-$STEP_TIMEOUT}" "$@" </dev/null >"$log" 2>&1 ||
        rc=$?
    echo "$rc $((SECONDS - t0))" >"$LOGS/$name.status"
}

# report_test NAME: adds the closing "N passed, N failed" line of NAME's log
# to the totals and prints one line (and the log's tail on failure).
report_test() {
    local name="$1" log="$LOGS/$1.log" rc secs p f k
    read -r rc secs <"$LOGS/$name.status"
    read -r p f k < <(closing_counts "$log"; echo)
    k=${k:-0}
    if [[ -z "$p" ]]; then
        p=0 f=1   # crashed, hung or never got to its closing line
    elif ((rc != 0 && f == 0)); then
        f=1       # claimed success but exited non-zero
    elif ((p == 0 && f == 0 && k == 0)); then
        f=1       # ran no check: nothing it stands for was tested
        echo "  $name ran no check"
    elif ((k > 0)) && [[ ! "$name" =~ $SKIP_BY_TARGET ]]; then
        f=1       # a skip for want of what install-deps.sh should have installed
        echo "  $name skipped $k checks: a package this machine lacks (tests/ci/install-deps.sh)"
    fi
    count "$name" "$p" "$f" "$k"
    if ((f == 0 && k > 0)); then
        printf '  ok   %-28s %s passed, %s skipped (%ss)\n' "$name" "$p" "$k" "$secs"
    elif ((f == 0)); then
        printf '  ok   %-28s %s passed (%ss)\n' "$name" "$p" "$secs"
    else
        printf '  FAIL %-28s %s passed, %s failed, exit %s (%ss); log: %s\n' \
            "$name" "$p" "$f" "$rc" "$secs" "$log"
        show_log "$log"
    fi
}

run_test() { exec_test "$@" && report_test "$1"; }

# queue_test NAME CMD...: a test to run later with run_queue, which runs up
# to JOBS of them at once (the tool tests and fuzzers are single-threaded;
# on a 2-core machine this about halves their wall time).
QUEUE_NAMES=()
QUEUE_CMDS=()
queue_test() {
    QUEUE_NAMES+=("$1"); shift
    QUEUE_CMDS+=("$(printf '%q ' "$@")")
}

run_queue() {
    local i
    for i in "${!QUEUE_NAMES[@]}"; do
        while (($(jobs -rp | wc -l) >= JOBS)); do wait -n || true; done
        eval "exec_test ${QUEUE_NAMES[i]} ${QUEUE_CMDS[i]}" &
    done
    wait
    for i in "${!QUEUE_NAMES[@]}"; do report_test "${QUEUE_NAMES[i]}"; done
    QUEUE_NAMES=()
    QUEUE_CMDS=()
}

# unit_tests NAME ARCH DIR: queues the unit test binary of a build, run for
# ARCH, as JOBS shards (NAME-1ofN ...) that run_queue runs side by side.
unit_tests() {
    local name="$1" arch="$2" dir="$3" prog k
    if ! prog="$(find_program "$dir" wai_unit_tests)"; then
        echo "  FAIL $name: wai_unit_tests not found in $dir"
        count "$name" 0 1
        return
    fi
    for ((k = 1; k <= JOBS; k++)); do
        queue_test "$name-${k}of$JOBS" bash "$WAI_REPO/tests/ci/run-arch.sh" "$arch" "$prog" \
            --data "$WAI_REPO/tests" --shard "$k/$JOBS"
    done
}

# tool_tests NAME DIR: queues every tests/tool/*.sh against the build's `wai`.
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
        queue_test "$name-$(basename "$script" .sh)" bash "$script" "$tool"
    done
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
    wasi_node_probe

    section "float check, the API's names, the layers, the licence lines"
    run_test float-check bash "$WAI_REPO/tests/ci/check-no-float.sh"
    run_test api-names /usr/bin/python3 "$WAI_REPO/tests/ci/check_api_names.py" "$WAI_REPO/include"
    run_test layers /usr/bin/python3 "$WAI_REPO/tests/ci/check_layers.py" "$WAI_REPO/src"
    # Every source file names its licence (LICENSE, THIRD-PARTY.md).
    run_test spdx /usr/bin/python3 "$WAI_REPO/tests/ci/check_spdx.py" "$WAI_REPO"
    # The build names each optional part it lacks and the package that brings it.
    run_test optional-parts bash "$WAI_REPO/tests/ci/check_optional.sh"
    # docs/testing.md's campaign figures are the committed ledger's.
    run_test fuzz-figures /usr/bin/python3 "$WAI_REPO/tests/fuzz/campaign_sum.py" \
        "$WAI_REPO/tests/fuzz/campaign-ledger.tsv" --check "$WAI_REPO/docs/testing.md"
    run_test fuzz-figures-tool /usr/bin/python3 "$WAI_REPO/tests/fuzz/test_campaign.py"
    # The fuzz builds' coverage ignore list names only what src/ has.
    run_test fuzz-ignorelist bash "$WAI_REPO/tests/fuzz/check_ignorelist.sh"
    # The WebNN cases written from the spec (the unary operators against
    # float64 among them) are their generator's output, unedited.
    run_test webnn-spec-cases /usr/bin/python3 "$WAI_REPO/tests/webnn/gen_spec_cases.py" --check \
        "$WAI_REPO/tests/webnn/cases_spec.json"
    # docs/testing.md's table of planted bugs is the last sweep's log, and
    # each bug of the list still applies to the code.
    run_test mutants-table /usr/bin/python3 "$WAI_REPO/tests/mutation/run.py" \
        --from-log "$WAI_REPO/tests/mutation/sweep.json" --check "$WAI_REPO/docs/testing.md"
    run_test mutants-list /usr/bin/python3 "$WAI_REPO/tests/mutation/run.py" --list
    # The root's seed table is the generator's output, unedited.
    run_test isqrt-seed /usr/bin/python3 "$WAI_REPO/tools/ops/isqrt_seed.py" --check \
        "$WAI_REPO/src/ops/x86/isqrt_seed.h"

    if build gcc -DCMAKE_C_COMPILER=gcc; then
        # One queue for every test of this build, the longest first: the
        # README's pipe, GStreamer pipeline, Dask batch and RD command, as
        # written there (the RD table's command takes about five minutes,
        # mostly on one core), run beside the others, not after them.
        # Planted bugs (tests/mutation/mutants.txt, those marked ci:), each
        # in a copy of the tree, each caught by the end-to-end checks its
        # line names; the whole table is docs/testing.md's. Its own builds
        # take both cores, its checks one: the queue fills the other.
        # Each check it holds a bug to runs on this tree in this queue as
        # well, so it skips the unmutated copy's run of them (--no-baseline).
        queue_test mutants /usr/bin/python3 "$WAI_REPO/tests/mutation/run.py" --ci --no-baseline \
            --work "$CI/mutation" --jobs "$JOBS"
        queue_test readme-snippets bash "$WAI_REPO/tests/ci/readme_snippets.sh" "$CI/gcc"
        # The reference of the cross-architecture comparison (below).
        queue_test xarch-record-x86-64 bash "$WAI_REPO/tests/ci/xarch.sh" --record "$CI/xarch" \
            x86-64="$CI/gcc"
        unit_tests unit-gcc x86-64 "$CI/gcc"
        tool_tests tool-gcc "$CI/gcc"
        # The float path end to end: a smoke-trained set, its payloads and
        # the shipped ones against torch and ONNX Runtime.
        queue_test bmshj2018-agreement bash "$WAI_REPO/tests/bmshj2018/run.sh" "$CI/gcc"
        # The Python module over this build's library, then as pip installs it.
        queue_test python-module env WAI_LIBRARY="$CI/gcc/libwai_python.so" \
            WAI_TOOL="$CI/gcc/tools/wai/wai" /usr/bin/python3 "$WAI_REPO/python/tests/run.py"
        # Mutated payloads, sets and options through the module's glue.
        queue_test python-fuzz-glue env WAI_LIBRARY="$CI/gcc/libwai_python.so" \
            /usr/bin/python3 "$WAI_REPO/python/tests/fuzz_glue.py" 3000
        queue_test python-pip bash "$WAI_REPO/tests/ci/python-pip.sh" "$CI/gcc/tools/wai/wai"
        # The GStreamer plugin's pipelines against the tool's decodes.
        if [[ -e "$CI/gcc/gst/libgstwai.so" ]]; then
            queue_test gstreamer bash "$WAI_REPO/tests/gst/test_gst.sh" "$CI/gcc"
            # Mutated payloads through the elements, pushed and pulled, in a
            # driver of our own (tests/gst/hostile.c); under ASan below.
            queue_test gst-hostile "$CI/gcc/gst/wai_gst_hostile" "$WAI_REPO" 3000
        else
            echo "  FAIL gstreamer: the plugin was not built (libgstreamer1.0-dev?)"
            count gstreamer 0 1
        fi
        # One licence and one version in everything the build ships.
        queue_test release /usr/bin/python3 "$WAI_REPO/tests/ci/check_release.py" "$CI/gcc"
        # The BD-rate the RD table and the motion benchmark report.
        queue_test rd-bd /usr/bin/python3 "$WAI_REPO/tools/rd/bd.py"
        # The inverse GDN's seeded root on every n below 2^32.
        if isqrt_all="$(find_program "$CI/gcc" wai_isqrt_all)"; then
            queue_test isqrt-exhaustive "$isqrt_all"
        fi
        # The hyperprior's training script, as a three-step smoke run.
        queue_test hyperprior-smoke bash "$WAI_REPO/tests/hyperprior/smoke.sh" "$CI/gcc"
        # WIM1's: the entropy network's training, fit and lowering, as smoke runs.
        queue_test mlicpp-smoke bash "$WAI_REPO/tests/mlicpp/smoke.sh" "$CI/gcc"
        run_queue
    fi

    # clang builds five times below (ASan+UBSan, TSan, aarch64, wasm32,
    # libFuzzer), each with -Werror; the ASan build, Release like the others,
    # runs the unit tests and the tool scripts. A plain clang build ran them
    # a second time for some 100 s.

    # ASan reserves terabytes of address space: under an address-space limit
    # every sanitized program fails at start. Say so once, as one failure,
    # instead of hundreds.
    local vlimit
    vlimit=$(ulimit -v)
    if [[ "$vlimit" != unlimited ]]; then
        section "build: asan"
        echo "  FAIL asan: the address space is limited (ulimit -v = $vlimit KiB) and"
        echo "  AddressSanitizer cannot start under a limit; run 'ulimit -v unlimited'"
        echo "  (or make check in a shell without the limit). The sanitizer runs are skipped."
        count asan-address-space-limit 0 1
    elif build asan -DCMAKE_C_COMPILER=clang -DWAI_SANITIZE=ON -DWAI_BUILD_BENCH=OFF \
        -DCMAKE_C_FLAGS=-g; then
        export UBSAN_OPTIONS=print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1
        unit_tests unit-asan x86-64 "$CI/asan"
        tool_tests tool-asan "$CI/asan"
        # The GStreamer elements compiled with the sanitizers, against the
        # sanitized libwai (no gst-launch loads a sanitized plugin).
        queue_test gst-hostile-asan "$CI/asan/gst/wai_gst_hostile" "$WAI_REPO" 1000
        run_queue
        unset UBSAN_OPTIONS ASAN_OPTIONS
    fi

    # ThreadSanitizer over the pool and every kernel's split of its work:
    # the tests that run the kernels and decodes at several thread counts.
    if [[ "$vlimit" == unlimited ]] && build tsan -DCMAKE_C_COMPILER=clang -DWAI_TSAN=ON \
        -DWAI_BUILD_BENCH=OFF -DWAI_BUILD_TOOLS=OFF -DCMAKE_C_FLAGS=-g; then
        local tprog
        if tprog="$(find_program "$CI/tsan" wai_unit_tests)"; then
            run_test unit-tsan env TSAN_OPTIONS=halt_on_error=1 "$tprog" --data "$WAI_REPO/tests" \
                --filter "threads,layers_diff/thread_shapes,layers_diff/igdn_dot_edges,layers_diff/bmshj_shapes,diff/motion_pipe_threads,layers/stage_rgb8_interleave"
        else
            echo "  FAIL unit-tsan: wai_unit_tests not found in $CI/tsan"
            count unit-tsan 0 1
        fi
    fi

    # The cross builds first, then one queue for all their tests: the
    # unit tests under qemu and node, and each architecture's record of
    # the corpus and the examples (compared below) beside them.
    local xarch_ok=1 i386_ok=0 aarch64_ok=0 wasm32_ok=0
    build i386 -DCMAKE_TOOLCHAIN_FILE="$WAI_REPO/cmake/toolchains/i386.cmake" \
        -DWAI_BUILD_BENCH=OFF && i386_ok=1
    build aarch64 -DCMAKE_TOOLCHAIN_FILE="$WAI_REPO/cmake/toolchains/aarch64-linux-gnu-clang.cmake" \
        -DWAI_BUILD_BENCH=OFF && aarch64_ok=1
    build wasm32 -DCMAKE_TOOLCHAIN_FILE="$WAI_REPO/cmake/toolchains/wasm32-wasi.cmake" \
        -DWASI_SYSROOT="$(wasi_sysroot)" -DWAI_BUILD_BENCH=OFF && wasm32_ok=1
    section "cross-architecture tests"
    if ((i386_ok)); then
        unit_tests unit-i386 i386 "$CI/i386"
        queue_test xarch-record-i386 bash "$WAI_REPO/tests/ci/xarch.sh" --record "$CI/xarch" \
            i386="$CI/i386"
        # Planted faults (a crashing tool, no ffmpeg, no WAI_TOOL, what
        # i386 cannot run) show as failures or skips, never as passes.
        queue_test counts bash "$WAI_REPO/tests/ci/check_counts.sh" "$CI/gcc" "$CI/i386"
    else xarch_ok=0; fi
    if ((wasm32_ok)); then
        queue_test xarch-record-wasm32 bash "$WAI_REPO/tests/ci/xarch.sh" --record "$CI/xarch" \
            wasm32="$CI/wasm32"
    else xarch_ok=0; fi
    if ((aarch64_ok)); then
        unit_tests unit-aarch64 aarch64 "$CI/aarch64"
        queue_test xarch-record-aarch64 bash "$WAI_REPO/tests/ci/xarch.sh" --record "$CI/xarch" \
            aarch64="$CI/aarch64"
    else xarch_ok=0; fi
    ((wasm32_ok)) && unit_tests unit-wasm32 wasm32 "$CI/wasm32"
    run_queue

    if ((wasm32_ok)); then
        # The JavaScript package over the same build's WebAssembly module:
        # the corpus in node, and npm pack installed into an empty folder.
        run_test web-node node "$WAI_REPO/web/test/corpus.mjs" "$CI/wasm32/web/wai.wasm"
        run_test web-node-threads node "$WAI_REPO/web/test/corpus.mjs" "$CI/wasm32/web/wai.wasm" --threads 2
        # Pins over the shipped sets in the npm package (decode, decodeAsync).
        run_test web-pins node "$WAI_REPO/web/test/pins.mjs" "$CI/wasm32/web/wai.wasm" \
            "$WAI_REPO/build/npm/node_modules"
        run_test web-fuzz-glue node "$WAI_REPO/web/test/fuzz_glue.mjs" "$CI/wasm32/web/wai.wasm" 3000
        run_test web-pack bash "$WAI_REPO/tests/web/pack.sh" "$CI/wasm32/web/wai.wasm" \
            "$CI/gcc/tools/wai/wai"
        # The float path in node: no WebNN, and the onnx-runtime path on
        # onnxruntime-node (build/npm).
        run_test web-float-node node "$WAI_REPO/web/test/float_node.mjs" "$CI/wasm32/web/wai.wasm" \
            "$("$CI/gcc/tools/wai/wai" inspect --cost --set "$WAI_REPO/examples/bmshj2018/sets/q3" \
               "$WAI_REPO/examples/bmshj2018/chelsea.b18f" | sed -n 's/.*"symbols_digest": "\([0-9a-f]*\)".*/\1/p')" \
            "$WAI_REPO/build/npm/node_modules"
        # The page in headless Chromium, with and without WebNN (screenshots
        # in build/ci/browser).
        run_test web-browser node "$WAI_REPO/web/test/browser.mjs" "$CI/wasm32/web/wai.wasm" \
            "$CI/gcc/tools/wai/wai" "$WAI_REPO/build/npm/node_modules" "$CI/browser"
        # The page under hostile input: set files read by name within max-memory, mutated payloads.
        run_test web-page-fuzz node "$WAI_REPO/web/test/page_fuzz.mjs" "$CI/wasm32/web/wai.wasm" \
            "$WAI_REPO/build/npm/node_modules"
        # The gpu/wgsl/integer path: the corpus and the examples on WebGPU
        # (SwiftShader, a CPU adapter), and a broken kernel refused.
        run_test web-gpu node "$WAI_REPO/web/test/gpu_browser.mjs" "$CI/wasm32/web/wai.wasm" \
            "$CI/gcc/tools/wai/wai" "$WAI_REPO/build/npm/node_modules"
        # The same path in node through Dawn (npm webgpu): a skip line where
        # Dawn has no adapter or node no JSPI (Debian 12: both).
        run_test web-gpu-node node "$WAI_REPO/web/test/gpu_node.mjs" "$CI/wasm32/web/wai.wasm" \
            "$WAI_REPO/build/npm/node_modules"
    fi

    section "cross-architecture exactness"
    # Runs even when a build failed: the missing target then fails its test.
    [[ $xarch_ok == 1 ]] || echo "  (a cross build failed; its comparison will fail)"
    run_test xarch bash "$WAI_REPO/tests/ci/xarch.sh" --compare "$CI/xarch" \
        x86-64 i386 aarch64 wasm32

    # WAI_BUILD_FUZZ instruments the library too (CMakeLists.txt), so the
    # fuzzers see coverage of the code under test, not only of fuzz_*.c.
    local targets=() f prog
    for f in "$WAI_REPO"/tests/fuzz/fuzz_*.c; do
        [[ -e "$f" ]] && targets+=("$(basename "$f" .c)")
    done
    if [[ "$vlimit" != unlimited ]]; then
        echo "  (fuzz targets skipped: they run under AddressSanitizer, see asan above)"
    elif ((${#targets[@]})) && build fuzz -DCMAKE_C_COMPILER=clang -DWAI_BUILD_FUZZ=ON \
        -DCMAKE_C_FLAGS=-g -DWAI_BUILD_TOOLS=OFF -DWAI_BUILD_TESTS=OFF -DWAI_BUILD_BENCH=OFF; then
        section "fuzz (${FUZZ_SECONDS}s per target)"
        for f in "${targets[@]}"; do
            if prog="$(find_program "$CI/fuzz" "$f")"; then
                queue_test "fuzz-$f" bash "$WAI_REPO/tests/ci/fuzz-one.sh" "$prog" \
                    "$FUZZ_SECONDS" "$CRASHES/$f"
            else
                echo "  FAIL fuzz-$f: not built"
                count "fuzz-$f" 0 1
            fi
        done
        run_queue
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
    if ((TOTAL_SKIPPED)); then
        echo "$TOTAL_SKIPPED skipped, what the target cannot run (each named in its log's 'skip' lines):"
        printf '  %s\n' "${SKIPPED_STEPS[@]}"
    fi
    # The headline counts behaviours: a check run again (another build,
    # front end or configuration, another iteration) counts once.
    local distinct
    distinct=$(printf '%s\n' "${STEP_PASSED[@]}" | bash "$WAI_REPO/tests/ci/distinct.sh")
    echo "$TOTAL_PASSED check runs passed: $(sed -n 's/^runs: //p' <<<"$distinct")"
    echo "$(sed -n 's/^distinct: //p' <<<"$distinct") passed, $TOTAL_FAILED failed"
    ((TOTAL_FAILED == 0))
}

main "$@"
