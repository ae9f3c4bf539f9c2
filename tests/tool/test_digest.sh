#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Compares `wai digest --sha256|--blake3` with sha256sum and b3sum on random
# files at every length where block, chunk or padding handling changes, on
# several files at once, and on standard input (redirected and piped).
#
#   tests/tool/test_digest.sh WAI_BINARY
#
# Prints one line per failed check and ends with "N passed, N failed"; exits
# 1 if any check failed. A missing sha256sum or b3sum fails its checks (CI
# installs both).
set -u

if [ $# -ne 1 ]; then
    echo "usage: $0 WAI_BINARY" >&2
    exit 2
fi
WAI=$1

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wai_digest.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

pass=0
fail=0

# check NAME EXPECTED ACTUAL: one comparison.
check() {
    if [ "$2" == "$3" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        printf 'FAIL %s: want [%s] got [%s]\n' "$1" "$2" "$3"
    fi
}

# run_cmd CMD...: stdout of CMD, or a marker naming its exit status, so a
# crash or refusal can never compare equal to a peer's output.
run_cmd() {
    local out rc
    out=$("$@" 2>/dev/null)
    rc=$?
    if [ $rc -ne 0 ]; then
        printf '%s\n[exit %d]' "$out" "$rc"
    else
        printf '%s' "$out"
    fi
}

have_sha256sum=1
have_b3sum=1
command -v sha256sum >/dev/null 2>&1 || { have_sha256sum=0; echo "sha256sum not found: its checks fail"; }
command -v b3sum >/dev/null 2>&1 || { have_b3sum=0; echo "b3sum not found: its checks fail"; }

peer_sha256() { if [ $have_sha256sum -eq 1 ]; then run_cmd sha256sum "$@"; else printf '[no sha256sum]'; fi; }
peer_b3sum() { if [ $have_b3sum -eq 1 ]; then run_cmd b3sum "$@"; else printf '[no b3sum]'; fi; }

lengths=(0 1 2 3 55 56 57 63 64 65 119 120 127 128 129 1023 1024 1025
    2047 2048 2049 3072 3073 4095 4096 4097 8191 8192 8193
    16383 16384 16385 31744 65535 65536 65537 1048575 1048576 1048577)
# A few random lengths up to 8 MiB (bash's $RANDOM is 15 bits; two make 30).
for _ in 1 2 3 4; do
    lengths+=($(( ((RANDOM << 15) | RANDOM) % (8 * 1024 * 1024 + 1) )))
done

files=()
for n in "${lengths[@]}"; do
    f="$tmp/len_$n"
    [ -e "$f" ] && continue
    head -c "$n" /dev/urandom > "$f"
    files+=("$f")
done

for f in "${files[@]}"; do
    name=${f##*/}
    check "sha256 $name" "$(peer_sha256 "$f")" "$(run_cmd "$WAI" digest --sha256 "$f")"
    check "blake3 $name" "$(peer_b3sum "$f")" "$(run_cmd "$WAI" digest --blake3 "$f")"
done

# Several files in one call: one line each, in argument order.
multi=("$tmp/len_0" "$tmp/len_65" "$tmp/len_1025" "$tmp/len_65536")
check "sha256 several files" "$(peer_sha256 "${multi[@]}")" "$(run_cmd "$WAI" digest --sha256 "${multi[@]}")"
check "blake3 several files" "$(peer_b3sum "${multi[@]}")" "$(run_cmd "$WAI" digest --blake3 "${multi[@]}")"

# Standard input as `-`: redirected from a file, and through a pipe (not
# seekable, arrives in pieces), including the empty input.
for n in 0 1 1025 1048577; do
    f="$tmp/len_$n"
    check "sha256 stdin < len_$n" "$(peer_sha256 - < "$f")" "$(run_cmd "$WAI" digest --sha256 - < "$f")"
    check "blake3 stdin < len_$n" "$(peer_b3sum - < "$f")" "$(run_cmd "$WAI" digest --blake3 - < "$f")"
    check "sha256 pipe len_$n" "$(cat "$f" | peer_sha256 -)" "$(cat "$f" | run_cmd "$WAI" digest --sha256 -)"
    check "blake3 pipe len_$n" "$(cat "$f" | peer_b3sum -)" "$(cat "$f" | run_cmd "$WAI" digest --blake3 -)"
done

# A file and standard input in one call.
check "blake3 file and stdin" "$(peer_b3sum "$tmp/len_64" - < "$tmp/len_4097")" \
    "$(run_cmd "$WAI" digest --blake3 "$tmp/len_64" - < "$tmp/len_4097")"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
