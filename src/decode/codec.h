/* SPDX-License-Identifier: BSD-2-Clause */
/* A codec: everything libwai knows of one capability, written once, in the
 * table of decode/codecs.c. Its registry row (name, format, keyframe kind,
 * class, tier, the set's members in §9's order), its output kind, the
 * largest payload its parse can pass, its set's loader, and its decode as
 * the steps of §7 in order:
 *
 *   parse      §2: the whole parse (the capability's refusals, in order)
 *   [set]      §7 step 1: the members and pin; a loaded set (the context's
 *              cache), when the parse says the payload reads one
 *   prepare    §7 steps 2 to 4 (the set against the payload, the plans),
 *              then the declared cost and the outputs' shape
 *   [limits]   the cost and memory limits; the dispatch (networks only)
 *   run        §7 steps 5 and 6: the streams and the networks, the output
 *
 * The decoder (decode/decoder.c) walks these steps top to bottom for every
 * capability; a capability's own code lives in its own files, and adding
 * one is adding those files and one entry to the table. */
#ifndef WAI_DECODE_CODEC_H
#define WAI_DECODE_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "backend/registry.h"
#include "common/exec.h"
#include "wai/wai.h"
#include "common/text.h"
#include "ops/network.h"
#include "sets/loaded.h"
#include "wai/wai_backend.h"
#include "wai/wai_decode.h"
#include "wai/wai_format.h"

typedef struct wai_codec wai_codec;

/* The bytes a codec may keep of one payload's decode (its parse, plans and
 * whatever else its steps pass on); each codec asserts its state fits. */
#define WAI_JOB_STATE_BYTES 3072

/* A job's outputs: n equal parts of one buffer, their kind and shape from
 * prepare on, their bytes after run (the decoder keeps them to hand out). */
typedef struct wai_job_outputs {
    wai_output_kind kind;
    uint32_t width, height;     /* frame, image: pixels; pcm: samples x 1; planes: side x side */
    uint32_t n;                 /* equal parts of the output */
    uint32_t sample_rate;       /* pcm only */
    size_t bytes;               /* one output's */
    const uint8_t *data;        /* after run */
} wai_job_outputs;

/* One payload's decode, from its parse to its outputs. */
typedef struct wai_job {
    const wai_codec *codec;
    void *stream;               /* a frame form's stream state (the decoder's), or NULL
                                 * (a cost query: no stream to check against) */
    int reads_set;              /* from parse: 1 when §7 step 1 applies to this payload */
    const wai_loaded_set *set;  /* from step 1 on, when reads_set */
    const wai_set *members;     /* the set's members as given (a program a backend reads) */
    wai_path path;              /* the path that runs (set before run) */
    /* A latent capability's networks' job: its latent's shape and offsets
     * and the picture's size from prepare on, its symbols after the
     * entropy stage (ops->latent), its picture after the backend's run. */
    wai_latent_job latent;
    int has_digest;             /* run or symbols left symbols_digest */
    uint8_t symbols_digest[32];
    wai_cost cost;              /* from prepare on */
    uint64_t net_work_bytes;    /* from prepare on: the largest network arena a run needs
                                 * (its plans' work_bytes), counted in cost.working_bytes;
                                 * the decoder keeps no larger arena into the run (0:
                                 * none) */
    wai_job_outputs out;
    int in_stream;              /* 1: run leaves the outputs in the stream state (no output
                                 * buffer is allocated for it) */
    _Alignas(16) unsigned char state[WAI_JOB_STATE_BYTES];
} wai_job;

/* The job's state as the codec's own type. */
#define WAI_JOB_STATE(j, type) ((type *)(void *)(j)->state)

typedef struct wai_codec_ops {
    /* §2's whole parse of data (views into it) into j's state; sets
     * j->reads_set when the payload reads the set (default: the codec
     * has a set). A clip's also sets its outputs' shape from its header
     * (j->out.n, its frames: wai_payload_outputs asks no more). */
    wai_status (*parse)(wai_job *j, const uint8_t *data, size_t len);
    /* §7 steps 2 to 4 (j->set when reads_set), then j->cost and the
     * outputs' shape; a frame form also checks the stream (j->stream,
     * when not NULL). Allocates plans through a. */
    wai_status (*prepare)(wai_job *j, const wai_allocator *a);
    /* Integer networks: §7 steps 5 and 6 into out (j->cost.output_bytes
     * bytes; NULL when j->in_stream) on ex (its threads, loops and layer
     * kernels), then j->out.data. */
    wai_status (*run)(wai_job *j, const wai_exec *ex, uint8_t *out);
    /* A latent's networks (WAI_NETWORKS_LATENT): the entropy stage alone,
     * j->latent.symbols (allocated through a, freed by release) and the
     * symbols digest; the backend then computes the picture. */
    wai_status (*latent)(wai_job *j, const wai_allocator *a);
    /* Frees what parse and prepare hold (safe after any step; NULL: none). */
    void (*release)(wai_job *j, const wai_allocator *a);
    /* The parsed header as a JSON object (wai_payload_header_json). */
    void (*describe)(const wai_job *j, wai_text *t);
    /* The entropy stage alone (after prepare), leaving symbols_digest:
     * neural-dispatch §6.3's digest, and the symbols themselves in out
     * (cost.entropy_steps of them) unless out is NULL. NULL: the
     * capability has none. */
    wai_status (*symbols)(wai_job *j, const wai_allocator *a, int32_t *out);
    /* A frame form: its stream state's size (zeroed when the decoder
     * makes it), and how a refusal or the decoder's end closes it. */
    size_t stream_bytes;
    void (*stream_close)(void *stream, const wai_allocator *a);
    /* The capability's description for steps shared by several codecs
     * (decode/one_network.h), or NULL. */
    const void *impl;
    /* A clip decoded an output at a time (wai_decoder_config.streaming),
     * for a job that reads no set; NULL: the codec decodes whole. After
     * prepare and the limits, step_open takes what the steps keep (at most
     * a few outputs, whatever the clip's length); step(k) decodes output k
     * (k = 0, 1, ... in order) and points *out at it, valid until the next
     * step; step(j->out.n) checks the end of the streams (no output);
     * step_close frees what step_open took (safe after any step). */
    wai_status (*step_open)(wai_job *j, const wai_exec *ex);
    wai_status (*step)(wai_job *j, const wai_exec *ex, uint32_t k, const uint8_t **out);
    void (*step_close)(wai_job *j, const wai_allocator *a);
} wai_codec_ops;

struct wai_codec {
    wai_capability cap;          /* the registry row (include/wai/wai_format.h) */
    wai_networks networks;       /* a job that reads no set runs on the integer
                                  * interpreter, with no dispatch */
    wai_output_kind output;      /* what its decodes output */
    uint64_t max_bytes;          /* wai_payload_max_bytes (docs/reading-inputs.md) */
    /* Every code its parse (wai_check_payload) can give, in the order §2
     * checks them, WAI_ok-terminated: a corpus fixture stands for each
     * (tests/unit/test_codecs.c). */
    const wai_status *parse_codes;
    /* The members an encoder reads beside the set's (libwai_write's),
     * NULL-terminated; a decode never reads them. */
    const char *encoder_members[4];
    /* Its parameter set's loader (the members are cap.set_members); NULL:
     * it reads none. */
    wai_set_loader load_set;
    const wai_codec_ops *ops;    /* NULL: this build does not decode it */
};

/* The codec of a capability (NULL for NULL). */
const wai_codec *wai_codec_of(const wai_capability *cap);

/* A job for codec c (its stream state, or NULL), ready for ops->parse: all
 * zero (its state too) but for the codec, stream, reads_set and kind. */
void wai_job_init(wai_job *j, const wai_codec *c, void *stream);

/* The set kind of a codec (its members and loader), for sets/. */
wai_set_kind wai_codec_set_kind(const wai_codec *c);

#endif
