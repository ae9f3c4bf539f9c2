/* SPDX-License-Identifier: BSD-2-Clause */
/* What `wai encode` reads: a Y4M file or a list of PNG files, as RGB8
 * frames (rows top to bottom, R, G, B), the input of the WIV1 encoder. */
#ifndef WAI_TOOLS_INPUT_H
#define WAI_TOOLS_INPUT_H

#include <stddef.h>
#include <stdint.h>

typedef struct input_clip {
    uint32_t n_frames, h, w;
    uint8_t *rgb;          /* n_frames * h * w * 3 bytes, frame after frame */
} input_clip;

/* The most RGB bytes a clip may hold: a WIV1 clip's cap (integer-payloads
 * §7), so nothing larger is read into memory. */
#define INPUT_MAX_BYTES ((uint64_t)1 << 30)

/* The readers' return for a picture or clip past those caps (a frame of
 * more than 2^26 samples, more than 2^30 bytes): a clip WIV1 cannot hold,
 * which `wai encode` refuses as too_large (exit 1), not a usage error. */
#define INPUT_TOO_LARGE (-2)

/* Reads a YUV4MPEG2 file as ffmpeg writes it: 8-bit 4:2:0 (C420jpeg,
 * C420paldv, C420mpeg2, C420, the default), 4:2:2 (C422), 4:4:4 (C444) or
 * gray (Cmono), any FRAME parameters. YUV is BT.601 limited range; chroma
 * is repeated (nearest: chroma sample (y/2, x/2) for 4:2:0), whatever the
 * siting the C tag names. The arithmetic follows the path ffmpeg's
 * `-pix_fmt rgb24` takes: 4:2:0 and 4:2:2 of even height through
 * input_yuv_to_rgb (ffmpeg's unscaled converter), 4:4:4 and odd heights
 * through input_yuv_to_rgb_q16 (its generic scaler's rounding); gray is
 * R = G = B = Y, as ffmpeg copies it. "-" reads standard input. Returns 0,
 * or prints "wai encode: PATH: reason" and returns -1 (INPUT_TOO_LARGE past
 * the caps). */
int input_read_y4m(const char *path, input_clip *clip);

/* Reads PNG files, one frame each, all of one size: 8-bit gray, gray+alpha,
 * RGB, RGBA or palette, as RGB8 (gray is repeated, alpha dropped). Without
 * libpng (WAI_HAVE_PNG undefined) it refuses with a clear message. Returns
 * 0, or prints why and returns -1 (INPUT_TOO_LARGE past the caps). */
int input_read_pngs(const char *const *paths, int n_paths, input_clip *clip);

void input_clip_free(input_clip *clip);

/* One BT.601 limited-range sample to RGB8, exactly as ffmpeg's x86 unscaled
 * yuv420p -> rgb24 converter computes it (16-bit fixed point, arithmetic
 * shifts rounding down, saturation at the end):
 *   y8 = ((Y - 16) * 8 * 9539) >> 16,  u8 = (U - 128) * 8,  v8 = (V - 128) * 8
 *   R = clamp(y8 + ((v8 * 13075) >> 16))
 *   G = clamp(y8 + ((u8 * -3209) >> 16) + ((v8 * -6660) >> 16))
 *   B = clamp(y8 + ((u8 * 16525) >> 16))
 * 9539, 13075, -3209, -6660, 16525 are 1.164383, 1.596027, -0.391762,
 * -0.812968, 2.017232 at 2^13, rounded. */
void input_yuv_to_rgb(int32_t y, int32_t u, int32_t v, uint8_t *rgb);

/* The same conversion at 2^16, rounded once:
 *   R = clamp((76309 (Y - 16) + 104597 (V - 128) + 32768) >> 16)
 *   G = clamp((76309 (Y - 16) - 25675 (U - 128) - 53279 (V - 128) + 32768) >> 16)
 *   B = clamp((76309 (Y - 16) + 132201 (U - 128) + 32768) >> 16) */
void input_yuv_to_rgb_q16(int32_t y, int32_t u, int32_t v, uint8_t *rgb);

#endif
