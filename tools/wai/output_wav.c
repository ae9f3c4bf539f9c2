/* SPDX-License-Identifier: BSD-2-Clause */
/* PCM for `wai decode -o` (output_internal.h): a WAV file, RIFF/WAVE with
 * one "fmt " chunk (PCM, one channel, 16 bits, the output's sample rate)
 * and one "data" chunk of the samples, or the raw samples (s16le). The
 * decoder's samples are already signed 16-bit little-endian, the WAV's
 * byte order, so both write them as they are. */
#include <string.h>

#include "cli.h"
#include "output_internal.h"

#define WAV_HEADER_BYTES 44

static void put_le16(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put_le32(uint8_t *p, uint32_t v) {
    put_le16(p, v & 0xFFFF);
    put_le16(p + 2, v >> 16);
}

/* The 44-byte header of a 16-bit mono PCM WAV of data_bytes at rate. */
static void wav_header(uint8_t h[WAV_HEADER_BYTES], uint32_t rate, uint32_t data_bytes) {
    memcpy(h, "RIFF", 4);
    put_le32(h + 4, 36 + data_bytes);   /* the RIFF chunk: all that follows */
    memcpy(h + 8, "WAVEfmt ", 8);
    put_le32(h + 16, 16);               /* the fmt chunk's size */
    put_le16(h + 20, 1);                /* WAVE_FORMAT_PCM */
    put_le16(h + 22, 1);                /* channels */
    put_le32(h + 24, rate);             /* samples a second */
    put_le32(h + 28, 2 * rate);         /* bytes a second */
    put_le16(h + 32, 2);                /* bytes a sample frame */
    put_le16(h + 34, 16);               /* bits a sample */
    memcpy(h + 36, "data", 4);
    put_le32(h + 40, data_bytes);
}

int out_write_pcm(out_writer *w, const wai_output *o) {
    if (w->choice.fmt == OUT_FORMAT_WAV) {
        /* A WAV's sizes are u32: the rate's bytes a second, and the RIFF
         * chunk (t_out's cap, 2^26 samples, keeps the data well inside). */
        if (o->sample_rate == 0 || o->sample_rate > UINT32_MAX / 2 ||
            o->size > UINT32_MAX - 36 || o->size % 2 != 0) {
            fprintf(stderr,
                    "wai decode: %s: a WAV can't hold %llu bytes at %lu Hz (write --format "
                    "s16le)\n",
                    w->path, (unsigned long long)o->size, (unsigned long)o->sample_rate);
            return EXIT_USAGE;
        }
        uint8_t h[WAV_HEADER_BYTES];
        wav_header(h, o->sample_rate, (uint32_t)o->size);
        if (fwrite(h, 1, sizeof h, w->f) != sizeof h) return out_write_failed(w->path);
    }
    if (fwrite(o->data, 1, o->size, w->f) != o->size) return out_write_failed(w->path);
    return 0;
}
