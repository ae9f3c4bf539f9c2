#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The shared libraries export exactly their public headers' functions:
# libwai.so the WAI_API ones of include/wai/*.h (the other libraries'
# headers aside), WAI_CORE_EXPORTS of them (a change to the API changes
# this number on purpose), and beside them, versioned WAI_PRIVATE_<version>,
# the WAI_SIBLING ones of src/ it lends the libraries beside it;
# libwai_webnn.so the WAI_WEBNN_API ones of wai_webnn.h and wai_ml.h,
# libwai_write.so the WAI_WRITE_API ones of wai_write.h, libwai_receipt.so
# the WAI_RECEIPT_API ones of wai_receipt.h. libwai_webnn.so,
# libwai_write.so, libwai_receipt.so and the Python module's
# libwai_python.so define none of libwai's functions: they import them. Also: libwai.so needs nothing but
# libc, libwai_webnn.so libwai, libm and oneDNN (where it was found),
# libwai_receipt.so libwai alone, and every public header compiles alone,
# in C11 and as C++.
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
declared() {  # comments and preprocessor lines first out: a macro's #define is no declaration
    local macro="$1"; shift
    cat "$@" | perl -0777 -pe 's{/\*.*?\*/}{ }gs; s{^[ \t]*#.*$}{}mg' | tr '\n' ' ' |
        grep -oE "$macro[^;{(]*\(" |
        grep -oE 'wai_[A-Za-z0-9_]+ *\($' | tr -d ' (' | sort -u
}
exported() {  # exported LIB: its defined dynamic function symbols, but WAI_PRIVATE's
    nm -D --defined-only "$1" | awk '$2 == "T" || $2 == "W" {print $3}' | grep -v '@@*WAI_PRIVATE_' |
        sed 's/@.*//' | sort -u
}
lent() {  # lent LIB: its functions versioned WAI_PRIVATE
    nm -D --defined-only "$1" | awk '$2 == "T" || $2 == "W" {print $3}' | grep '@@*WAI_PRIVATE_' |
        sed 's/@.*//' | sort -u
}

# libwai.so's public functions: 117 before receipts left for libwai_receipt
# (105), then 10 more for wai_network.h, the set's networks and tables, and
# 2 for seeking (wai_payload_outputs, wai_decoder_skip).
WAI_CORE_EXPORTS=117
core_headers=()
for h in "$WAI_REPO"/include/wai/*.h; do
    # wai_write.h is libwai_write's, wai_webnn.h and wai_ml.h libwai_webnn's,
    # wai_receipt.h libwai_receipt's, wai_ed25519.h libwai_ed25519's.
    case "$(basename "$h")" in
    wai_write.h | wai_webnn.h | wai_ml.h | wai_receipt.h | wai_ed25519.h) ;;
    *) core_headers+=("$h") ;;
    esac
done
declared 'WAI_API' "${core_headers[@]}" >"$tmp/core.want"
declared 'WAI_WEBNN_API' "$WAI_REPO/include/wai/wai_webnn.h" "$WAI_REPO/include/wai/wai_ml.h" >"$tmp/webnn.want"
declared 'WAI_WRITE_API' "$WAI_REPO/include/wai/wai_write.h" >"$tmp/write.want"
declared 'WAI_RECEIPT_API' "$WAI_REPO/include/wai/wai_receipt.h" >"$tmp/receipt.want"
find "$WAI_REPO/src" -name '*.h' | sort >"$tmp/headers"
declared 'WAI_SIBLING' $(cat "$tmp/headers") >"$tmp/sibling.want"

core="$(find "$build" -maxdepth 1 -name 'libwai.so.*.*' | head -n 1)"
write="$(find "$build" -maxdepth 1 -name 'libwai_write.so.*.*' | head -n 1)"
webnn="$(find "$build" -maxdepth 1 -name 'libwai_webnn.so.*.*' | head -n 1)"
receipt="$(find "$build" -maxdepth 1 -name 'libwai_receipt.so.*.*' | head -n 1)"
for pair in "libwai.so:$core:core" "libwai_webnn.so:$webnn:webnn" "libwai_write.so:$write:write" \
    "libwai_receipt.so:$receipt:receipt"; do
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
n_core="$(wc -l <"$tmp/core.want")"
[[ "$n_core" == "$WAI_CORE_EXPORTS" ]]
result "libwai.so's API is $WAI_CORE_EXPORTS functions (the headers declare $n_core)" $?
if [[ -n "$core" ]]; then
    lent "$core" >"$tmp/sibling.got"
    if diff -u "$tmp/sibling.want" "$tmp/sibling.got" >"$tmp/sibling.diff"; then
        result "libwai.so lends its siblings $(wc -l <"$tmp/sibling.want") WAI_SIBLING functions, versioned WAI_PRIVATE_<version>" 0
    else
        sed 's/^/    /' "$tmp/sibling.diff"
        result "libwai.so lends exactly the WAI_SIBLING functions, versioned WAI_PRIVATE" 1
    fi
    # Every function libwai.so exports or lends, defined in a sibling
    # (even hidden): a copy of libwai inside it.
    cat "$tmp/core.got" "$tmp/sibling.got" | sort -u >"$tmp/libwai.all"
    python="$(find "$build" -maxdepth 1 -name 'libwai_python.so' | head -n 1)"
    for pair in "libwai_webnn.so:$webnn" "libwai_write.so:$write" "libwai_receipt.so:$receipt" \
        "libwai_python.so:$python"; do
        IFS=: read -r name lib <<<"$pair"
        [[ -n "$lib" ]] || continue
        nm --defined-only "$lib" | awk 'NF == 3 {print $3}' | sed 's/@.*//' | sort -u >"$tmp/defined"
        copies="$(comm -12 "$tmp/libwai.all" "$tmp/defined" | tr '\n' ' ')"
        [[ -z "$copies" ]] || echo "    $name defines: $copies"
        [[ -z "$copies" ]]
        result "$name imports libwai's functions, defines none of them" $?
    done
fi

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
needs "$receipt" 'libwai\.so\.[0-9]+' libwai_receipt.so
result "libwai_receipt.so needs libwai alone" $?

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
