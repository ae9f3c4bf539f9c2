#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Installs libwai with the default options (oneDNN and libsodium where the
# machine has them) with `cmake --install --prefix` into a fresh prefix,
# once static (the default) and once shared: every file lands under the
# prefix (install_manifest.txt, and the file system outside it unchanged),
# the installed tool and GStreamer plugin run without LD_LIBRARY_PATH, the
# .pc files validate. Then it builds four programs outside the tree against each install,
# each two ways: with CMake's find_package(wai) and with plain
# `cc app.c $(pkg-config --cflags --libs PKG)`:
#   app.c        libwai alone (pkg-config wai): decodes examples/hello.wiv1
#   webnn_app.c  libwai_webnn (wai_webnn): a bmshj2018 photograph on the
#                native WebNN backend
#   write_app.c  libwai_write (wai_write): a clip encoded, decoded back
#   receipt_app.c libwai_receipt (wai_receipt): a decode receipt of
#                examples/hello.wiv1 sealed, written, read and re-derived
# Also: libwai.a's undefined symbols are all libc's, and (shared) the
# libraries' exports, needs and headers (check-exports.sh).
#   tests/ci/check-install.sh [WORKDIR]     (default: a fresh temp dir)
# Closes with "N passed, N failed".
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if [[ $# -ge 1 ]]; then
    work="$1"
else
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
fi
rm -rf "$work"; mkdir -p "$work"
work="$(cd "$work" && pwd -P)"
jobs="${WAI_JOBS:-2}"
passed=0 failed=0

result() {  # result NAME STATUS
    if [[ "$2" == 0 ]]; then
        echo "check-install: ok   $1"; passed=$((passed + 1))
    else
        echo "check-install: FAIL $1"; failed=$((failed + 1))
    fi
}

# What each program is given, and the pkg-config module it builds with.
args_of() {
    case "$1" in
    app) echo "$WAI_REPO/examples/hello.wiv1" ;;
    webnn_app) echo "$WAI_REPO/examples/bmshj2018/chelsea.b18f $WAI_REPO/examples/bmshj2018/sets/q3" ;;
    write_app) echo "" ;;
    receipt_app) echo "$WAI_REPO/examples/hello.wiv1" ;;
    esac
}
module_of() {
    case "$1" in
    app) echo wai ;; webnn_app) echo wai_webnn ;; write_app) echo wai_write ;;
    receipt_app) echo wai_receipt ;;
    esac
}

# libwai.a needs nothing libc does not define (symbols the linker itself
# defines aside).
static_needs_libc_only() {
    local lib="$1" libc
    libc="$(cc -print-file-name=libc.so.6)"
    [[ -e "$libc" ]] || libc="$(find /lib* /usr/lib* -name libc.so.6 2>/dev/null | head -n 1)"
    nm -u "$lib" 2>/dev/null | awk 'NF == 2 {print $2}' | sort -u >"$work/undef"
    nm --defined-only "$lib" 2>/dev/null | awk 'NF == 3 {print $3}' | sort -u >"$work/def"
    nm -D --defined-only "$libc" | awk '{print $3}' | sed 's/@.*//' | sort -u >"$work/libc"
    comm -23 "$work/undef" "$work/def" | grep -vE '^_GLOBAL_OFFSET_TABLE_$' |
        comm -23 - "$work/libc" >"$work/outside"
    echo "check-install: libwai.a needs of the outside: $(comm -23 "$work/undef" "$work/def" | tr '\n' ' ')"
    if [[ -s "$work/outside" ]]; then
        echo "check-install: not libc's: $(tr '\n' ' ' <"$work/outside")"
        return 1
    fi
}

# Everything on this file system written since STAMP, outside the prefix's
# work folder and the tree: what an install wrote where it should not.
# Pseudo file systems, and the scratch and log folders other programs on
# the machine write to meanwhile, are left out.
written_outside() {
    find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /run -o -path /tmp \
        -o -path /var/tmp -o -path /var/log -o -path /var/cache -o -path "$HOME/.cache" \
        -o -path "$work" -o -path "$WAI_REPO" \) -prune -o -cnewer "$1" -type f -print 2>/dev/null
}

for kind in static shared; do
    prefix="$work/$kind/prefix"
    mkdir -p "$work/$kind"
    shared=OFF
    [[ $kind == shared ]] && shared=ON
    echo "check-install: building libwai ($kind), the tool and the plugin; installing into $prefix"
    # Configured with the default prefix, installed with --prefix as a user
    # does: nothing may depend on the configure-time prefix.
    if ! { cmake -S "$WAI_REPO" -B "$work/$kind/build" -DCMAKE_BUILD_TYPE=Release \
            -DBUILD_SHARED_LIBS=$shared -DWAI_BUILD_TESTS=OFF -DWAI_BUILD_BENCH=OFF \
            -DWAI_BUILD_FUZZ=OFF >"$work/$kind/configure.log" &&
          cmake --build "$work/$kind/build" -j"$jobs" >"$work/$kind/build.log"; } 2>&1; then
        result "$kind: build" 1
        continue
    fi
    touch "$work/$kind/stamp"
    sleep 1   # a file written in the stamp's second is newer than it
    rc=0
    cmake --install "$work/$kind/build" --prefix "$prefix" >"$work/$kind/install.log" 2>&1 || rc=$?
    result "$kind: cmake --install --prefix" "$rc"
    grep -E "oneDNN|libsodium" "$work/$kind/configure.log" | sed 's/^/    /' || true
    # Every file under the prefix, and nothing outside it.
    rc=0; outside=$(grep -v "^$prefix/" "$work/$kind/build/install_manifest.txt") || true
    [[ -s "$work/$kind/build/install_manifest.txt" && -z "$outside" ]] || rc=1
    [[ $rc == 0 ]] || echo "check-install: installed outside $prefix: $outside"
    result "$kind: install_manifest.txt: every file under the prefix" "$rc"
    rc=0; outside=$(written_outside "$work/$kind/stamp" | head -n 20) || true
    [[ -z "$outside" ]] || rc=1
    [[ $rc == 0 ]] || echo "check-install: written outside $prefix during the install: $outside"
    result "$kind: the file system outside the prefix is as it was" "$rc"
    for want in bin/wai lib/gstreamer-1.0/libgstwai.so share/doc/wai/LICENSE \
        share/doc/wai/THIRD-PARTY.md include/wai/wai.h lib/pkgconfig/wai.pc; do
        rc=0; [[ -e "$prefix/$want" ]] || rc=1
        result "$kind: installs $want" "$rc"
    done
    # The installed tool and plugin run as installed: no LD_LIBRARY_PATH.
    rc=0; env -u LD_LIBRARY_PATH "$prefix/bin/wai" decode --json "$WAI_REPO/examples/hello.wiv1" \
        >"$work/$kind/decode.json" 2>&1 || rc=$?
    grep -q '"status": "ok"' "$work/$kind/decode.json" || rc=1
    result "$kind: the installed wai decodes (no LD_LIBRARY_PATH)" "$rc"
    if [[ $kind == shared ]]; then
        rc=0; readelf -d "$prefix/bin/wai" | grep -q 'RUNPATH.*\$ORIGIN/../lib' || rc=1
        result "shared: bin/wai's RUNPATH is \$ORIGIN/../lib" "$rc"
        rc=0; readelf -d "$prefix/lib/gstreamer-1.0/libgstwai.so" | grep -q 'RUNPATH.*\$ORIGIN/..' || rc=1
        result "shared: the plugin's RUNPATH is \$ORIGIN/.." "$rc"
    fi
    # The plugin GStreamer loads is the installed one (not one in the
    # system's folder), and it decodes.
    gst() {
        env -u LD_LIBRARY_PATH GST_PLUGIN_PATH="$prefix/lib/gstreamer-1.0" \
            GST_REGISTRY="$work/$kind/registry.bin" "$@"
    }
    rc=0; gst gst-inspect-1.0 wai >"$work/$kind/inspect.log" 2>&1 || rc=$?
    grep -Eq "Filename +$prefix/lib/gstreamer-1.0/libgstwai.so" "$work/$kind/inspect.log" || rc=1
    [[ $rc == 0 ]] || grep -E "Filename|rror" "$work/$kind/inspect.log" | head -n 3
    result "$kind: gst-inspect-1.0 wai finds the installed plugin" "$rc"
    rc=0; gst gst-launch-1.0 -q filesrc location="$WAI_REPO/examples/hello.wiv1" ! waiparse \
        ! waidec ! fakesink >"$work/$kind/gst.log" 2>&1 || rc=$?
    [[ $rc == 0 ]] || tail -n 5 "$work/$kind/gst.log"
    result "$kind: the installed plugin decodes (GST_PLUGIN_PATH=PREFIX/lib/gstreamer-1.0)" "$rc"
    for pc in "$prefix"/lib/pkgconfig/*.pc; do
        rc=0; PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --validate "$pc" || rc=$?
        result "$kind: pkg-config --validate $(basename "$pc")" "$rc"
    done
    libdir="$(dirname "$(find "$prefix" -name 'libwai.*' | head -n 1)")"
    pcdir="$(dirname "$(find "$prefix" -name wai.pc | head -n 1)")"

    if [[ $kind == static ]]; then
        rc=0; static_needs_libc_only "$libdir/libwai.a" || rc=$?
        result "static: nm of libwai.a: every undefined symbol is libc's" "$rc"
    else
        rc=0; bash "$WAI_REPO/tests/ci/check-exports.sh" "$work/$kind/build" || rc=$?
        result "shared: exports, needs and headers alone (check-exports.sh)" "$rc"
    fi

    rc=0
    { cmake -S "$WAI_REPO/tests/ci/consumer" -B "$work/$kind/consumer" \
        -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release &&
      cmake --build "$work/$kind/consumer"; } >"$work/$kind/consumer.log" 2>&1 || rc=$?
    [[ $rc == 0 ]] || tail -n 20 "$work/$kind/consumer.log"
    result "$kind: find_package(wai) builds the four programs" "$rc"
    for app in app webnn_app write_app receipt_app; do
        # shellcheck disable=SC2046  # the arguments are meant to split
        rc=0; LD_LIBRARY_PATH="$libdir" "$work/$kind/consumer/$app" $(args_of $app) || rc=$?
        result "$kind: find_package(wai): $app runs" "$rc"
        mod="$(module_of $app)"
        flags="$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs "$mod")" || flags=""
        echo "check-install: pkg-config --cflags --libs $mod: $flags"
        rc=0
        # shellcheck disable=SC2086  # the flags are meant to split
        cc -std=c11 -Wall -Werror -o "$work/$kind/$app-pc" "$WAI_REPO/tests/ci/consumer/$app.c" \
            $flags || rc=$?
        # shellcheck disable=SC2046
        [[ $rc != 0 ]] || LD_LIBRARY_PATH="$libdir" "$work/$kind/$app-pc" $(args_of $app) || rc=$?
        result "$kind: cc $app.c \$(pkg-config --cflags --libs $mod) builds and runs" "$rc"
    done
done
echo "$passed passed, $failed failed"
((failed == 0))
