/* SPDX-License-Identifier: BSD-2-Clause */
/* libwai_write — the encoders and writers beside the decoder: a library of
 * its own (link -lwai_write -lwai), which a player that only decodes never
 * links. It holds the rANS encoder of E1, the WIV1 motion encoder, and the
 * split of a WIV1 clip into WIF1 frames and of a WIC1 clip into WCF1 frames,
 * and their joins back (integer-payloads §16, §17.2). Everything it allocates comes from the allocator given (NULL:
 * libc's malloc and free), and is released with the matching free call. */
#ifndef WAI_WAI_WRITE_H
#define WAI_WAI_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "wai/wai.h"
#include "wai/wai_set.h"

#ifdef __cplusplus
extern "C" {
#endif

/* As WAI_API, for libwai_write (a program using it as a DLL on Windows
 * defines WAI_WRITE_DLL). */
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(WAI_BUILDING_WRITE_LIBRARY)
#define WAI_WRITE_API __declspec(dllexport)
#elif defined(WAI_WRITE_DLL)
#define WAI_WRITE_API __declspec(dllimport)
#else
#define WAI_WRITE_API
#endif
#elif defined(WAI_BUILDING_WRITE_LIBRARY) && defined(__GNUC__)
#define WAI_WRITE_API __attribute__((visibility("default")))
#else
#define WAI_WRITE_API
#endif

/* ---- the rANS encoder (E1) ----------------------------------------------
 * Encodes n symbols against one table of §2 (cdf_len entries: 0, strictly
 * increasing, 65536; 3 <= cdf_len <= 4097) at symbol offset `offset`: each
 * is coded as symbol - offset, an index 0 .. cdf_len - 3 directly and any
 * other value through the escape (the shortest, reading R10), so a decoder
 * gives the symbols back as they were. The stream is canonical (§2):
 * the state starts at 2^31 and ends there with every word read. *out (from
 * a) holds the stream's bytes without the u32 length a payload puts before
 * it. cdf_malformed for a table that breaks §2's rule; field_range for a
 * symbol no stream can carry at this offset. */
WAI_WRITE_API wai_status wai_rans_encode_symbols(const wai_allocator *a, const uint32_t *cdf,
                                                 size_t cdf_len, int32_t offset,
                                                 const int32_t *symbols, size_t n,
                                                 uint8_t **out, size_t *out_len);

/* The same against several tables: symbol i against table table_of[i] of
 * the n_tables (cdfs[t], cdf_lens[t] entries, offset offsets[t]), all in
 * one stream. cdf_malformed for a table out of §2's rule, invalid_argument
 * for an index past n_tables. */
WAI_WRITE_API wai_status wai_rans_encode_symbols_tables(const wai_allocator *a, size_t n_tables,
                                                        const uint32_t *const *cdfs,
                                                        const size_t *cdf_lens,
                                                        const int32_t *offsets,
                                                        const uint32_t *table_of,
                                                        const int32_t *symbols, size_t n,
                                                        uint8_t **out, size_t *out_len);

/* Frees what a libwai_write call returned through *out with the same
 * allocator. */
WAI_WRITE_API void wai_write_free(const wai_allocator *a, void *p);

/* ---- WIV1 clips and WIF1 frames (§16) -----------------------------------*/

/* One payload a call allocated. */
typedef struct wai_payload {
    uint8_t *data;
    size_t len;
} wai_payload;

/* A WIV1 clip and a WIF1 group are the same video: split cuts a clip
 * into n_frames WIF1 frames (*frames from a; free with
 * wai_payloads_free), join writes a group back into a clip. Either
 * keyframe kind: a keyframe-1 clip (wai.video.int_hyper) gives frames of
 * wai.video.int_hyper.frame, its intra frame carrying the clip's WIH1, and
 * such a group joins back into a keyframe-1 clip. Both copy
 * each symbol's rANS steps exactly, so split then join gives the clip back
 * byte for byte, escape layouts included, for every clip whose stream keeps
 * the encoder's states -- every clip an encoder writes. A clip that does not
 * decode is refused with its code. */
WAI_WRITE_API wai_status wai_wiv1_split(const wai_allocator *a, const uint8_t *clip, size_t len,
                                        wai_payload **frames, uint32_t *n_frames);

/* Joins a group: frame 0 intra, every later frame inter (field_range
 * otherwise, as for WIC1), all of frame 0's size (geometry_mismatch), the
 * inter frames sharing one block size and vector precision (a clip has one:
 * field_range), every frame's stream decoding to its end. *clip from a
 * (wai_write_free). */
WAI_WRITE_API wai_status wai_wif1_join(const wai_allocator *a, const wai_payload *frames,
                                       uint32_t n_frames, uint8_t **clip, size_t *len);

WAI_WRITE_API void wai_payloads_free(const wai_allocator *a, wai_payload *p, uint32_t n);

/* ---- WIC1 clips and WCF1 frames (§17.2) ----------------------------------*/

/* A WIC1 clip is one group of wai.video.int_cond.frame and every WCF1 frame
 * carries its own stream, so split and join copy bytes: split gives the
 * clip's n_frames frames (*frames from a; wai_payloads_free), join writes a
 * group back (*clip from a; wai_write_free). Each gives the other's input
 * back byte for byte. A clip that does not parse is refused with its code;
 * a group is refused with the code its joined clip's parse gives (no frame:
 * field_range; past 2^20: too_large; an intra frame after the first or an
 * inter frame first: field_range; another header: geometry_mismatch), and
 * a frame longer than its u32 length field can say with stream_length. */
WAI_WRITE_API wai_status wai_wic1_split(const wai_allocator *a, const uint8_t *clip, size_t len,
                                        wai_payload **frames, uint32_t *n_frames);

WAI_WRITE_API wai_status wai_wcf1_join(const wai_allocator *a, const wai_payload *frames,
                                       uint32_t n_frames, uint8_t **clip, size_t *len);

/* ---- the tools' JSON forms (integer-payloads §10, docs/json-forms.md) -----
 * A JSON bitstream is a converter input and a debugging aid, never a
 * payload (a decoder refuses one bad_magic). wai_export_json writes a
 * payload's form; wai_convert_json writes the payload back, byte for byte.
 * Forms exist for WIV1 (wai.video.int_motion, wai.video.int_hyper), WIH1
 * (wai.neural.int_hyper), WIA1 (wai.audio.int_codec) and WIS1
 * (wai.splat.int_codec); any other capability is unsupported_capability. */

/* What a form does not carry (§10): WIA1's sample rate is audio.json's
 * sample_rate, and a WIA1's or WIS1's afrac must be its model's. */
typedef struct wai_convert_options {
    const uint8_t *audio_json;  /* WIA1: the export's audio.json text (required) */
    size_t audio_json_len;
    const uint8_t *model;       /* WIA1: the set's model.wam; WIS1: its g_s.whm (required) */
    size_t model_len;
    uint64_t reserved[4];       /* zero */
} wai_convert_options;

WAI_WRITE_API void wai_convert_options_default(wai_convert_options *o);

/* The form json[0..len) of a payload of `capability`, converted: *payload
 * from a (wai_write_free). A text that is no JSON object, a member absent or
 * of the wrong type, or a byte string that is no canonical base64 is
 * payload_malformed; a value outside its field or against a §10 rule is
 * field_range; the payload the form describes is then refused with its
 * parse's code. WIA1 without audio.json is invalid_argument (an
 * audio.json that is no object with an integer sample_rate is
 * payload_malformed); WIA1 or WIS1 without the model is set_incomplete, a
 * model that is no network or of another afrac model_mismatch. o may be
 * NULL (the defaults). */
WAI_WRITE_API wai_status wai_convert_json(const wai_allocator *a, const char *capability,
                                          const uint8_t *json, size_t len,
                                          const wai_convert_options *o, uint8_t **payload,
                                          size_t *payload_len);

/* A payload's form (capability NULL: the one its magic names): *json from a
 * (wai_write_free), NUL-terminated, *json_len without the NUL. A payload
 * that does not parse is refused with its code. */
WAI_WRITE_API wai_status wai_export_json(const wai_allocator *a, const char *capability,
                                         const uint8_t *payload, size_t len, char **json,
                                         size_t *json_len);

/* ---- the WIV1 motion encoder (wai.video.int_motion, §3, keyframe 0) -------
 * Closed loop: frame 0 is predicted from 128 and every later frame from the
 * encoder's own reconstruction of the frame before, built with the decoder's
 * rules (E10 mc_predict, E9 residual_step), so the decoder's output is the
 * reconstruction the statistics describe. Integer only: the caller turns SSE
 * and sample counts into PSNR. */

/* The search radius is capped so a half-pel vector (2R + 1 half pels) fits
 * i16. */
#define WAI_MOTION_ENCODE_MAX_SEARCH 16383

/* Called after each frame is coded: frame is 0-based, of n_frames. */
typedef void (*wai_motion_encode_progress)(void *opaque, uint32_t frame, uint32_t n_frames);

typedef struct wai_motion_encode_params {
    uint32_t q;          /* 1..65535; 1 is lossless; the largest step: see
                          * wai_motion_encode */
    uint32_t block;      /* >= 1 (a one-frame clip is written with block 1) */
    uint32_t search;     /* whole pels, 0..WAI_MOTION_ENCODE_MAX_SEARCH */
    int half_pel;        /* refine each vector over its 8 half-pel neighbours */
    wai_motion_encode_progress progress;  /* NULL: no reports */
    void *progress_opaque;
    unsigned n_threads;  /* motion search threads (0: one per core); the payload
                          * is the same at every count */
    int sad_search;      /* 0: each vector the least squared error plus lambda
                          * times the residuals' bits among the best by SAD
                          * (docs/motion-encoder.md); 1: the least SAD alone */
    uint8_t reserved[28]; /* zero (invalid_argument otherwise): room to grow */
} wai_motion_encode_params;

/* q 1, block 16, search 8, whole-pel, no progress, one thread. */
WAI_WRITE_API void wai_motion_encode_params_default(wai_motion_encode_params *p);

typedef struct wai_motion_encode_result {
    uint8_t *payload;     /* the WIV1 payload (allocated with the allocator) */
    size_t payload_len;
    uint32_t n_frames, h, w;
    uint64_t pixels;      /* n_frames * h * w */
    uint64_t samples;     /* pixels * 3 */
    uint64_t sse;         /* sum over the clip of (decoded - source)^2 */
    uint64_t *frame_sse;  /* n_frames entries, the same per frame */
    /* What the encoder chose, for reports. */
    int32_t offset;
    uint32_t cdf_len;
    uint64_t escapes;     /* residuals coded through the escape */
    uint32_t q;           /* the step the payload has: the one asked for, or 1 where
                           * lossless was no larger (wai_motion_encode) */
    uint8_t reserved[28]; /* zeroed by the encoder: room to grow */
} wai_motion_encode_result;

/* Encodes n_frames RGB8 frames of h x w (frames[f] holds h*w*3 bytes: rows
 * top to bottom, R, G, B). At q > 1 the payload is never larger than q 1's:
 * the clip is also coded as q 1 codes it, and the smaller payload kept
 * (lossless on a tie; res->q says which), so a q > 1 encode takes about
 * twice a q 1 encode's time. WAI_invalid_argument for parameters out of range
 * or no frames; the writer's code (too_large, ...) for a clip a parser would
 * refuse; WAI_out_of_memory. On failure *res holds nothing to free. */
WAI_WRITE_API wai_status wai_motion_encode(const wai_allocator *a, const uint8_t *const *frames,
                                           uint32_t n_frames, uint32_t h, uint32_t w,
                                           const wai_motion_encode_params *p,
                                           wai_motion_encode_result *res);

/* A keyframe-1 clip (wai.video.int_hyper, §3) of the same frames: frame 0
 * is `key`, a WIH1 payload of h x w (key_len bytes) whose decode is key_rgb
 * (wai_hyper_encode with keep_decoded gives both); it reads no residual,
 * and frames 1 .. n_frames - 1 are coded as wai_motion_encode codes them,
 * frame 1 predicted from key_rgb. frames[0], frame 0's source, gives
 * frame_sse[0]. The payload is checked by parsing it back (the nested
 * WIH1's framing included); that the WIH1 is h x w is the decoder's check
 * against the set (geometry_mismatch). invalid_argument for no key, and as
 * wai_motion_encode otherwise. */
WAI_WRITE_API wai_status wai_motion_encode_keyed(const wai_allocator *a,
                                                 const uint8_t *const *frames, uint32_t n_frames,
                                                 uint32_t h, uint32_t w, const uint8_t *key,
                                                 size_t key_len, const uint8_t *key_rgb,
                                                 const wai_motion_encode_params *p,
                                                 wai_motion_encode_result *res);

WAI_WRITE_API void wai_motion_encode_result_free(const wai_allocator *a,
                                                 wai_motion_encode_result *res);

/* ---- the WIH1 image encoder (wai.neural.int_hyper, §4) -------------------
 * A picture to a WIH1 against a parameter set that holds, beside the
 * decoder's members (g_s.whm, h_s.whm, entropy.json), the encoder's
 * (wai_capability_encoder_members): analysis.webnn.json and analysis.f32,
 * the analysis networks as a WebNN graph description (input "x" [1, 3, H,
 * W], RGB / 255; outputs "y" and "z"). The analysis runs in float on the
 * native WebNN and its latents are taken at 2^afrac; from there every step
 * is the decoder's integer arithmetic: z's symbols, h_s run by libwai
 * itself so the scales pick exactly the decoder's tables, y's symbols,
 * then the streams. The payload is decoded again and measured, so the
 * figures are what any decoder gives (docs/hyperprior.md, "The encoder"). */

/* The stages, in order, that progress reports. */
typedef enum wai_hyper_encode_stage {
    WAI_HYPER_STAGE_ANALYSIS = 0, /* g_a and h_a (float) */
    WAI_HYPER_STAGE_HYPER,        /* z's symbols and stream, then h_s */
    WAI_HYPER_STAGE_LATENT,       /* y's symbols and stream, the payload */
    WAI_HYPER_STAGE_CHECK,        /* the payload decoded and measured */
    WAI_HYPER_STAGES
} wai_hyper_encode_stage;

typedef struct wai_hyper_encode_params {
    /* Called as each stage starts (NULL: no reports). */
    void (*progress)(void *opaque, wai_hyper_encode_stage stage);
    void *progress_opaque;
    int keep_decoded;     /* keep the measured decode in the result (a keyframe's
                           * reference: wai_motion_encode_keyed) */
    uint8_t reserved[28]; /* zero (invalid_argument otherwise): room to grow */
} wai_hyper_encode_params;

WAI_WRITE_API void wai_hyper_encode_params_default(wai_hyper_encode_params *p);

typedef struct wai_hyper_encode_result {
    uint8_t *payload;           /* the WIH1 (wai_write_free with the context's allocator) */
    size_t payload_len;
    uint32_t h, w;              /* the picture's size */
    uint32_t coded_h, coded_w;  /* the payload's: each rounded up to a multiple of 64 (the
                                 * model's stride), the picture's last row and column
                                 * repeated; its decode is this size */
    uint64_t samples;           /* h * w * 3 */
    uint64_t sse;               /* over the decode's top-left h x w against the picture */
    size_t z_bytes, y_bytes;    /* the two streams */
    uint32_t m, n_z;            /* the latent's and the hyper-latent's channels */
    uint64_t z_escapes, y_escapes; /* symbols coded through their table's escape */
    uint8_t *decoded;           /* with keep_decoded: the decode, coded_h x coded_w x 3
                                 * (freed with the result); else NULL */
    uint8_t reserved[32];
} wai_hyper_encode_result;

/* Encodes an h x w RGB8 picture (rows top to bottom, R, G, B) against set
 * on ctx's threads and allocator. Refusals: invalid_argument (no picture, a
 * zero side, reserved bytes set); too_large when the coded picture's 3·H·W
 * passes 2^26 (§7's cap on a tensor), before anything is allocated;
 * set_incomplete for a set without the decoder's or the encoder's members;
 * the set's own refusals (model_mismatch); model_mismatch when the
 * analysis program does not build on the picture or its latents do not
 * fit h_s and the tables; field_range for a latent the tables or the
 * networks cannot carry; dispatch_backend_failed when the float analysis
 * does not run; out_of_memory. On failure *r holds nothing to free. */
WAI_WRITE_API wai_status wai_hyper_encode(wai_context *ctx, const wai_set *set, const uint8_t *rgb,
                                          uint32_t h, uint32_t w, const wai_hyper_encode_params *p,
                                          wai_hyper_encode_result *r);

WAI_WRITE_API void wai_hyper_encode_result_free(const wai_context *ctx,
                                                wai_hyper_encode_result *r);

/* ---- the WIM1 image encoder (wai.neural.int_mlicpp, §14) -----------------
 * A picture to a WIM1 against a parameter set that holds, beside the
 * decoder's member (model.wmb, the WMB1 bundle of h_s, the entropy network,
 * g_s and the tables), the encoder's (wai_capability_encoder_members):
 * analysis.webnn.json and analysis.f32, the analysis networks as for WIH1.
 * The analysis runs in float on the native WebNN and its latents are taken
 * at 2^afrac; from there every step is the decoder's integer arithmetic,
 * run by libwai through include/wai/wai_network.h: z's symbols against the
 * z tables, h_s, then the latent over K channel slices of two checkerboard
 * passes each (the anchors, (row + col) even, first): before each pass the
 * entropy network on the latent coded so far and h_s's output gives every
 * element's scale and mean, each element of the slice's channels in the
 * pass is coded round((y - mean) / 2^afrac) against its scale's table, and
 * its rebuilt value joins the latent the next pass sees. The payload is
 * decoded again and measured, so the figures are what any decoder gives. */

/* The stages, in order, that progress reports. */
typedef enum wai_mlic_encode_stage {
    WAI_MLIC_STAGE_ANALYSIS = 0, /* g_a and h_a (float) */
    WAI_MLIC_STAGE_HYPER,        /* z's symbols and stream, then h_s */
    WAI_MLIC_STAGE_LATENT,       /* the 2·K passes of the entropy network and y's
                                  * symbols, y's stream, the payload */
    WAI_MLIC_STAGE_CHECK,        /* the payload decoded and measured */
    WAI_MLIC_STAGES
} wai_mlic_encode_stage;

/* The slices when params give none: the WIM1 sets' (tools/mlicpp). */
#define WAI_MLIC_DEFAULT_SLICES 4

typedef struct wai_mlic_encode_params {
    /* Called as each stage starts (NULL: no reports). */
    void (*progress)(void *opaque, wai_mlic_encode_stage stage);
    void *progress_opaque;
    int keep_decoded;     /* keep the measured decode in the result */
    uint32_t k;           /* the channel slices K, 1..65535, dividing the latent's
                           * channels (0: WAI_MLIC_DEFAULT_SLICES) */
    uint8_t reserved[24]; /* zero (invalid_argument otherwise): room to grow */
} wai_mlic_encode_params;

WAI_WRITE_API void wai_mlic_encode_params_default(wai_mlic_encode_params *p);

typedef struct wai_mlic_encode_result {
    uint8_t *payload;           /* the WIM1 (wai_write_free with the context's allocator) */
    size_t payload_len;
    uint32_t h, w;              /* the picture's size */
    uint32_t coded_h, coded_w;  /* the payload's H and W: each rounded up to a multiple
                                 * of 64 (the model's stride), the picture's last row and
                                 * column repeated; its decode is this size */
    uint64_t samples;           /* h * w * 3 */
    uint64_t sse;               /* over the decode's top-left h x w against the picture */
    size_t z_bytes, y_bytes;    /* the two streams */
    uint32_t m, n_z;            /* the latent's and the hyper-latent's channels */
    uint32_t k;                 /* the channel slices */
    uint64_t z_escapes, y_escapes; /* symbols coded through their table's escape */
    uint8_t *decoded;           /* with keep_decoded: the decode, coded_h x coded_w x 3
                                 * (freed with the result); else NULL */
    uint8_t reserved[32];
} wai_mlic_encode_result;

/* Encodes an h x w RGB8 picture (rows top to bottom, R, G, B) against set
 * on ctx's threads and allocator. Refusals: invalid_argument (no picture, a
 * zero side, reserved bytes set, k past 65535, or, once the analysis gave
 * the latent, k not dividing its channels); too_large when the coded
 * picture's 3·H·W passes 2^26 (§7's cap on a tensor), before anything is
 * allocated; set_incomplete for a set without the decoder's or the
 * encoder's members; the set's own refusals (model_mismatch); model_mismatch
 * when the analysis program does not build on the picture, its latents do
 * not fit the z tables or the entropy network does not take [3·Cy, Yh, Yw]
 * to [2·Cy, Yh, Yw]; geometry_mismatch when h_s does not take z to
 * [2·Cy, Yh, Yw]; field_range for a latent the tables or the networks
 * cannot carry; dispatch_backend_failed when the float analysis does not
 * run; out_of_memory. On failure *r holds nothing to free. */
WAI_WRITE_API wai_status wai_mlic_encode(wai_context *ctx, const wai_set *set, const uint8_t *rgb,
                                         uint32_t h, uint32_t w, const wai_mlic_encode_params *p,
                                         wai_mlic_encode_result *r);

WAI_WRITE_API void wai_mlic_encode_result_free(const wai_context *ctx, wai_mlic_encode_result *r);

#ifdef __cplusplus
}
#endif

#endif /* WAI_WAI_WRITE_H */
