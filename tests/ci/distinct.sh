#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The distinct checks behind CI's runs (tests/ci/check.sh's summary). Reads
# "STEP PASSED" lines; prints
#   distinct: N
#   runs: N distinct + R repeats (FAMILY: K runs, +X; ...)
# Steps that run the same checks again form a family: the unit binary on
# every build (gcc, clang, asan, tsan, i386, aarch64, wasm32), a tool
# script on each build, the corpus through the tool and through node (with
# and without threads), the Python tests over the build and as pip installs
# them. A family counts its largest run once; the others are repeats. A
# step that iterates one invariant (the glue fuzzers, test_mutate.sh's
# mutated inputs, the GStreamer elements' hostile driver on gcc and asan,
# the page's hostile cases) counts 1, its other iterations repeats.
# Everything else counts as it is.
set -u
awk '
function family(step,   m) {
    if (step ~ /^unit-/) {                       # unit-BUILD-KofN, unit-tsan
        inst = step; sub(/^unit-/, "", inst); sub(/-[0-9]+of[0-9]+$/, "", inst)
        kind = "builds"; return "unit tests"
    }
    if (step ~ /^tool-[a-z0-9]+-test_corpus$/ || step ~ /^web-node(-threads)?$/) {
        inst = step; kind = "front ends"; return "corpus"
    }
    if (step ~ /^tool-[a-z0-9]+-test_/) {        # tool-BUILD-SCRIPT
        inst = step; sub(/^tool-/, "", inst); sub(/-test_.*/, "", inst)
        kind = "builds"; return "tool scripts"
    }
    if (step ~ /^python-(module|pip)$/) { inst = step; kind = "installs"; return "python" }
    if (step ~ /^gst-hostile(-asan)?$/) { inst = step; kind = "builds"; return "gst hostile" }
    inst = step; kind = ""; return ""
}
function iterated(step) {
    return step ~ /^(python|web)-fuzz-glue$/ || step ~ /^tool-[a-z0-9]+-test_mutate$/ ||
           step == "web-page-fuzz" ||
           step ~ /^gst-hostile(-asan)?$/
}
{
    step = $1; n = $2 + 0; runs += n
    # One invariant iterated: 1, the other iterations repeats; on several
    # builds, that 1 then joins its family like any other count.
    if (iterated(step) && n > 0) { iter += n - 1; invariants++; n = 1 }
    f = family(step)
    if (f == "") { distinct += n; next }
    # A script family is per script: the key keeps the script apart.
    key = f; if (f == "tool scripts") { s = step; sub(/^tool-[a-z0-9]+-/, "", s); key = f ":" s }
    sum[key SUBSEP inst] += n
    if (!((key SUBSEP inst) in seen)) { seen[key SUBSEP inst] = 1; insts[key]++ }
    keys[key] = f; kinds[f] = kind; total[f] += n
}
END {
    for (ki in sum) {
        split(ki, parts, SUBSEP)
        if (sum[ki] > best[parts[1]]) best[parts[1]] = sum[ki]
    }
    for (k in best) { distinct += best[k]; fam_distinct[keys[k]] += best[k]; if (insts[k] > width[keys[k]]) width[keys[k]] = insts[k] }
    printf "distinct: %d\n", distinct
    out = ""
    n_f = split("unit tests|tool scripts|corpus|python", order, "|")
    for (i = 1; i <= n_f; i++) {
        f = order[i]; if (!(f in total)) continue
        out = out sprintf("; %s on %d %s: +%d", f, width[f], kinds[f], total[f] - fam_distinct[f])
    }
    if (invariants) out = out sprintf("; iterations: %d steps, +%d", invariants, iter)
    printf "runs: %d distinct + %d repeats (%s)\n", distinct, runs - distinct, substr(out, 3)
}'
