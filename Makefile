# SPDX-License-Identifier: BSD-2-Clause
# Two commands for a newcomer; everything else is CMake.
#   make example  - build, then inspect and decode the shipped example
#   make check    - the whole test suite (installs what it needs)
BUILD ?= build/release

.PHONY: all example check clean web

all:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) -j2

example: all
	bash examples/run_example.sh $(BUILD)/tools/wai/wai

check:
	bash tests/ci/check.sh

# The WebAssembly module of the npm package (web/): web/dist/wai.wasm, from
# clang and Debian's wasi-libc (tests/ci/install-deps.sh installs both).
web:
	cmake -S . -B build/web -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/wasm32-wasi.cmake \
	    -DWASI_SYSROOT=/usr -DCMAKE_BUILD_TYPE=Release -DWAI_BUILD_TESTS=OFF \
	    -DWAI_BUILD_TOOLS=OFF -DWAI_BUILD_BENCH=OFF >/dev/null
	cmake --build build/web -j2 --target wai_web wai_web_threads
	mkdir -p web/dist && cp build/web/web/wai.wasm build/web/web/wai-threads.wasm web/dist/
	cp LICENSE web/LICENSE   # npm pack puts it in the package

clean:
	rm -rf build
