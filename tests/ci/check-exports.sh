#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The shared libraries export exactly their public headers' functions:
# libwai.so the WAI_API ones of include/wai/*.h (the other libraries'
# headers aside), libwai_webnn.so the WAI_WEBNN_API ones of wai_webnn.h,
# libwai_write.so the WAI_WRITE_API ones of wai_write.h, and
# cmake/wai_write.map (its version script) lists those too. Also: libwai.so
# needs nothing but libc, libwai_webnn.so libwai, libm and oneDNN (where it
# was found), and every public header compiles alone, in C11 and as C++.
#   tests/ci/check-exports.sh BUILD_DIR     (a -DBUILD_SHARED_LIBS=ON build)
# Closes with "N passed, N failed".
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
build="$1"
passed=0 failed=0
result() {  # result NAME STATUS
    if [[ "$2" == 0 ]]; then
        echo "check-exports: ok   $1"; passed=$((passed + 1))
    else
        echo "check-exports: FAIL $1"; failed=$((failed + 1))
    fi
}
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# declared MACRO FILE...: the names of the functions MACRO marks.
declared() {
    local macro="$1"; shift
    cat "$@" | tr '\n' ' ' | grep -oE "$macro[^;{(]*\(" |
        grep -oE 'wai_[A-Za-z0-9_]+ *\($' | tr -d ' (' | sort -u
}
exported() {  # exported LIB: its defined dynamic function symbols
    nm -D --defined-only "$1" | awk '$2 == "T" || $2 == "W" {print $3}' | sed 's/@.*//' | sort -u
}

core_headers=()
for h in "$WAI_REPO"/include/wai/*.h; do
    # wai_write.h is libwai_write's, wai_webnn.h libwai_webnn's,
    # wai_ed25519.h libwai_ed25519's.
    case "$(basename "$h")" in
    wai_write.h | wai_webnn.h | wai_ed25519.h) ;;
    *) core_headers+=("$h") ;;
    esac
done
declared 'WAI_API' "${core_headers[@]}" >"$tmp/core.want"
declared 'WAI_WEBNN_API' "$WAI_REPO/include/wai/wai_webnn.h" >"$tmp/webnn.want"
declared 'WAI_WRITE_API' "$WAI_REPO/include/wai/wai_write.h" >"$tmp/write.want"
grep -oE '^ +wai_[A-Za-z0-9_]+;' "$WAI_REPO/cmake/wai_write.map" | tr -d ' ;' | sort -u >"$tmp/write.map"

core="$(find "$build" -maxdepth 1 -name 'libwai.so.*.*' | head -n 1)"
write="$(find "$build" -maxdepth 1 -name 'libwai_write.so.*.*' | head -n 1)"
webnn="$(find "$build" -maxdepth 1 -name 'libwai_webnn.so.*.*' | head -n 1)"
for pair in "libwai.so:$core:core" "libwai_webnn.so:$webnn:webnn" "libwai_write.so:$write:write"; do
    IFS=: read -r name lib key <<<"$pair"
    if [[ -z "$lib" ]]; then
        result "$name built" 1
        continue
    fi
    exported "$lib" >"$tmp/$key.got"
    if diff -u "$tmp/$key.want" "$tmp/$key.got" >"$tmp/$key.diff"; then
        result "$name exports its $(wc -l <"$tmp/$key.want") public functions, no more" 0
    else
        sed 's/^/    /' "$tmp/$key.diff"
        result "$name exports exactly its public functions" 1
    fi
done
diff -u "$tmp/write.want" "$tmp/write.map" >/dev/null
result "cmake/wai_write.map lists wai_write.h's functions" $?

# The decoder core links the C library alone (libpthread is libc since
# glibc 2.34; older ones may list it). The float backend's math and oneDNN
# are libwai_webnn's.
needs() {  # needs LIB ALLOWED_REGEX NAME
    local needed bad
    needed="$(readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort)"
    echo "check-exports: $3 needs: $(echo $needed)"
    bad="$(echo "$needed" | grep -vE "^($2|libc\.so\.6|libpthread\.so\.0|ld-linux.*)\$" || true)"
    [[ -z "$bad" ]]
}
needs "$core" 'libc\.so\.6' libwai.so
result "libwai.so needs only the C library" $?
needs "$webnn" 'libwai\.so\.[0-9]+|libm\.so\.6|libdnnl\.so\.[0-9]+' libwai_webnn.so
result "libwai_webnn.so needs libwai, libm and oneDNN alone" $?

# Each public header alone: C11 with -Wall -Wextra -Werror -pedantic, and C++.
hdr_ok=0
for h in "$WAI_REPO"/include/wai/*.h; do
    b="$(basename "$h")"
    printf '#include <wai/%s>\nint main(void) { return 0; }\n' "$b" >"$tmp/alone.c"
    cc -std=c11 -Wall -Wextra -Werror -pedantic -I"$WAI_REPO/include" -I"$build/include" \
        -c "$tmp/alone.c" -o "$tmp/alone.o" || { echo "  $b does not compile alone (C11)"; hdr_ok=1; }
    cxx="$(command -v c++ || command -v clang++ || true)"
    if [[ -n "$cxx" ]]; then
        cp "$tmp/alone.c" "$tmp/alone.cc"
        "$cxx" -std=c++11 -Wall -Wextra -Werror -I"$WAI_REPO/include" -I"$build/include" \
            -c "$tmp/alone.cc" -o "$tmp/alone.o" || { echo "  $b does not compile as C++"; hdr_ok=1; }
    fi
done
result "every public header compiles alone (C11 -pedantic, C++11)" "$hdr_ok"

echo "$passed passed, $failed failed"
((failed == 0))
