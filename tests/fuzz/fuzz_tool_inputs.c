/* libFuzzer: the tool's other file readers, on a file holding the input:
 * byte 0 even, a PNG (tools/wai/input_png.c, `wai encode`'s pictures,
 * where the build has libpng); odd, a key file (tools/wai/keys.c, 64
 * hexadecimal digits with spaces around).
 *
 * Invariants: a PNG read is one frame of h x w RGB8 within the caps, every
 * byte readable, or refused (-1, INPUT_TOO_LARGE); a key file reads as
 * keys_parse_hex32 parses its bytes, and its 32 bytes are the digits'. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "keys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int ok) {
    if (!ok) __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    static char path[64];
    if (!path[0]) snprintf(path, sizeof path, "/tmp/fuzz_tool_inputs.%ld", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    require(fwrite(data + 1, 1, size - 1, f) == size - 1);
    fclose(f);
    if (data[0] & 1) {
        uint8_t a[32], b[32];
        int parsed = keys_parse_hex32((const char *)data + 1, size - 1, a);
        int read = keys_read("fuzz", path, b) == 0;
        require(parsed == read && (size - 1 <= 4096 || !read));
        if (read) require(memcmp(a, b, 32) == 0);
        return 0;
    }
    const char *paths[1] = {path};
    input_clip clip;
    memset(&clip, 0, sizeof clip);
    int rc = input_read_pngs(paths, 1, &clip);
    if (rc == 0) {
        uint64_t bytes = (uint64_t)clip.h * clip.w * 3;
        require(clip.n_frames == 1 && clip.h >= 1 && clip.w >= 1 && clip.rgb && bytes <= INPUT_MAX_BYTES);
        unsigned sum = 0;
        for (uint64_t i = 0; i < bytes; i++) sum += clip.rgb[i];
        (void)sum;
        free(clip.rgb);
    } else {
        require(rc == -1 || rc == INPUT_TOO_LARGE);
    }
    return 0;
}
