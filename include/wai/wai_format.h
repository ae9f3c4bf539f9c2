/* SPDX-License-Identifier: BSD-2-Clause */
/* Payload formats and the capabilities that carry them
 * (integer-payloads §1, §2 step 1, §13, §14). */
#ifndef WAI_WAI_FORMAT_H
#define WAI_WAI_FORMAT_H

#include "wai/wai.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum wai_format {
    WAI_FORMAT_NONE = 0,
    /* The seven magics of §2 step 1, in the spec's order. */
    WAI_FORMAT_WIV1 = 1,
    WAI_FORMAT_WIH1 = 2,
    WAI_FORMAT_WIA1 = 3,
    WAI_FORMAT_WIS1 = 4,
    WAI_FORMAT_WIF1 = 5,
    WAI_FORMAT_WCF1 = 6,
    WAI_FORMAT_WIC1 = 7,
    /* Formats with their own framing rules. */
    WAI_FORMAT_WIM1 = 8,       /* §14: no version byte; refusals are payload_malformed */
    WAI_FORMAT_INT_SYNTH = 9,  /* §13: no magic at all */
    /* libwai's payload of wai.neural.bmshj2018 (docs/bmshj2018.md, reading
     * B1: neural-dispatch §6.3 names only its parts). */
    WAI_FORMAT_B18F = 10
} wai_format;

/* "WIV1" ... "WIM1", "int_synth", "B18F", or "none". */
WAI_API const char *wai_format_name(wai_format f);

/* The format whose magic the bytes start with (WIM1 included), or
 * WAI_FORMAT_NONE. A payload shorter than four bytes has no magic (reading R1).
 * int_synth carries no magic and is never detected. */
WAI_API wai_format wai_format_detect(const uint8_t *data, size_t len);

/* 1 for the seven formats of §2 step 1 (the ones format_capability_mismatch
 * names), else 0. */
WAI_API int wai_format_is_section2(wai_format f);

/* A capability libwai knows (the spec's registry rows). */
typedef struct wai_capability {
    const char *name;            /* "wai.video.int_motion" */
    wai_format format;           /* the payload format it carries; NONE: none libwai reads */
    int keyframe;                /* WIV1/WIF1: the keyframe kind it takes; else -1 */
    int frame_form;              /* 1 when one payload is one frame of a stream */
    const char *registry_class;  /* "NeuralIntegerExact", or "Neural" (docs/dispatch.md) */
    const char *tier;            /* its registered tier: "decode-equivalence", "none" */
    const char *set_members[4];  /* §9's members in order, NULL-terminated */
} wai_capability;

/* The members an encoder reads beside cap's set_members (wai.neural.int_hyper's
 * and its video forms': analysis.webnn.json and analysis.f32, the analysis
 * networks; include/wai/wai_write.h), NULL-terminated; none for the others.
 * A decode never reads them and a set's cache key leaves them out; a set's
 * listing, and so its pin, covers them (docs/spec-readings.md, L5a). */
WAI_API const char *const *wai_capability_encoder_members(const wai_capability *cap);

WAI_API size_t wai_capability_count(void);
WAI_API const wai_capability *wai_capability_at(size_t i);
/* Exact name match, or NULL. */
WAI_API const wai_capability *wai_capability_find(const char *name);

/* The capability a payload's first bytes name: its magic and, for WIV1 and
 * WIF1, its keyframe byte (offset 6); a keyframe byte that is absent or
 * neither 0 nor 1 picks the keyframe-0 capability, whose parse then refuses
 * it. NULL when the bytes start with no magic. */
WAI_API const wai_capability *wai_capability_detect(const uint8_t *data, size_t len);

/* 1 when this build of libwai decodes the capability. */
WAI_API int wai_capability_has_decoder(const wai_capability *cap);

/* The checks every format of §2 shares, steps 1 and 2: the magic
 * (bad_magic, format_capability_mismatch) and the version byte
 * (stream_length, version). For WIM1 (§14) the framing is "at least 36 bytes,
 * then the magic", each payload_malformed; int_synth has no framing of its
 * own to check here (WAI_ok). */
WAI_API wai_status wai_check_framing(const wai_capability *cap, const uint8_t *data,
                                     size_t len);

/* How far wai_check_payload went. */
typedef enum wai_checked {
    WAI_CHECKED_FRAMING = 1,  /* magic and version: this build has no parser */
    WAI_CHECKED_PARSE = 2     /* the format's whole parse, §2 steps 1 to 8 */
} wai_checked;

/* Parses a payload as cap's format, in §2's order, and returns the first
 * refusal or WAI_ok: the whole parse for formats this build parses (WIV1,
 * WIF1, WIH1, WIA1, WIS1), the shared framing otherwise; *checked (if not NULL) says
 * which. A parse decodes no stream. */
WAI_API wai_status wai_check_payload(const wai_capability *cap, const uint8_t *data, size_t len,
                                     wai_checked *checked);

/* The largest payload of cap's format that can pass its parse: every
 * length field of §2 to §6 and §16 at its largest within the caps of §7
 * (docs/reading-inputs.md derives each). A longer payload is refused
 * whatever it holds, so a reader may refuse it before reading it.
 * int_synth: exactly 12 + 2^26. UINT64_MAX for a format this build does not
 * parse, and for cap NULL. */
WAI_API uint64_t wai_payload_max_bytes(const wai_capability *cap);

/* The header of a payload of cap's format, parsed in §2's order, as one
 * JSON object (the fields each format's section names; `wai inspect`
 * prints it), into buf by the API's rule for text (include/wai/wai.h):
 * *length its whole length, WAI_invalid_argument when it does not fit, so
 * a call with size 0 learns the room it needs. The parse's refusal when it
 * refuses (nothing written); unsupported_capability for a capability this
 * build does not parse. */
WAI_API wai_status wai_payload_header_json(const wai_capability *cap, const uint8_t *data,
                                           size_t len, char *buf, size_t size, size_t *length);

/* A WIS1 payload's presentation data (integer-payloads §6), which lies
 * outside its decoded planes and their digest. */
typedef struct wai_splat_info {
    uint32_t side;          /* s: each plane is s x s bytes */
    uint32_t planes;        /* attr, the number of planes */
    uint32_t n_gaussians;   /* the first n_gaussians cells of the planes, in raster
                             * order, hold one Gaussian each (1..s·s) */
    uint32_t reserved[5];   /* written zero: room to grow */
} wai_splat_info;

/* Parses data as a whole WIS1 payload (§2's order, the codes
 * wai_check_payload gives) and writes *info and, for each plane i below
 * both info->planes and max_planes, its range as IEEE 754 binary32 bit
 * patterns: ranges[2i] = lo, ranges[2i + 1] = hi (finite, lo <= hi; a
 * plane's byte u presents at about lo + (hi - lo)·u/255). ranges may be
 * NULL when max_planes is 0 (call once so, to learn info->planes). Reads no
 * parameter set and decodes no stream. */
WAI_API wai_status wai_splat_presentation(const uint8_t *data, size_t len, wai_splat_info *info,
                                          uint32_t *ranges, size_t max_planes);

#ifdef __cplusplus
}
#endif

#endif /* WAI_WAI_FORMAT_H */
