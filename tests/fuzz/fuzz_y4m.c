/* libFuzzer: the tool's Y4M reader (tools/wai/input_y4m.c, `wai encode`'s
 * input), on a file holding the input.
 *
 * Invariants: it reads the file or refuses it (-1, or INPUT_TOO_LARGE past
 * the caps), never more; what it reads is n_frames frames of h x w RGB8
 * within the caps, every byte written (ASan/MSan-clean reads of them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int ok) {
    if (!ok) __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char path[64];
    if (!path[0]) snprintf(path, sizeof path, "/tmp/fuzz_y4m.%ld", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    require(fwrite(data, 1, size, f) == size);
    fclose(f);
    input_clip clip;
    memset(&clip, 0, sizeof clip);
    int rc = input_read_y4m(path, &clip);
    if (rc == 0) {
        uint64_t bytes = (uint64_t)clip.n_frames * clip.h * clip.w * 3;
        require(clip.n_frames >= 1 && clip.h >= 1 && clip.w >= 1 && clip.rgb);
        require(bytes <= INPUT_MAX_BYTES && bytes <= (uint64_t)size * 6);
        unsigned sum = 0;
        for (uint64_t i = 0; i < bytes; i++) sum += clip.rgb[i];
        (void)sum;
        free(clip.rgb);
    } else {
        require(rc == -1 || rc == INPUT_TOO_LARGE);
    }
    return 0;
}
