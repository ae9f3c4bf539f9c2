#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Installs what tests/ci/check.sh needs on Debian 12, only what is missing
# (apt-get update runs only when something is). Uses sudo when not root.
#   install-deps.sh           everything the tests use (make check)
#   install-deps.sh --build   what the build and its optional parts use, no
#                             more (make deps: the README's first command)
set -euo pipefail

# The build and every optional part cmake/wai_summary.cmake reports.
BUILD_PACKAGES=(
    cmake make gcc pkg-config python3
    libpng-dev   # PNG in the wai tool
    libdnnl-dev  # oneDNN: the native WebNN's convolutions
    libsodium-dev  # Ed25519 for receipts (libwai_ed25519)
    libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev  # the GStreamer plugin (gst/)
    clang lld llvm wasi-libc libclang-rt-14-dev-wasm32  # make web (tools/build/wasm_prereqs.sh)
)
# gcc-aarch64-linux-gnu conflicts with gcc-multilib on Debian 12, so aarch64
# is built with clang from the arm64 cross libc/libgcc packages instead.
PACKAGES=(
    "${BUILD_PACKAGES[@]}"
    gcc-multilib qemu-user b3sum libclang-rt-14-dev
    libc6-dev-arm64-cross libgcc-12-dev-arm64-cross binutils-aarch64-linux-gnu
    nodejs
    # the bmshj2018 tools and the float path's agreement test (tests/bmshj2018)
    python3-torch python3-onnx python3-numpy python3-pil python3-skimage
    python3-venv python3-pip  # the Python module: pip install . into a venv (tests/ci/python-pip.sh)
    python-matplotlib-data
    libjpeg-turbo-progs webp libavif-bin  # the rate-distortion peers (tools/rd/rd_curves.py): cjpeg, cwebp, avifenc
    opencv-doc mate-backgrounds  # rd_curves.py's held-out pictures (the README's RD snippet)
    # the GStreamer plugin's pipelines (tests/gst/test_gst.sh): multifilesrc
    # is in -good, decodebin in -base
    gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
    python3-gi gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0  # tests/gst/test_seek.py
    python3-dask python3-distributed  # wai.batch (python/tests/test_batch.py)
    ffmpeg  # the README's round trip (tests/ci/readme_snippets.sh)
)

# npm packages, under build/npm (nothing outside the registries):
#  - onnxruntime-node, the reference ONNX Runtime of tests/bmshj2018 (its CPU
#    library ships inside the package; its install script would fetch
#    optional GPU files from elsewhere, so no install script is run);
#  - @sparticuz/chromium (a headless Chromium shell, inside the package) and
#    puppeteer-core, which drive the page of web/ in web/test/browser.mjs;
#  - webgpu (Dawn for node, prebuilt), for web/test/gpu_node.mjs where it
#    finds an adapter and node has JSPI (it says so, and skips, otherwise).
NPM_PACKAGES=(onnxruntime-node@1.30.0 @sparticuz/chromium@147.0.0 puppeteer-core@24.43.1 webgpu@0.6.2)
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
NPM_DIR="$REPO/build/npm"

install_npm() {
    local p name version have missing=()
    for p in "${NPM_PACKAGES[@]}"; do
        name=${p%@*} version=${p##*@}
        have="$(node -p "require('$NPM_DIR/node_modules/$name/package.json').version" 2>/dev/null || true)"
        [[ "$have" == "$version" ]] || missing+=("$p")
    done
    if ((${#missing[@]} == 0)); then
        echo "install-deps: npm packages present (${NPM_PACKAGES[*]})"
        return 0
    fi
    if ! command -v npm >/dev/null; then
        "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends npm
    fi
    echo "install-deps: installing ${missing[*]} under $NPM_DIR"
    mkdir -p "$NPM_DIR"
    [[ -f "$NPM_DIR/package.json" ]] || echo '{"private": true}' >"$NPM_DIR/package.json"
    ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix "$NPM_DIR" --no-audit --no-fund \
        --ignore-scripts "${NPM_PACKAGES[@]}"
}

is_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

if [[ "${1:-}" == --build ]]; then
    PACKAGES=("${BUILD_PACKAGES[@]}")
    install_npm() { :; }   # the tests' npm packages are not the build's
fi

missing=()
for p in "${PACKAGES[@]}"; do
    is_installed "$p" || missing+=("$p")
done
SUDO=()
if [[ "$(id -u)" != 0 ]] && command -v sudo >/dev/null; then SUDO=(sudo); fi
if ((${#missing[@]} == 0)); then
    echo "install-deps: all ${#PACKAGES[@]} packages present"
    install_npm
    exit $?
fi
if [[ "$(id -u)" != 0 && ${#SUDO[@]} == 0 ]]; then
    echo "install-deps: missing ${missing[*]} and not root (no sudo)" >&2
    exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
install_npm
