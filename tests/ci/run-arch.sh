#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# run-arch.sh ARCH PROGRAM [ARGS...]: runs a program built for ARCH
# (x86-64, i386, aarch64, wasm32) on this x86-64 host; see lib.sh.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
(($# >= 2)) || { echo "usage: $0 ARCH PROGRAM [ARGS...]" >&2; exit 2; }
run_for_arch "$@"
