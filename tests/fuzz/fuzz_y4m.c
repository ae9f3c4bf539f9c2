/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: the tool's Y4M reader (tools/wai/input_y4m.c, `wai encode`'s
 * input), on a file holding the input.
 *
 * Invariants: it reads the file or refuses it (-1, or INPUT_TOO_LARGE past
 * the caps), never more; what it reads is n_frames frames of h x w RGB8
 * within the caps, every byte written (ASan/MSan-clean reads of them). */
#include <string.h>

#include "tool_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *path = fuzz_file_of("fuzz_y4m", data, size);
    if (!path) return 0;
    input_clip clip;
    memset(&clip, 0, sizeof clip);
    uint32_t n_frames = 0;
    int rc = input_read_y4m(path, &clip);
    if (rc == 0) n_frames = clip.n_frames;
    uint64_t bytes = fuzz_clip_checked(rc, &clip);
    /* A frame's RGB8 is at most 6 bytes a byte of the file (4:2:0, 8 bits). */
    fuzz_require(bytes <= (uint64_t)size * 6 && (rc != 0 || n_frames >= 1));
    return 0;
}
