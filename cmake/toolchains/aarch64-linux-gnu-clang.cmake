# SPDX-License-Identifier: BSD-2-Clause
# aarch64 Linux with clang as the cross compiler. Debian 12's
# gcc-aarch64-linux-gnu conflicts with gcc-multilib, so the pieces come from
#   libc6-dev-arm64-cross      headers, crt*.o, libc  (/usr/aarch64-linux-gnu)
#   libgcc-12-dev-arm64-cross  crtbegin/crtend, libgcc (/usr/lib/gcc-cross/...)
# which clang's driver finds by itself for --target=aarch64-linux-gnu; lld
# links. Test binaries run under qemu-user (CMAKE_CROSSCOMPILING_EMULATOR).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(WAI_AARCH64_ROOT /usr/aarch64-linux-gnu CACHE PATH "aarch64 libc root")

if(NOT CMAKE_C_COMPILER)
  set(CMAKE_C_COMPILER clang)
endif()
set(CMAKE_C_COMPILER_TARGET aarch64-linux-gnu)
set(CMAKE_EXE_LINKER_FLAGS_INIT "-fuse-ld=lld")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-fuse-ld=lld")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "-fuse-ld=lld")
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L ${WAI_AARCH64_ROOT})

# Look for libraries and headers of the target only, programs of the host.
set(CMAKE_FIND_ROOT_PATH ${WAI_AARCH64_ROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config: the target's .pc files only (arm64 packages), never the host's.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:${WAI_AARCH64_ROOT}/lib/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
