#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The tool's edges (issue 58): standard input read once and handed to the
# fallback; --fallback given twice, or with an empty file name, refused by
# name; a decode stopped by SIGTERM, SIGINT or SIGHUP leaves no temporary
# beside its output, and one a SIGKILL left is removed by the next run; a reader that closes the pipe early (| head) ends the
# decode with one message, not a death by SIGPIPE.
# usage: tests/tool/test_edges.sh WAI_BINARY
set -u
WAI=${1:?usage: test_edges.sh WAI_BINARY}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
EX=$ROOT/examples

# Standard input routes to its fallback: the primary (no set) is
# set_incomplete, the fallback decodes the same bytes with its own set.
want=$("$WAI" decode --json --set "$EX/hello_set" "$EX/hello.wih1" | sed -n 's/.*"sha256": "\([0-9a-f]*\)".*/\1/p')
[ -n "$want" ] && ok || fail "the reference decode"
"$WAI" decode --json - --fallback wai.neural.int_hyper --fallback-set "$EX/hello_set" \
    <"$EX/hello.wih1" >"$TMP/out" 2>"$TMP/err"; rc=$?
[ "$rc" -eq 0 ] && ok || fail "stdin to its fallback: exit $rc: $(head -c 300 "$TMP/err")"
expect_contains "the fallback decoded standard input" "\"sha256\": \"$want\"" "$TMP/out"
expect_contains "the route says the first was set_incomplete" '"set_incomplete"' "$TMP/out"
# Through a pipe too (not a regular file, read as a stream).
cat "$EX/hello.wih1" | "$WAI" decode --json - --fallback wai.neural.int_hyper \
    --fallback-set "$EX/hello_set" >"$TMP/out" 2>"$TMP/err"
expect_contains "a pipe to its fallback" "\"sha256\": \"$want\"" "$TMP/out"

# One --fallback; a file name after the ':' or none at all.
expect_exit 2 "--fallback twice" -- "$WAI" decode --fallback wai.neural.int_hyper \
    --fallback wai.video.int_motion "$EX/hello.wih1"
expect_contains "says it was given twice" "--fallback given twice: give it once" "$TMP/err"
expect_exit 2 "any value option twice" -- "$WAI" decode --max-memory 100 --max-memory 200 "$EX/hello.wiv1"
expect_contains "says which" "--max-memory given twice" "$TMP/err"
expect_exit 2 "--fallback CAP:" -- "$WAI" decode --fallback wai.neural.int_hyper: "$EX/hello.wih1"
expect_contains "names the empty file name" "--fallback 'wai.neural.int_hyper:' names no file after its ':'" "$TMP/err"

# A signal mid-decode: the decode of a frame stream waits on standard
# input (a FIFO) for its second frame with its output's temporary open.
D=$ROOT/tests/corpus/motion/valid/clip00
# stop_mid_decode SIG [named]: that decode, to a fresh $TMP/sig/out.y4m;
# checks its temporary appears (within 5 s; with "named", one named for
# its process, .out.y4m.wai-PID.*), sends it SIG and waits for it. Sets
# pid and rc (its exit status).
stop_mid_decode() {
    local sig=$1 glob what
    rm -rf "$TMP/sig"; mkdir "$TMP/sig"; mkfifo "$TMP/sig.fifo"
    "$WAI" decode --capability wai.video.int_motion.frame "$D/f000.wif1" - -o "$TMP/sig/out.y4m" \
        <"$TMP/sig.fifo" 2>/dev/null &
    pid=$!
    exec 3>"$TMP/sig.fifo"
    glob="$TMP/sig/.out.y4m.*" what="no temporary while decoding"
    [ -n "${2:-}" ] && glob="$TMP/sig/.out.y4m.wai-$pid.*" what="no temporary named for process $pid"
    for _ in $(seq 50); do compgen -G "$glob" >/dev/null && break; sleep 0.1; done
    compgen -G "$glob" >/dev/null && ok || fail "$sig: $what"
    kill -"$sig" "$pid"
    wait "$pid" 2>/dev/null; rc=$?
    exec 3>&-
    rm -f "$TMP/sig.fifo"
}
for sig in TERM INT HUP; do
    stop_mid_decode "$sig"
    case $sig in TERM) w=143 ;; INT) w=130 ;; HUP) w=129 ;; esac
    [ "$rc" -eq "$w" ] && ok || fail "$sig: exit $rc, want $w (the signal's own)"
    left=$(ls -A "$TMP/sig")
    [ -z "$left" ] && ok || fail "$sig left: $left"
done

# SIGKILL: no handler runs and the temporary stays, named for its process
# (.out.y4m.wai-PID.XXXXXX); the next run to that output removes it, says
# so, and leaves a live process's temporary (this shell's) alone.
stop_mid_decode KILL named
stale=$(cd "$TMP/sig" && compgen -G ".out.y4m.wai-$pid.*")
[ -n "$stale" ] && ok || fail "KILL: the temporary is gone (a handler ran?)"
: >"$TMP/sig/.out.y4m.wai-$$.live01"   # a live process's: kept
"$WAI" decode "$EX/hello.wiv1" -o "$TMP/sig/out.y4m" 2>"$TMP/err"; rc=$?
[ "$rc" -eq 0 ] && ok || fail "the run after a SIGKILL: exit $rc"
expect_contains "the next run says it removed the stale one" "removed $TMP/sig/$stale: a temporary of $TMP/sig/out.y4m that a stopped run (process $pid) left" "$TMP/err"
left=$(ls -A "$TMP/sig" | tr '\n' ' ')
[ "$left" = ".out.y4m.wai-$$.live01 out.y4m " ] && ok || fail "after the next run: $left"

# | head: one message naming the closed pipe, exit 2, no SIGPIPE death.
"$WAI" decode --set "$EX/hyperprior/sets/q3" "$EX/hyperprior/chelsea.wih1" -o - --format y4m \
    2>"$TMP/err" | head -c 1000 >/dev/null
rc=${PIPESTATUS[0]}
[ "$rc" -eq 2 ] && ok || fail "| head: exit $rc, want 2"
[ "$(wc -l <"$TMP/err")" -eq 1 ] && ok || fail "| head: not one message: $(cat "$TMP/err")"
expect_contains "| head: says the reader closed the pipe" "its reader closed the pipe (Broken pipe)" "$TMP/err"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
