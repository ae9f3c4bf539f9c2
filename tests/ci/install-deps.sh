#!/usr/bin/env bash
# Installs what tests/ci/check.sh needs on Debian 12, only what is missing
# (apt-get update runs only when something is). Uses sudo when not root.
set -euo pipefail

# gcc-aarch64-linux-gnu conflicts with gcc-multilib on Debian 12, so aarch64
# is built with clang from the arm64 cross libc/libgcc packages instead.
PACKAGES=(
    cmake make gcc clang lld llvm gcc-multilib qemu-user b3sum
    wasi-libc libclang-rt-14-dev-wasm32 libclang-rt-14-dev
    libc6-dev-arm64-cross libgcc-12-dev-arm64-cross binutils-aarch64-linux-gnu
    nodejs pkg-config python3
    libpng-dev   # optional PNG support of the wai tool, so CI builds and tests it
)

is_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

missing=()
for p in "${PACKAGES[@]}"; do
    is_installed "$p" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
    echo "install-deps: all ${#PACKAGES[@]} packages present"
    exit 0
fi

SUDO=()
if [[ "$(id -u)" != 0 ]]; then
    if command -v sudo >/dev/null; then
        SUDO=(sudo)
    else
        echo "install-deps: missing ${missing[*]} and not root (no sudo)" >&2
        exit 1
    fi
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
