# SPDX-License-Identifier: BSD-2-Clause
# Two commands for a newcomer; everything else is CMake.
#   make deps example  - install what the build and its optional parts need
#                        (apt-get), build, then decode the shipped examples
#   make check         - the whole test suite (installs what it needs)
# and: make (build; says which optional parts it found), make install
# [PREFIX=/usr/local], make web (the WebAssembly module of web/).
BUILD ?= build/release
PREFIX ?= /usr/local

.PHONY: all deps example check install web clean

# CMake's configure output is kept in BUILD/configure.log; what it found of
# the optional parts (cmake/wai_summary.cmake) is printed.
all:
	@mkdir -p $(BUILD)
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >$(BUILD)/configure.log 2>&1 || \
	    { cat $(BUILD)/configure.log; exit 1; }
	@echo "optional parts (configure output: $(BUILD)/configure.log):"
	@sed -n 's/^-- wai: /  /p' $(BUILD)/configure.log
	cmake --build $(BUILD) -j2

deps:
	bash tests/ci/install-deps.sh --build

example: all
	bash examples/run_example.sh $(BUILD)/tools/wai/wai

check:
	bash tests/ci/check.sh

# Everything under PREFIX (the plugin in PREFIX/lib/gstreamer-1.0: point
# GST_PLUGIN_PATH there); a shared build's programs find its libraries by
# their own place (RUNPATH $ORIGIN/../lib).
install: all
	cmake --install $(BUILD) --prefix $(PREFIX)

# The WebAssembly module of the npm package (web/): web/dist/wai.wasm, from
# clang and Debian's wasi-libc (make deps installs both).
web:
	@missing=$$(bash tools/build/wasm_prereqs.sh) || \
	    { echo "make web: missing Debian packages: $$missing (make deps installs them)"; exit 1; }
	cmake -S . -B build/web -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/wasm32-wasi.cmake \
	    -DWASI_SYSROOT=/usr -DCMAKE_BUILD_TYPE=Release -DWAI_BUILD_TESTS=OFF \
	    -DWAI_BUILD_TOOLS=OFF -DWAI_BUILD_BENCH=OFF >/dev/null
	cmake --build build/web -j2 --target wai_web wai_web_threads
	mkdir -p web/dist && cp build/web/web/wai.wasm build/web/web/wai-threads.wasm web/dist/
	cp LICENSE web/LICENSE   # npm pack puts it in the package

clean:
	rm -rf build
