/* SPDX-License-Identifier: BSD-2-Clause */
/* Decoding payloads: one decoder per stream of payloads of one capability. */
#ifndef WAI_WAI_DECODE_H
#define WAI_WAI_DECODE_H

#include "wai/wai.h"
#include "wai/wai_backend.h"
#include "wai/wai_dispatch.h"
#include "wai/wai_format.h"
#include "wai/wai_set.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WAI_NO_COST_LIMIT UINT64_MAX
#define WAI_NO_MEMORY_LIMIT UINT64_MAX

/* What a payload's header declares its decode costs (integer-payloads §7,
 * Memory and work), readable before anything decodes. Every figure
 * saturates at UINT64_MAX. */
typedef struct wai_cost {
    uint64_t output_bytes;    /* the decoded output */
    uint64_t entropy_steps;   /* symbols decoded */
    uint64_t macs;            /* network multiply-accumulates */
    uint64_t working_bytes;   /* every buffer the decode holds while it runs, the
                               * output included: its declared memory */
    uint64_t reserved[4];     /* written zero: room to grow */
} wai_cost;

/* The work the cost limit compares: multiply-accumulates plus entropy steps
 * (reading N7), saturating. */
WAI_API uint64_t wai_cost_work(const wai_cost *c);

/* 1 when the cost is within both limits (work <= max_cost and
 * working_bytes <= max_memory), the test a decoder makes before any symbol;
 * 0 means cost_over_limit. */
WAI_API int wai_cost_within(const wai_cost *c, uint64_t max_cost, uint64_t max_memory);

typedef enum wai_output_kind {
    WAI_OUTPUT_NONE = 0,
    WAI_OUTPUT_FRAME,    /* RGB8, rows top to bottom, pixels left to right, R G B */
    WAI_OUTPUT_IMAGE,    /* RGB8, as a frame */
    WAI_OUTPUT_PCM,      /* i16 little-endian, one channel */
    WAI_OUTPUT_PLANES    /* planes of side x side bytes, plane after plane */
} wai_output_kind;

/* "frame", "image", "pcm", "planes" (the tool's JSON), or "none". */
WAI_API const char *wai_output_kind_name(wai_output_kind k);

/* The kind of output a capability's decodes give (WAI_OUTPUT_NONE for
 * NULL). */
WAI_API wai_output_kind wai_capability_output(const wai_capability *cap);

typedef struct wai_output {
    wai_output_kind kind;
    const uint8_t *data;   /* owned by the decoder; valid until its next call */
    size_t size;
    uint32_t width, height; /* frame, image: pixels; pcm: samples x 1; planes: the
                             * side x side (size / (width·height) planes) */
    uint64_t index;        /* the output's number in the stream, from 0 */
    uint32_t sample_rate;  /* pcm: the samples a second its payload declares (WIA1's
                            * sr, integer-payloads §5); 0 for the other kinds */
    uint8_t reserved[32];  /* written zero: room to grow */
} wai_output;

typedef struct wai_decoder_config {
    const char *capability;   /* NULL: the capability the first payload's magic names */
    uint64_t max_cost;        /* WAI_NO_COST_LIMIT (the default), or refuse work
                               * (wai_cost_work) above it: cost_over_limit */
    const wai_set *set;       /* the parameter set of a neural capability (§9); borrowed,
                               * it must outlive the decoder; NULL: none (set_incomplete) */
    const wai_dispatch_options *dispatch; /* neural-dispatch's intent, pin tier and offer;
                                           * NULL: none, the default offer */
    uint64_t max_memory;      /* WAI_NO_MEMORY_LIMIT (the default), or refuse a payload
                               * whose declared memory (wai_cost.working_bytes, which
                               * holds the output) is above it: cost_over_limit, at the
                               * same point as max_cost, before any symbol is decoded
                               * and before the output or a network's buffer is
                               * allocated. A decode then holds at most this plus a
                               * fixed overhead (docs/neural-decodes.md, Memory). */
    const wai_dispatch_probe *probe; /* the device as neural-dispatch §4 step 2 asks
                               * about it; NULL: wai_dispatch_probe_default(). The
                               * decoder adds what this build computes with: a path
                               * whose backend this build lacks is unit_absent, and
                               * the chosen path's backend runs the networks (after
                               * the probe's own run, if it has one); a path whose
                               * backend fails (dispatch_backend_failed) hands over
                               * to the next. Its reserved room must be NULL
                               * (wai_decoder_create: invalid_argument). */
    int streaming;            /* 0 (the default): wai_decoder_send decodes a whole
                               * payload, and a refused clip outputs nothing
                               * (integer-payloads §8). 1: a clip of frames is
                               * decoded a frame at a time as wai_decoder_receive
                               * asks for them, in memory of about two frames
                               * whatever the clip's length (the capabilities
                               * that read no set: wai.video.int_motion; the
                               * others decode whole, as with 0). send then
                               * parses and checks the payload and its cost; a
                               * refusal found at frame k is returned by the
                               * receive after frames 0..k-1 were handed out, and
                               * THOSE FRAMES BELONG TO A REFUSED CLIP: a player
                               * that shows them must be ready to take them back
                               * (a check at the clip's end, stream_noncanonical,
                               * comes after its last frame). The payload's bytes
                               * must stay valid until the last receive (or the
                               * next send or destroy). */
    uint8_t reserved[44];     /* zero */
} wai_decoder_config;

typedef struct wai_decoder wai_decoder;

WAI_API void wai_decoder_config_default(wai_decoder_config *c);
WAI_API wai_status wai_decoder_create(wai_context *ctx, const wai_decoder_config *c,
                                      wai_decoder **out);
WAI_API void wai_decoder_destroy(wai_decoder *d);

/* ---- routing (integer-payloads §8, SPEC §4) -------------------------------
 *
 * One candidate of a route: what a WAI1's capability and its fallback, or a
 * WAI2's entries, give a sink, in order. libwai does not read envelopes
 * (SPEC is not among its specs): the caller lists the candidates. */
typedef struct wai_route_candidate {
    const char *capability;   /* NULL: the one the payload's magic names */
    const uint8_t *payload;
    size_t len;
    const wai_set *set;       /* borrowed, as wai_decoder_config's; NULL: none */
    const wai_dispatch_options *dispatch; /* this candidate's intent, its own set pin's
                                           * tier, the offer; NULL: none */
    uint8_t reserved[32];     /* zero */
} wai_route_candidate;

/* Decodes the first candidate the sink can decode through: each in turn, a
 * decoder made with base's limits and probe (base's capability, set and
 * dispatch are the candidate's) and the candidate's payload sent. A routing
 * refusal (wai_status_kind_of: WAI_KIND_ROUTE, i.e. set_incomplete,
 * not_dispatchable, unsupported_capability, cost_over_limit) moves on to
 * the next; any other status ends the route, ok or not: a payload refusal
 * is final and no fallback is tried (§8). statuses[i] (n of them; may be
 * NULL) is candidate i's status for each candidate tried, *ended (may be
 * NULL) the index of the last tried. *out is that candidate's decoder
 * (its outputs to receive when the status is ok; its dispatch report and
 * cost), the caller's to destroy; NULL when no decoder could be made.
 * Returns the last tried candidate's status: a routing code when every
 * candidate routed. invalid_argument for no candidates or a nonzero
 * reserved byte, before any is tried. */
WAI_API wai_status wai_decode_route(wai_context *ctx, const wai_decoder_config *base,
                                    const wai_route_candidate *candidates, size_t n,
                                    wai_decoder **out, size_t *ended, wai_status *statuses);

/* The capability the decoder decodes through (known once configured or once
 * the first payload has been sent), or NULL. */
WAI_API const char *wai_decoder_capability(const wai_decoder *d);

/* Decodes one payload: a whole clip, image or clip of samples, or one frame
 * of a frame-form capability's stream. It parses and checks the payload in
 * the spec's order, compares its declared cost (written to *cost when not
 * NULL, as soon as it is known) with the limit before any symbol, and
 * decodes. A refused payload outputs nothing; in a frame stream the frames
 * before it stand, and an inter frame after a refusal has no group (it is
 * refused field_range until an intra frame opens a new one). */
WAI_API wai_status wai_decoder_send(wai_decoder *d, const uint8_t *data, size_t len,
                                    wai_cost *cost);

/* Takes the next output of the payload last sent: WAI_ok with out->kind set,
 * or WAI_ok with out->kind == WAI_OUTPUT_NONE when there is no more. */
WAI_API wai_status wai_decoder_receive(wai_decoder *d, wai_output *out);

/* Passes over the next n outputs of the payload last sent: each is decoded
 * (a clip's frame k needs frames 0 .. k - 1: integer-payloads §3) but not
 * handed out, so the next receive gives the one after them, with its own
 * index. A seek to frame k of a clip: send it, skip k, receive.
 * *skipped (may be NULL) says how many were passed: fewer than n at the
 * end of the outputs. A refusal found while passing them (a streaming
 * clip's stream running out) is returned as receive would return it, and
 * ends the outputs. */
WAI_API wai_status wai_decoder_skip(wai_decoder *d, uint64_t n, uint64_t *skipped);

/* The wai-neural-dispatch/1 report of the last payload sent, when it
 * reached the dispatch (a neural capability whose set and payload passed
 * §7 steps 1 to 4 and the cost limit): which path ran its networks, or why
 * every path was refused. NULL otherwise. Valid until the next send
 * (wai_dispatch_report_json writes its text). */
WAI_API const wai_dispatch_report *wai_decoder_dispatch_report(const wai_decoder *d);

/* neural-dispatch §6.3's symbols_digest of the last payload sent: the
 * BLAKE3 of its entropy stage's symbols, each as four bytes little-endian,
 * the same on every machine whatever path ran the networks. 1 and *out
 * when the last decode has one (a capability with such a stage, decoded);
 * 0 otherwise. */
WAI_API int wai_decoder_symbols_digest(const wai_decoder *d, uint8_t out[32]);

/* The same digest from the entropy stage alone: the parse, §7 steps 1 to
 * 4 and the symbols, no network and no dispatch (`wai inspect`).
 * unsupported_capability for a capability with no such stage. */
WAI_API wai_status wai_symbols_digest(wai_context *ctx, const char *capability,
                                      const wai_set *set, const uint8_t *data, size_t len,
                                      uint8_t out[32]);

/* The symbols themselves, as wai_symbols_digest decodes them (channel after
 * channel, the order the digest hashes): *n_symbols is their count; out
 * NULL asks for the count alone, else out holds cap of them
 * (invalid_argument, *n_symbols set, when cap is short). The digest is the
 * BLAKE3 of them as i32 little-endian. */
WAI_API wai_status wai_entropy_symbols(wai_context *ctx, const char *capability,
                                       const wai_set *set, const uint8_t *data, size_t len,
                                       int32_t *out, size_t cap, size_t *n_symbols);

/* ---- a latent capability's decode, its networks the caller's ------------------
 * For a caller whose networks cannot run inside a decoder (a page's WebNN,
 * which answers later): everything before the networks, as a decoder does
 * it (the parse, §7 steps 1 to 4, the cost against the limits, the entropy
 * stage), once; the caller then drives the dispatch itself
 * (wai_dispatch_start, include/wai/wai_dispatch.h) and runs the networks on
 * the job. web/glue/float_path.c is such a caller. */
typedef struct wai_latent wai_latent;

/* c: the capability (NULL: the one the magic names), the set and the
 * limits (its dispatch and probe are not read). The parse's, the set's and
 * the stream's refusals, cost_over_limit, and unsupported_capability for a
 * capability whose networks take no latent. *cost as soon as it is known
 * (cost may be NULL). On success *out holds the loaded set until destroyed. */
WAI_API wai_status wai_latent_decode(wai_context *ctx, const wai_decoder_config *c,
                                     const uint8_t *data, size_t len, wai_cost *cost,
                                     wai_latent **out);
WAI_API void wai_latent_destroy(wai_latent *l);

/* Its job (include/wai/wai_backend.h): the symbols, offsets and latent
 * shape, the picture's size; rgb is NULL, for the caller to point at
 * picture_height * picture_width * 3 bytes of its own before computing. */
WAI_API wai_latent_job *wai_latent_job_of(wai_latent *l);

/* Its capability, and neural-dispatch §6.3's symbols digest. */
WAI_API const wai_capability *wai_latent_capability(const wai_latent *l);
WAI_API void wai_latent_symbols_digest(const wai_latent *l, uint8_t out[32]);

/* How many outputs a payload's decode gives, from §2's parse alone (no
 * set read, no symbol decoded): a clip's frames as its header declares them
 * (WIV1's n_frames, WIC1's), 1 for any other payload (a picture, one frame
 * of a frame stream, a clip of samples, a splat's planes). With the
 * framerate a player knows, a clip's duration as soon as its header is in.
 * capability NULL: by its magic. The parse's refusals. */
WAI_API wai_status wai_payload_outputs(const char *capability, const uint8_t *data, size_t len,
                                       uint64_t *n);

/* A payload's declared cost without decoding it (parses the header).
 * capability NULL: by its magic. A capability that decodes against a
 * parameter set needs it: set_incomplete here (wai_declared_cost_set). */
WAI_API wai_status wai_declared_cost(const char *capability, const uint8_t *data, size_t len,
                                     wai_cost *cost);

/* The same with the parameter set (NULL for a capability without one): the
 * parse, then §7 steps 1 to 4 (the set's members, the set against the
 * payload, every network planned, the shapes), then the cost, as a decode
 * computes it before any symbol. */
WAI_API wai_status wai_declared_cost_set(wai_context *ctx, const char *capability,
                                         const wai_set *set, const uint8_t *data, size_t len,
                                         wai_cost *cost);

#ifdef __cplusplus
}
#endif

#endif
