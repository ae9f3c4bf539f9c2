/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: the tool's other file readers, on a file holding the input:
 * byte 0 even, a PNG (tools/wai/input_png.c, `wai encode`'s pictures,
 * where the build has libpng); odd, a key file (tools/wai/keys.c, 64
 * hexadecimal digits with spaces around).
 *
 * Invariants: a PNG read is one frame of h x w RGB8 within the caps, every
 * byte readable, or refused (-1, INPUT_TOO_LARGE); a key file reads as
 * keys_parse_hex32 parses its bytes, and its 32 bytes are the digits'. */
#include <string.h>

#include "keys.h"
#include "tool_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    const char *path = fuzz_file_of("fuzz_tool_inputs", data + 1, size - 1);
    if (!path) return 0;
    if (data[0] & 1) {
        uint8_t a[32], b[32];
        int parsed = keys_parse_hex32((const char *)data + 1, size - 1, a);
        int read = keys_read("fuzz", path, b) == 0;
        fuzz_require(parsed == read && (size - 1 <= 4096 || !read));
        if (read) fuzz_require(memcmp(a, b, 32) == 0);
        return 0;
    }
    const char *paths[1] = {path};
    input_clip clip;
    memset(&clip, 0, sizeof clip);
    int rc = input_read_pngs(paths, 1, &clip);
    uint32_t n_frames = rc == 0 ? clip.n_frames : 0;
    fuzz_clip_checked(rc, &clip);
    fuzz_require(rc != 0 || n_frames == 1);
    return 0;
}
