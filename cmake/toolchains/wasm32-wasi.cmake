# SPDX-License-Identifier: BSD-2-Clause
# wasm32-wasi with clang, Debian's wasi-libc and the wasm32 compiler-rt
# builtins (libclang-rt-14-dev-wasm32). Binaries get a .wasm suffix and run
# under node's WASI (tests/ci/run-wasi.mjs).
#
# WASI_SYSROOT is the directory holding include/wasm32-wasi and
# lib/wasm32-wasi; Debian puts them under /usr (dpkg -L wasi-libc).
set(CMAKE_SYSTEM_NAME Generic)   # CMake 3.25 knows no WASI platform
set(CMAKE_SYSTEM_PROCESSOR wasm32)

set(WASI_SYSROOT /usr CACHE PATH "prefix holding include/wasm32-wasi and lib/wasm32-wasi")

if(NOT CMAKE_C_COMPILER)
  set(CMAKE_C_COMPILER clang)
endif()
set(CMAKE_C_COMPILER_TARGET wasm32-wasi)

# GNU ar writes no symbol index for wasm objects and wasm-ld needs one.
find_program(WAI_LLVM_AR NAMES llvm-ar llvm-ar-14 REQUIRED)
find_program(WAI_LLVM_RANLIB NAMES llvm-ranlib llvm-ranlib-14 REQUIRED)
set(CMAKE_AR ${WAI_LLVM_AR} CACHE FILEPATH "" FORCE)
set(CMAKE_RANLIB ${WAI_LLVM_RANLIB} CACHE FILEPATH "" FORCE)

# Only wasi-libc's headers (and clang's own): clang's default search would
# also fall through to the host's /usr/include.
# SIMD128 (every browser and node since 2021): the compiler vectorises the
# portable loops with it, and the wasm128 kernel level is written in it;
# the unit tests and the cross-architecture check hold what they compute
# to the other builds'. Atomics and bulk memory (every engine with SIMD128
# has them): the C11 atomics of the worker pool and the frame pipe are real
# atomic instructions, so the threads module (web/CMakeLists.txt) runs them
# over shared memory; thread-local variables (wasi-libc declares errno so)
# then need the local-exec model.
set(CMAKE_C_FLAGS_INIT "-nostdlibinc -isystem ${WASI_SYSROOT}/include/wasm32-wasi -msimd128 -matomics -mbulk-memory -ftls-model=local-exec")
# Memory is fixed at 1 GiB (initial = maximum), so it never grows at run
# time: node:wasi keeps using the memory's old backing store after a
# memory.grow (nodejs/node#51303 and friends), which crashed node (SIGSEGV)
# or silently lost output once a program's heap passed a few tens of MiB.
# wasi-libc's malloc uses the initial memory, so nothing is lost by this.
# --no-check-features: Debian's wasi-libc is built without atomics; its
# code runs on one thread (a worker thread runs only the allocation-free
# shares of the pool, src/common/pool_wasm.c).
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,--no-check-features -L${WASI_SYSROOT}/lib/wasm32-wasi -Wl,-z,stack-size=1048576 -Wl,--initial-memory=1073741824,--max-memory=1073741824")

set(CMAKE_EXECUTABLE_SUFFIX_C .wasm)
set(CMAKE_C_COMPILE_OPTIONS_PIC "")   # no PIC in a static wasm executable
set(BUILD_SHARED_LIBS OFF CACHE BOOL "" FORCE)
set_property(GLOBAL PROPERTY TARGET_SUPPORTS_SHARED_LIBS FALSE)

set(CMAKE_CROSSCOMPILING_EMULATOR node ${CMAKE_CURRENT_LIST_DIR}/../../tests/ci/run-wasi.mjs)

# Find nothing of the host's: wasi-libc is all there is. (A root of /usr
# would find /usr/include; pkg-config would offer the host's libpng.)
set(CMAKE_FIND_ROOT_PATH ${WASI_SYSROOT}/lib/wasm32-wasi)
set(ENV{PKG_CONFIG_LIBDIR} ${WASI_SYSROOT}/lib/wasm32-wasi/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
