# SPDX-License-Identifier: BSD-2-Clause
# The optional parts this build found, one line each ("-- wai: ..."), and
# for a part it lacks, the Debian package that brings it. `make` prints
# these lines (and hides the rest of the configure output);
# tests/ci/check_optional.sh holds each "no" line to its package.

# wai_part(NAME FOUND OPTION WHAT PACKAGES): one line.
function(wai_part name found option what packages)
  if(found)
    message(STATUS "wai: ${name}: yes, ${what}")
  elseif(DEFINED ${option} AND NOT ${${option}})
    message(STATUS "wai: ${name}: no (${option}=OFF)")
  else()
    message(STATUS "wai: ${name}: no; install ${packages} (Debian) and configure again")
  endif()
endfunction()

if(NOT WASI_SYSROOT AND NOT CMAKE_CROSSCOMPILING)
  message(STATUS "wai: libwai ${PROJECT_VERSION}: the decoder core (libc alone), the native WebNN, the writers")
  wai_part("oneDNN" "${WAI_DNNL_FOUND}" WAI_WITH_DNNL
    "the native WebNN's convolutions" "libdnnl-dev")
  wai_part("libsodium" "${WAI_ED25519_FOUND}" WAI_WITH_SODIUM
    "Ed25519 receipts (libwai_ed25519)" "libsodium-dev")
  if(WAI_BUILD_TOOLS)
    wai_part("libpng" "${WAI_PNG_FOUND}" WAI_WITH_PNG "PNG in the wai tool" "libpng-dev")
  endif()
  if(TARGET gstwai)
    set(wai_gst_found ON)
    set(wai_gst_what "the plugin (gst/libgstwai.so)")
  elseif(TARGET gstwai_elements)
    set(wai_gst_found ON)
    set(wai_gst_what "its elements under the sanitizers, in gst/wai_gst_hostile alone (no gst-launch loads a sanitized plugin)")
  else()
    set(wai_gst_found OFF)
  endif()
  wai_part("GStreamer" "${wai_gst_found}" WAI_BUILD_GST "${wai_gst_what}"
    "libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev")
  set(WAI_WASI_PROBE /usr CACHE PATH "where make web looks for wasi-libc (the summary's probe)")
  execute_process(COMMAND bash ${PROJECT_SOURCE_DIR}/tools/build/wasm_prereqs.sh ${WAI_WASI_PROBE}
    RESULT_VARIABLE wai_wasm_rc OUTPUT_VARIABLE wai_wasm_missing OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(wai_wasm_rc EQUAL 0)
    set(wai_wasm_found ON)
  else()
    set(wai_wasm_found OFF)
  endif()
  wai_part("WebAssembly toolchain" "${wai_wasm_found}" WAI_NO_SUCH_OPTION
    "make web can build web/dist/wai.wasm" "${wai_wasm_missing}")
endif()
